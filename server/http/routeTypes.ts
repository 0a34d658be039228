import type { Permission } from '../../shared/permissions';
import type { Role } from '../../shared/roles';

// Apart from route.ts so that the OpenAPI document (openapi.ts), which route.ts registers with, needs none of it.
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Who may call a route: anyone, any logged-in user, holders of a permission, or some roles. */
export type Access = 'public' | 'authenticated' | Permission | { roles: readonly Role[] };
