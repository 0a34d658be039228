/**
 * The import graph of the tree has no circle: every import counts (`import type`, `export ... from`,
 * `import()`), since a circle of types still ties the files' designs together. Read with the
 * TypeScript compiler's own pre-processor and module resolution, so it follows what tsc follows,
 * in a couple of seconds (`npm run lint`). Exits 1 naming each circle.
 */
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every project file of the root tsconfig and the module graph between them (paths relative to the root). */
export function importGraph(): Map<string, string[]> {
  const configPath = resolve(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = new Set(parsed.fileNames.map((f) => resolve(f)));
  const host = ts.createCompilerHost(parsed.options);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const found = ts.resolveModuleName(ref.fileName, file, parsed.options, host).resolvedModule;
      if (!found || found.isExternalLibraryImport) continue;
      const target = resolve(found.resolvedFileName);
      if (files.has(target)) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's. */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(part.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const found = circles(graph);
  for (const c of found) {
    console.error(`import circle of ${c.length} file(s):`);
    for (const f of c) console.error(`  ${f} -> ${(graph.get(f) ?? []).filter((t) => c.includes(t)).join(', ')}`);
  }
  if (found.length) process.exit(1);
  console.log(`import graph: ${graph.size} files, no circle`);
}
