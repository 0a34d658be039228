import { z } from 'zod';

/**
 * The list query only passes on parameters it declares (zod drops the rest), so each resource's
 * field filters are declared here by name to reach `ListSpec.filters`.
 */
export function filterQuery(...names: string[]): z.ZodObject {
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().max(1000).optional()])));
}
