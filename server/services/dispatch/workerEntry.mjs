// Plain JavaScript, so a worker thread starts it without a TypeScript loader in its flags (under
// tsx, vitest or plain node alike); tsx's scoped loader then reads the TypeScript worker.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
