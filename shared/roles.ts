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

/**
 * Rank of each role: who may act on whose account. A company login ranks above drivers (its own
 * drivers), below every staff role.
 */
export const ROLE_RANK: Record<Role, number> = { super_admin: 5, admin: 4, supervisor: 3, depot_manager: 2, company: 1, driver: 0 };

/**
 * The one rank rule, for every path that touches another person's account (edit, re-role,
 * deactivate, archive, delete, reset, groups, sessions, documents) and for the role an account is
 * given: the actor must rank strictly above the account, before and after the change. A super admin
 * is the exception for super admins (someone must be able to manage the top rank).
 */
export function outranks(actor: Role, target: Role): boolean {
  return actor === 'super_admin' || ROLE_RANK[actor] > ROLE_RANK[target];
}
