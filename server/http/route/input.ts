import type { z } from 'zod';
import { unauthenticated } from '../../errors';
import type { SessionUser } from '../../services/auth/session';
import { validationError } from '../errorHandler';

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** One part of the request (path, query, body) read with its schema; a route without one gets undefined. */
export function parseWith<S extends Schema>(schema: S, value: unknown, where: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data as Out<S>;
}

/**
 * The handler's input: what was read, and `user`, which answers 401 only when read, so a public
 * route that serves callers with and without a session reads `maybeUser` instead.
 */
export function withUser<T extends { maybeUser: SessionUser | undefined }>(fields: T): T & { readonly user: SessionUser } {
  return Object.defineProperty(fields, 'user', {
    get() {
      if (!fields.maybeUser) throw unauthenticated();
      return fields.maybeUser;
    },
    enumerable: true,
  }) as T & { readonly user: SessionUser };
}
