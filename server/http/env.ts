import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../deps';
import type { SessionUser } from '../services/auth/session';

export interface AppEnv {
  Variables: {
    deps: Deps;
    user?: SessionUser;
    requestId: string;
  };
}
export type App = OpenAPIHono<AppEnv>;
