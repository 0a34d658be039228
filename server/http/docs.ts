import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env';

/**
 * Swagger UI at `/api/docs`, served from the installed swagger-ui-dist package: no CDN, no inline
 * script (the page loads `docs/init.js`), so the Content-Security-Policy can say `script-src 'self'`
 * and the docs work on an installation without internet access.
 */
const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Courier API</title>
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
  <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis] });\n`;

export function docsRoutes(api: OpenAPIHono<AppEnv>): void {
  // Read once, on first use, and kept: the files never change while the server runs.
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  const asset = (name: string) => {
    let bytes = cache.get(name);
    if (!bytes) {
      bytes = new Uint8Array(readFileSync(join(DIST, name)));
      cache.set(name, bytes);
    }
    return bytes;
  };
  api.get('/docs', (c) => c.html(PAGE));
  api.get('/docs/init.js', (c) => c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }));
  api.get('/docs/:asset', (c, next) => {
    const name = c.req.param('asset');
    const type = ASSETS[name];
    if (!type) return next();
    return c.body(asset(name), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
}
