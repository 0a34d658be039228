import type { Role } from './roles';

/**
 * Permissions are `<area>.<verb>` strings. Every route declares the one it needs; a user holds the
 * defaults of their role plus those of their permission groups. Areas are coarse on purpose: an
 * admin screen maps to one area.
 */
export const PERMISSION_AREAS = [
  'geo',
  'company',
  'employee',
  'warehouse',
  'pickup_point',
  'package_type',
  'unit',
  'failed_status',
  'package',
  'assign',
  'scan',
  'delivery',
  'route',
  'rate',
  'wallet',
  'invoice',
  'report',
  'webhook',
  'permission',
  'support',
  'dashboard',
  'tracking',
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];
export type Permission = `${PermissionArea}.${'view' | 'manage'}`;

export const ALL_PERMISSIONS: Permission[] = PERMISSION_AREAS.flatMap((a) => [`${a}.view`, `${a}.manage`] as Permission[]);

const view = (...areas: PermissionArea[]): Permission[] => areas.map((a) => `${a}.view` as Permission);
const manage = (...areas: PermissionArea[]): Permission[] => areas.map((a) => `${a}.manage` as Permission);

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  super_admin: ALL_PERMISSIONS,
  admin: ALL_PERMISSIONS,
  supervisor: [
    ...view(
      'geo',
      'company',
      'employee',
      'warehouse',
      'pickup_point',
      'package_type',
      'unit',
      'failed_status',
      'package',
      'assign',
      'route',
      'rate',
      'report',
      'support',
      'dashboard',
      'tracking',
    ),
    ...manage('package', 'assign', 'scan', 'delivery', 'route', 'support'),
  ],
  depot_manager: [
    ...view(
      'geo',
      'company',
      'employee',
      'warehouse',
      'pickup_point',
      'package_type',
      'unit',
      'failed_status',
      'package',
      'assign',
      'route',
      'support',
      'dashboard',
      'tracking',
    ),
    ...manage('package', 'assign', 'scan', 'route'),
  ],
  company: [
    ...view(
      'geo',
      'company',
      'pickup_point',
      'package_type',
      'unit',
      'failed_status',
      'package',
      'rate',
      'wallet',
      'invoice',
      'report',
      'webhook',
      'dashboard',
      'tracking',
      'employee',
    ),
    ...manage('package', 'pickup_point', 'webhook'),
  ],
  driver: [
    ...view('geo', 'failed_status', 'package', 'route', 'package_type', 'support', 'dashboard', 'tracking', 'warehouse', 'pickup_point'),
    ...manage('scan', 'delivery', 'support'),
  ],
};

/**
 * What a company login may ever hold, whatever its permission groups say: its role's defaults plus
 * managing its own people (its drivers; the rank rule in shared/roles.ts keeps it to lower ranks).
 * Everything else acts on data outside one company (master data, every company's packages, rates,
 * permission groups, other companies' accounts), so granting it to a company login is refused and,
 * should a group still carry it, ignored at sign-in.
 */
export const COMPANY_GRANTABLE: ReadonlySet<Permission> = new Set<Permission>([...ROLE_PERMISSIONS.company, 'employee.manage']);

export function grantableTo(role: Role, permission: Permission): boolean {
  return role !== 'company' || COMPANY_GRANTABLE.has(permission);
}
