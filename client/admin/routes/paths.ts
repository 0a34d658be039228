/** The API paths of the route and map screens (test/browser/routes.test.ts checks them against /api/openapi.json). */
export const ROUTE_PATHS = {
  routes: 'route/',
  route: (id: number) => `route/${id}/`,
  routePackages: (id: number) => `route/${id}/packages/`,
  optimize: (id: number) => `route/${id}/optimize/`,
  assignDriver: (id: number) => `route/${id}/assign-driver/`,
  assignOtherDriver: (id: number) => `route/${id}/assign-other-driver/`,
  statusChange: (id: number) => `route/${id}/status-change/`,
  pod: (id: number) => `route/${id}/pod/`,
  csv: 'route/csv-download/',
  /** Parcels on no planned or running route: created, received or assigned. */
  routable: 'dashboard/optimize-route-packages/',
  packages: 'package/',
  map: 'dashboard/map/',
} as const;

export const ORG_PATHS = {
  groups: 'group-permission/',
  group: (id: number) => `group-permission/${id}/`,
  employees: 'employee/',
  userGroups: (id: number) => `employee/${id}/groups/`,
  sessions: (id: number) => `employee/${id}/sessions/`,
  tickets: 'driver-support/',
  ticket: (id: number) => `driver-support/${id}/`,
  companies: 'company/',
  companyStatus: (id: number) => `company/${id}/status-change/`,
  depots: 'company/depot-address',
  pickupPoints: 'pickup-point/',
  pickupQr: (id: number) => `pickup-point/${id}/qr-code/`,
  auditLog: 'audit-log/',
} as const;
