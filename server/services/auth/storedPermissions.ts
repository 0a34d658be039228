import { ALL_PERMISSIONS, type Permission } from '../../../shared/permissions';

// Its own module: the session (every request) reads stored groups without the group resource's code.
const KNOWN = new Set<string>(ALL_PERMISSIONS);

/** Stored JSON back to permissions; anything no longer known (a retired area) is dropped, not trusted. */
export function parsePermissions(json: string): Permission[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter((p): p is Permission => typeof p === 'string' && KNOWN.has(p)) : [];
}
