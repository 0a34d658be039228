export const ROLES = ['super_admin', 'admin', 'supervisor', 'depot_manager', 'company', 'driver'] as const;
export type Role = (typeof ROLES)[number];

/** Staff run the courier itself; they see every company's records. */
export const STAFF_ROLES: readonly Role[] = ['super_admin', 'admin', 'supervisor', 'depot_manager'];
export const ADMIN_ROLES: readonly Role[] = ['super_admin', 'admin'];

export function isStaff(role: Role): boolean {
  return STAFF_ROLES.includes(role);
}
export function isAdmin(role: Role): boolean {
  return ADMIN_ROLES.includes(role);
}
