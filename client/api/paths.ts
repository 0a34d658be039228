/**
 * API paths the screens call beyond the generic resources (those follow DESIGN.md section 3 from
 * their declaration). One list, so a renamed route is one edit; test/browser/admin.test.ts checks
 * each against /api/openapi.json.
 */
export const PATHS = {
  packages: 'package/',
  package: (id: number) => `package/${id}/`,
  packageLocation: (id: number) => `package/${id}/location/`,
  packageLocations: 'package/locations/',
  locationReview: 'package/location-review/',
  geocodeJob: (id: number) => `geocode-job/${id}/`,
  /** Events, attempts and proof of delivery of one parcel. */
  packageHistory: (id: number) => `history/${id}/`,
  packageStatusChange: (id: number) => `package/${id}/status-change/`,
  packageCsvDownload: 'package/csv-download/',
  packageCsvUpload: 'package/bulk-upload/',
  packageExcelUpload: 'package/excel-upload/',
  assignDriver: 'assign-package/assign-driver/',
  unassign: 'assign-package/unassign-package/',
  dashboardCount: 'assign-package/dashboard-count/',
  drivers: 'employee/driver-list/',
  flagged: 'package-delivered/flagged/',
  resolveFlag: (id: number) => `package-delivered/${id}/resolve-flag/`,
  scan: {
    zone: 'scan-package-api/scan-assign-zone/',
    supervisor: 'scan-package-api/supervisor-scan/',
    supervisorList: 'scan-package-api/supervisor-scan/',
    returnParcel: 'return-parcel/depot-manager/',
  },
} as const;
