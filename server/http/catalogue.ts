import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CatalogueOperation {
  id: string;
  part: string;
  group: string;
  operation: string;
  method: string | null;
  path?: string;
  optional?: string;
}

const FILE = join(dirname(fileURLToPath(import.meta.url)), '../../docs/catalogue.json');
let cached: Map<string, CatalogueOperation> | undefined;

export function catalogue(): Map<string, CatalogueOperation> {
  cached ??= new Map((JSON.parse(readFileSync(FILE, 'utf8')) as { operations: CatalogueOperation[] }).operations.map((o) => [o.id, o]));
  return cached;
}

/** `ops('web/Warehouse', 'Get', 'Create')` -> full ids, refusing any id the catalogue lacks so a typo fails at start-up. */
export function ops(prefix: string, ...names: string[]): string[] {
  const known = catalogue();
  return names.map((n) => {
    const id = `${prefix}/${n}`;
    if (!known.has(id)) throw new Error(`unknown catalogue operation: ${id}`);
    return id;
  });
}
