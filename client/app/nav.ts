import type { Permission } from '../../shared/permissions';
import { isAdmin, type Role } from '../../shared/roles';
import { can, canUseDepot } from './access';

export interface NavItem {
  href: string;
  label: string;
  group: string;
  permission?: Permission;
  roles?: (role: Role) => boolean;
}

/**
 * The menu. Resource screens are `#/r/<name>`, named as in client/admin/resource/declarations.ts;
 * this list holds only labels and permissions so the start-up bundle does not load any screen.
 */
export const NAV: readonly NavItem[] = [
  { href: '/', label: 'Dashboard', group: 'Work', permission: 'dashboard.view' },
  { href: '/packages', label: 'Packages', group: 'Work', permission: 'package.view' },
  { href: '/packages/upload', label: 'Upload packages', group: 'Work', permission: 'package.manage' },
  { href: '/depot', label: 'Depot scanning', group: 'Work', roles: canUseDepot },
  { href: '/r/standing-delivery', label: 'Standing deliveries', group: 'Work', permission: 'package.view' },
  { href: '/dispatch', label: 'Dispatch board', group: 'Work', permission: 'route.manage' },
  { href: '/routes', label: 'Routes', group: 'Work', permission: 'route.view' },
  { href: '/map', label: 'Live map', group: 'Work', permission: 'route.view' },
  { href: '/r/vehicle', label: 'Vehicles', group: 'Fleet', permission: 'route.view' },
  { href: '/fleet/shifts', label: 'Driver shifts', group: 'Fleet', permission: 'route.manage' },
  { href: '/fleet/plan-settings', label: 'Plan settings', group: 'Fleet', permission: 'route.manage' },
  { href: '/r/warehouse', label: 'Warehouses', group: 'Places', permission: 'warehouse.view' },
  { href: '/fleet/depots', label: 'Depot positions', group: 'Places', permission: 'warehouse.manage' },
  { href: '/r/pickup-point', label: 'Pickup points', group: 'Places', permission: 'pickup_point.view' },
  { href: '/org/pickup-qr', label: 'Pickup QR codes', group: 'Places', permission: 'pickup_point.view' },
  { href: '/r/zone', label: 'Zones', group: 'Places', permission: 'geo.manage' },
  { href: '/r/country', label: 'Countries', group: 'Places', permission: 'geo.manage' },
  { href: '/r/state', label: 'States', group: 'Places', permission: 'geo.manage' },
  { href: '/r/city', label: 'Cities', group: 'Places', permission: 'geo.manage' },
  { href: '/r/suburb', label: 'Suburbs', group: 'Places', permission: 'geo.manage' },
  { href: '/r/area', label: 'Areas', group: 'Places', permission: 'geo.manage' },
  { href: '/r/street', label: 'Streets', group: 'Places', permission: 'geo.manage' },
  { href: '/r/pincode', label: 'Postcodes', group: 'Places', permission: 'geo.manage' },
  { href: '/r/company', label: 'Companies', group: 'People', permission: 'company.manage' },
  { href: '/r/employee', label: 'Employees', group: 'People', permission: 'employee.view' },
  { href: '/org/groups', label: 'Permission groups', group: 'People', permission: 'permission.view' },
  { href: '/org/sessions', label: 'Signed-in devices', group: 'People', permission: 'employee.manage' },
  { href: '/org/registrations', label: 'Company approvals', group: 'People', permission: 'company.manage' },
  { href: '/org/depots', label: 'Company depots', group: 'People', permission: 'company.view' },
  { href: '/org/support', label: 'Driver support', group: 'People', permission: 'support.view' },
  { href: '/r/public-holiday', label: 'Public holidays', group: 'Settings', permission: 'company.manage' },
  { href: '/r/package-type', label: 'Package types', group: 'Settings', permission: 'package_type.view' },
  { href: '/r/failed-delivery-status', label: 'Failed-delivery reasons', group: 'Settings', permission: 'failed_status.view' },
  { href: '/r/unit-of-measurement', label: 'Units of measurement', group: 'Settings', permission: 'unit.manage' },
  { href: '/r/delivery-rate', label: 'Delivery rates', group: 'Settings', permission: 'rate.manage' },
  { href: '/r/driver-delivery-rate', label: 'Driver rates', group: 'Settings', permission: 'rate.manage' },
  { href: '/settings/business-profile', label: 'Business profile', group: 'Settings', roles: isAdmin },
  { href: '/org/audit', label: 'Audit log', group: 'Settings', roles: (r) => r === 'super_admin' || r === 'admin' },
  { href: '/money/wallets', label: 'Wallets', group: 'Money', permission: 'wallet.manage' },
  { href: '/money/wallet', label: 'Wallet', group: 'Money', roles: (r) => r === 'company' },
  { href: '/money/invoices', label: 'Invoices', group: 'Money', permission: 'invoice.view' },
  { href: '/money/unpriced', label: 'Unpriced parcels', group: 'Money', permission: 'invoice.view' },
  { href: '/money/adjustments', label: 'Wallet adjustments', group: 'Money', permission: 'wallet.view' },
  {
    href: '/cod/cash',
    label: 'Cash hand-over',
    group: 'Money',
    roles: (r) => ['super_admin', 'admin', 'supervisor', 'depot_manager'].includes(r),
  },
  {
    href: '/cod/report',
    label: 'Cash on delivery',
    group: 'Money',
    roles: (r) => ['super_admin', 'admin', 'supervisor', 'depot_manager'].includes(r),
  },
  { href: '/cod/shippers', label: 'COD owed to shippers', group: 'Money', permission: 'wallet.view' },
  { href: '/money/rate-cards', label: 'Rate cards', group: 'Money', permission: 'rate.view' },
  { href: '/money/calculator', label: 'Price calculator', group: 'Money', permission: 'rate.view' },
  { href: '/reports', label: 'Reports', group: 'Reports', permission: 'report.view' },
  { href: '/integrations', label: 'Integrations', group: 'Reports', permission: 'webhook.view' },
];

export function navFor(role: Role): NavItem[] {
  return NAV.filter((item) => (item.roles ? item.roles(role) : item.permission ? can(role, item.permission) : true));
}

/** The nav entry a path belongs to (longest prefix), for aria-current. */
export function activeHref(path: string, items: readonly NavItem[]): string | null {
  let best: string | null = null;
  for (const item of items) {
    const hit = item.href === '/' ? path === '/' || path === '/dashboard' : path === item.href || path.startsWith(`${item.href}/`);
    if (hit && (!best || item.href.length > best.length)) best = item.href;
  }
  return best;
}
