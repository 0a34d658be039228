// The linter (npm run lint, part of npm test): typescript-eslint's recommended rules without type
// information (fast: the type checker is `npm run typecheck`), and the boundaries of
// docs/architecture.md as import rules that fail the build.
import tseslint from 'typescript-eslint';

/** An import rule: these module patterns may not be imported from the files it applies to. */
const forbid = (files, patterns, message) => ({
  files,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'server/db/migrations*/', 'coverage/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      // `_`-prefixed names say "unused on purpose" (a handler's unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  forbid(['server/routes/**'], ['drizzle-orm', 'drizzle-orm/*'], 'Route modules build no queries: call a service (docs/architecture.md).'),
  forbid(['server/db/**'], ['**/services/**'], 'server/db is the lowest layer of the server: it never imports a service.'),
  forbid(['client/**'], ['**/server/**', '**/server'], 'The client never imports server code: share it through shared/.'),
  forbid(
    ['shared/**'],
    ['**/server/**', '**/client/**', '**/server', '**/client'],
    'shared/ is imported by both sides and imports neither.',
  ),
);
