import { ROLE_PERMISSIONS, type Permission } from '../../shared/permissions';
import type { Role } from '../../shared/roles';

/** The web app's own gate; the server checks again on every call, so this only decides what is shown. */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Drivers work in the driver app; the admin web refuses them even with a valid token. */
export function canUseAdmin(role: Role): boolean {
  return role !== 'driver';
}

export function canUseDepot(role: Role): boolean {
  return role === 'super_admin' || role === 'admin' || role === 'supervisor' || role === 'depot_manager';
}

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super admin',
  admin: 'Admin',
  supervisor: 'Supervisor',
  depot_manager: 'Depot manager',
  company: 'Company',
  driver: 'Driver',
};
