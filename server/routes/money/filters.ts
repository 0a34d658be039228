import { z } from 'zod';

/** Declares list filters so validation keeps them (and OpenAPI shows them); values are checked per column. */
export const filters = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, z.string().max(1000).optional()])));
