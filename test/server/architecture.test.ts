import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, importGraph } from '../../scripts/importCycles';
import { parcelChanges, parcelChangesOf, type ParcelSubscriber } from '../../server/services/packages/changes';
import { makeApp } from '../helpers/app';

// The sentences of docs/architecture.md that a program can check, checked. (Lint checks the import
// rules too, file by file; this reads the whole graph, dynamic imports included.)
const ROOT = join(__dirname, '../..');
const graph = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
const under = (dir: string) => (f: string) => f.startsWith(`${dir}/`);
const source = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

describe('docs/architecture.md, checked', () => {
  it('the import graph has no circle', () => {
    expect(graph.size).toBeGreaterThan(500);
    expect(circles(graph)).toEqual([]);
  });

  it('server/db never imports a service; client/ never imports server/; shared/ imports neither', () => {
    const bad = edges.filter(
      ([from, to]) =>
        (under('server/db')(from) && under('server/services')(to)) ||
        (under('client')(from) && under('server')(to)) ||
        (under('shared')(from) && (under('server')(to) || under('client')(to))),
    );
    expect(bad).toEqual([]);
  });

  it('route modules live in server/routes/ and never import drizzle-orm', () => {
    const declaring = filesUnder('server')
      .filter((f) => /\b(defineRoute|defineResource)\(/.test(source(f)))
      .filter((f) => f !== 'server/http/route.ts' && f !== 'server/resources/crud.ts' && !under('server/routes')(f));
    expect(declaring).toEqual([]);
    const drizzle = filesUnder('server/routes').filter((f) => /from 'drizzle-orm/.test(source(f)));
    expect(drizzle).toEqual([]);
  });

  it('every schema module is re-exported by server/db/schema/index.ts', () => {
    const index = source('server/db/schema/index.ts');
    const modules = filesUnder('server/db/schema')
      .map((f) => relative('server/db/schema', f).replace(/\.ts$/, ''))
      .filter((m) => m !== 'index' && m !== 'columns');
    expect(modules.filter((m) => !index.includes(`export * from './${m}';`))).toEqual([]);
  });

  it('outside server/db/engine/ nothing asks which engine runs', () => {
    // Every text that differs between the engines, and every choice between them, is under
    // server/db/engine/ (dialect.ts); the rest sees capabilities (`shared`, `detached`, `startUpkeep`).
    const asking = filesUnder('server').filter(
      (f) =>
        !under('server/db/engine')(f) &&
        /\bkind\s*[!=]==?\s*'(postgres|sqlite)'|\$engine\.kind|\bEngineKind\b|\bsqliteOf\(/.test(source(f)),
    );
    expect(asking).toEqual([]);
    // The check would see one if it were there.
    expect(/\$engine\.kind/.test("options.db.$engine.kind === 'postgres'")).toBe(true);
  });

  it('no write into drizzle internals: the query builder is made by its public constructor, parameters numbered by the engine', () => {
    const writing = filesUnder('server').filter((f) => /\.dialect\b|escapeParam/.test(source(f)));
    expect(writing).toEqual([]);
  });

  it("the lifecycle imports none of the domains that follow a parcel's change", () => {
    const lifecycle = graph.get('server/services/packages/lifecycle.ts') ?? [];
    expect(lifecycle.filter((f) => /services\/(money|webhooks|recipients|dispatch|sync)\//.test(f))).toEqual([]);
  });

  it("a parcel's change is published to money, webhooks, recipients, ETAs and the feed, in that order", async () => {
    const { db } = await makeApp();
    expect(parcelChangesOf(db).order).toEqual(['money', 'webhooks', 'recipients', 'etas', 'feed']);
    const none: ParcelSubscriber['receive'] = async () => undefined;
    expect(() =>
      parcelChanges([
        { name: 'feed', receive: none },
        { name: 'money', receive: none },
      ]),
    ).toThrow(/feed must hear parcel changes last/);
  });
});
