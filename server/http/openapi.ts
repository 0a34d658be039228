import type { OpenAPIHono } from '@hono/zod-openapi';
import { describeJsonLimits, jsonLimitsOf, type JsonLimits } from './jsonLimits';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/errors';
import type { AppEnv } from './env';
import type { Access, Method } from './routeTypes';

export const ErrorBodySchema = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.enum(ERROR_CODES),
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
  details: z.record(z.string(), z.unknown()).optional(),
});

const ERROR_STATUSES: Record<string, string> = {
  400: 'Invalid input',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict or invalid transition',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Idempotency key reused with another body',
  429: 'Rate limited',
};

const errorContent = { 'application/json': { schema: ErrorBodySchema } };

interface SpecLike {
  path: string;
  catalogue: readonly string[];
  summary: string;
  description?: string;
  tags?: readonly string[];
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyKind?: 'json' | 'multipart';
  jsonLimits?: JsonLimits;
  response?: z.ZodType;
  produces?: string;
  status?: number;
}

/** Multipart file fields are `z.instanceof(File)`, which JSON Schema cannot express: document them as binary strings. */
function documentable(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
    const isFile = inner instanceof z.ZodCustom || (inner instanceof z.ZodArray && inner.element instanceof z.ZodCustom);
    const doc = isFile ? z.string().describe('file (binary)') : field;
    shape[key] = isFile && field instanceof z.ZodOptional ? doc.optional() : doc;
  }
  return z.object(shape);
}

function asObject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  return schema instanceof z.ZodObject ? schema : undefined;
}

/** Registers one operation in the OpenAPI document with the catalogue ids it serves (`x-catalogue`). */
export function registerOperation(app: OpenAPIHono<AppEnv>, spec: SpecLike, method: Method, primary: boolean): void {
  const status = spec.status ?? 200;
  const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
    [status]: {
      description: 'Success',
      content: spec.produces
        ? { [spec.produces]: { schema: z.string() } }
        : { 'application/json': { schema: spec.response ?? z.object({}).passthrough() } },
    },
  };
  for (const [code, description] of Object.entries(ERROR_STATUSES)) {
    if (code === '401' && spec.access === 'public') continue;
    responses[code] = { description, content: errorContent };
  }
  const bodyMedia = spec.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
  app.openAPIRegistry.registerPath({
    method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags ? [...spec.tags] : [spec.path.split('/')[1] ?? 'api'],
    operationId: `${method}_${spec.path
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')}`,
    security: spec.access === 'public' ? [] : [{ bearerAuth: [] }],
    request: {
      params: asObject(spec.params),
      query: asObject(spec.query),
      body: spec.body
        ? {
            required: true,
            content: { [bodyMedia]: { schema: documentable(spec.body) } },
            // The bounds every JSON body is held to (security issue 30), so callers can read them here.
            ...(spec.bodyKind === 'multipart' ? {} : { description: describeJsonLimits(jsonLimitsOf(spec)) }),
          }
        : undefined,
    },
    responses,
    'x-catalogue': primary ? [...spec.catalogue] : [],
    'x-access': typeof spec.access === 'string' ? spec.access : `roles:${spec.access.roles.join(',')}`,
  });
}

export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  return app.getOpenAPIDocument({
    openapi: '3.0.3',
    info: { title: 'Courier API', version: '1.0.0', description: 'Courier delivery management. Paths are relative to /api.' },
    servers: [{ url: '/api' }],
  });
}
