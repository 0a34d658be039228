import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { driverPrecache, precompress, screenPrecacheList } from './scripts/vitePlugins';
// The runtime cache of build files, which the depot app fills itself.
import { ASSET_CACHE } from './client/app/offlineCache';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
// The phone precaches the driver app only; admin and depot screens load from the network.
const precache = driverPrecache();

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2020',
    // Two entries: the app, and the recipients' tracking page with its own small bundle (no app code).
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./client/index.html', import.meta.url)),
        track: fileURLToPath(new URL('./client/track.html', import.meta.url)),
      },
      output: {
        // Fewer, larger chunks on the driver's path: on 3G each request costs a round trip and a
        // browser opens only six connections per host (a seventh waits a whole round trip). `shell` is
        // what every page loads, the recipients' tracking page included (Preact, runtime helpers: no
        // app code). `app` is what every screen of the app shares, with the driver's login: the
        // phone's first screen is then the entry, shell and app. `driver-core` is the driver's day:
        // the sync engine with Dexie and the screens of a warm start (Today and its frame), which the
        // login does not wait for (decisions-driver.md). Priorities matter: a group also takes its
        // modules' dependencies, so what the entry shares must be taken first, by `shell` and `app`.
        // Nothing another app imports may land in `driver-core`: it carries driver.css, which would then
        // restyle that app's page (the dispatch board's `.count` grew and its drag missed). So the shared
        // routing helpers (ETAs, distances: the board and the driver's day) go with `app`; the build
        // fails if another screen imports the day (driverPrecache in scripts/vitePlugins.ts). The door's rule
        // (shared/door.ts, issue 34) is read by the day's stop card, the tracking page and the office: `shell`;
        // so are the money helpers and the cash-on-delivery rule (the stop card shows the amount to collect).
        codeSplitting: {
          groups: [
            {
              name: 'shell',
              priority: 3,
              test: /node_modules[\\/](preact|@preact)[\\/]|[\\/]client[\\/]ui[\\/](Button|Badge)\.tsx|[\\/]shared[\\/](lifecycle|door|money|cod)\.ts|rolldown[:\\/]runtime|vite[\\/](preload-helper|modulepreload-polyfill)|defineProperty|toPropertyKey|toPrimitive|typeof/,
            },
            {
              name: 'app',
              priority: 2,
              test: /[\\/]client[\\/](app[\\/](store|session|router|Lazy|serviceWorker)\.tsx?|ui[\\/](States|toast|Field|Logo)\.tsx?|api[\\/]client\.ts|driver[\\/](localKeys|index|Login)\.tsx?|sync[\\/](firstRead|metaKeys)\.ts)$|[\\/]shared[\\/](errors|routing[\\/](haversine|eta))\.ts$/,
            },
            // The sync engine with Dexie, apart from the day: the depot tablet queues its scans in it too (issue 35), and must not get driver.css.
            {
              name: 'sync',
              priority: 1.5,
              test: /node_modules[\\/]dexie[\\/]|[\\/]client[\\/]sync[\\/](?!firstRead|metaKeys)|[\\/]client[\\/]driver[\\/]engine\.ts$/,
            },
            {
              name: 'driver-core',
              priority: 1,
              test: /[\\/]client[\\/]driver[\\/](Workday|Frame|Today|hooks|day|undo|UndoBar|SyncChip|StopCard|BigLink|RecipientNote|geo|eta|etaMath|routeCache|online|maps|refusal)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
  preview: { proxy: { '/api': apiTarget } },
  plugins: [
    preact(),
    precache.plugin,
    // A depot tablet keeps its screens offline: listed here, cached by the depot app once loaded.
    screenPrecacheList('/client/depot/index.tsx', 'depot-precache.json', precache.keep),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Courier',
        short_name: 'Courier',
        description: 'Deliveries, depot scans and dispatch, online or offline',
        theme_color: '#0b3d91',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any maskable' },
        ],
      },
      workbox: {
        // The app shell only: API calls are never cached (DESIGN.md section 6).
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/track\.html/],
        // Hashed build files (never change under one name) the page fetched or cached itself, served
        // from the cache first: how the depot's screens work offline without being in the precache.
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: ASSET_CACHE, expiration: { maxEntries: 300, maxAgeSeconds: 60 * 24 * 3600 } },
          },
        ],
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((e) => precache.keep(e.url)), warnings: [] })],
      },
    }),
    precompress(),
  ],
});
