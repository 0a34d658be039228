import { constraintOf } from '../db/engine/errors';
import { and, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { getTableName } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import {
  ArchiveBody,
  IdParams,
  ListQuery,
  pageOf,
  restoreEnvelope,
  StatusChangeBody,
  SuccessMessage,
  updateOf,
} from '../../shared/schemas/common';
import type { Db } from '../db/client';
import { referencingRows } from '../db/references';
import type { Deps } from '../deps';
import { ApiError, badRequest, conflict, notFound } from '../errors';
import type { App } from '../http/env';
import { defineRoute } from '../http/route';
import type { Access } from '../http/routeTypes';
import type { SessionUser } from '../services/auth/session';
import { columnsOf, listConditions, listPage, orderBy, type ListSpec } from './list';
import { audit, changes } from '../services/audit/record';

export type Row = Record<string, unknown>;
export type Op = 'list' | 'create' | 'retrieve' | 'update' | 'delete' | 'archiveList' | 'archive' | 'restore' | 'statusChange';

export interface ResourceContext {
  deps: Deps;
  user: SessionUser;
  existing?: Row;
}

export interface ResourceSpec<C extends z.ZodObject, U extends z.ZodObject> {
  /** URL segment, kebab-case and singular: `pickup-point`. */
  path: string;
  table: SQLiteTable;
  label: string;
  /** Catalogue ids each operation serves; an operation without ids is not served. */
  ops: Partial<Record<Op, string | readonly string[]>>;
  view: Access;
  manage: Access;
  record: z.ZodType;
  toApi: (row: Row, db: Db) => unknown | Promise<unknown>;
  create?: C;
  update?: U;
  /** API input -> column values; defaults to the same names. */
  toRow?: (input: Partial<z.output<C>>, ctx: ResourceContext) => Row | Promise<Row>;
  /** Checks that need the database (parents exist, uniqueness with a message); throw ApiError. */
  validate?: (values: Row, ctx: ResourceContext) => void | Promise<void>;
  list?: ListSpec;
  /** Extra query parameters the list accepts (documented in OpenAPI). */
  listQuery?: z.ZodObject;
  /** Rows a user may see at all, e.g. a company only its own. */
  scope?: (user: SessionUser) => SQL | undefined;
  /** Restore answers elements of this shape (spec 2.3-2.5); defaults to `record`. */
  restoreRecord?: z.ZodType;
  toRestoreApi?: (row: Row) => unknown;
  /** Path segments of the archive operations; default `archive-<path>-list`, `archive-<path>`, `restore-<path>`. */
  archiveNames?: { list: string; archive: string; restore: string };
  /**
   * Called with each existing row before any write touches it (update, status change, archive,
   * restore, delete): record-level rules such as the rank rule on accounts. Throw ApiError.
   */
  guard?: (row: Row, ctx: ResourceContext) => void | Promise<void>;
  /**
   * Extends the status-change body (must include `is_active`) and runs, after `guard` and before the
   * flag changes, in the same transaction: work an account still holds is settled with the switch.
   */
  statusChange?: { body: z.ZodObject; before: (existing: Row, body: Row, ctx: ResourceContext) => void | Promise<void> };
  /** Runs for each row about to be archived, after `guard`: refuses (ApiError) what must be settled first. */
  beforeArchive?: (row: Row, ctx: ResourceContext) => void | Promise<void>;
  /** Called after any write with the ids it touched (change feed, webhooks). */
  afterWrite?: (db: Db, ids: number[], ctx: ResourceContext) => void | Promise<void>;
  /** What an update answers, when not the record (spec 4.2 answers `{}`). */
  updateAnswer?: { schema: z.ZodType; shape: (row: Row) => unknown };
  tags?: readonly string[];
  /**
   * Every write leaves one audit line `<table>.<create|update|archive|restore|delete|status_change>`
   * with before/after. `'self'` for a resource whose `afterWrite` writes its own lines (so none is doubled).
   */
  audited?: 'self';
  /** How a row reads in the audit trail when columns hold encoded values (a JSON list); defaults to the row. */
  auditView?: (row: Row) => Row;
}

const ids = (v: string | readonly string[] | undefined): string[] => (v == null ? [] : typeof v === 'string' ? [v] : [...v]);

export function scopeWhere(
  spec: { scope?: (u: SessionUser) => SQL | undefined },
  user: SessionUser,
  ...more: (SQL | undefined)[]
): SQL | undefined {
  return and(spec.scope?.(user), ...more);
}

function mapDbError(err: unknown, label: string): never {
  const kind = constraintOf(err);
  if (kind === 'unique') throw conflict(`A ${label.toLowerCase()} with these details already exists`);
  if (kind === 'foreign_key') throw badRequest(`${label} refers to a record that does not exist`);
  if (kind === 'not_null') throw badRequest(`${label} is missing a required field`);
  throw err;
}

/**
 * Declares a resource group once: list (DRF paging, search, ordering, filters), create, retrieve,
 * update (PATCH and PUT), delete (refused while referenced), archive list, archive, restore and
 * status change, each in the OpenAPI document under its catalogue ids.
 */
export function defineResource<C extends z.ZodObject, U extends z.ZodObject>(app: App, spec: ResourceSpec<C, U>): void {
  const { table, path, label } = spec;
  const cols = columnsOf(table);
  const idCol = cols.id as SQLiteColumn;
  const deletedCol = cols.deleted_at;
  const tableName = getTableName(table);
  const tags = spec.tags ?? [label];
  const toRow = spec.toRow ?? ((input: Partial<z.output<C>>) => ({ ...input }) as Row);
  // One row after another: answers built by the database run in order on the unit's connection.
  const shape =
    (db: Db) =>
    async (rows: Row[]): Promise<unknown[]> => {
      const out: unknown[] = [];
      for (const r of rows) out.push(await spec.toApi(r, db));
      return out;
    };
  const find = async (db: Db, user: SessionUser, id: number): Promise<Row> => {
    const row = (await db
      .select()
      .from(table)
      .where(scopeWhere(spec, user, eq(idCol, id)))
      .get()) as Row | undefined;
    if (!row) throw notFound(`${label} ${id} not found`);
    return row;
  };
  const names = spec.archiveNames ?? { list: `archive-${path}-list`, archive: `archive-${path}`, restore: `restore-${path}` };
  // Declared filters become query parameters, so zod keeps them (and OpenAPI documents them).
  const filterShape = Object.fromEntries(Object.keys(spec.list?.filters ?? {}).map((k) => [k, z.string().max(2000).optional()]));
  const listQuery = ListQuery.extend({ ...filterShape, ...(spec.listQuery?.shape ?? {}) });
  const record = async (deps: Deps, user: SessionUser, op: string, id: number, before: Row | null, after: Row | null): Promise<void> => {
    if (spec.audited === 'self') return;
    const view = spec.auditView ?? ((r: Row) => r);
    const diff = changes(before && view(before), after && view(after));
    // A write that changed nothing a manager can see (only updated_at) is not worth a line.
    if (before && after && Object.keys(diff.after ?? {}).length === 0) return;
    await audit(deps.db, deps.clock.now(), user.id, `${tableName}.${op}`, `${tableName}:${id}`, diff);
  };

  // Fixed paths first: `{id}` matches digits only, but order keeps the intent obvious.
  if (deletedCol && spec.ops.archiveList) {
    defineRoute(
      app,
      {
        method: 'get',
        path: `/${path}/${names.list}/`,
        catalogue: ids(spec.ops.archiveList),
        tags,
        summary: `List archived ${label.toLowerCase()} records`,
        access: spec.view,
        query: listQuery,
        response: pageOf(spec.record),
      },
      ({ deps, user, query, c }) => {
        const q = query as Record<string, string | undefined> & z.output<typeof ListQuery>;
        const where = scopeWhere(spec, user, isNotNull(deletedCol), ...listConditions(table, spec.list ?? {}, q));
        return listPage(deps.db, table, where, orderBy(table, spec.list ?? {}, q.ordering), q, c.req.url, shape(deps.db));
      },
    );
  }

  if (deletedCol && (spec.ops.archive || spec.ops.restore)) {
    const restoreShape = spec.restoreRecord ?? spec.record;
    const setArchived =
      (archive: boolean) =>
      async ({ deps, user, body }: { deps: Deps; user: SessionUser; body: z.output<typeof ArchiveBody> }) => {
        const wanted = [...new Set(body.deleted)];
        const found = (await deps.db
          .select()
          .from(table)
          .where(scopeWhere(spec, user, inArray(idCol, wanted)))
          .all()) as Row[];
        const known = new Set(found.map((r) => r.id as number));
        const missing = wanted.filter((id) => !known.has(id));
        if (missing.length) {
          throw new ApiError(
            400,
            'validation_error',
            `Unknown ${label.toLowerCase()} ids: ${missing.join(', ')}`,
            missing.map((id) => ({ path: 'deleted', message: `no ${label.toLowerCase()} ${id}` })),
          );
        }
        for (const r of found) await spec.guard?.(r, { deps, user, existing: r });
        const target = found.filter((r) => (archive ? r.deleted_at == null : r.deleted_at != null)).map((r) => r.id as number);
        if (archive) for (const r of found) if (r.deleted_at == null) await spec.beforeArchive?.(r, { deps, user, existing: r });
        if (target.length) {
          const now = deps.clock.now();
          await deps.db
            .update(table)
            .set({ deleted_at: archive ? now : null, updated_at: now })
            .where(inArray(idCol, target))
            .run();
          for (const r of found) {
            if (target.includes(r.id as number))
              await record(deps, user, archive ? 'archive' : 'restore', r.id as number, r, { ...r, deleted_at: archive ? now : null });
          }
          await spec.afterWrite?.(deps.db, target, { deps, user });
        }
        const rows = target.length ? ((await deps.db.select().from(table).where(inArray(idCol, target)).all()) as Row[]) : [];
        const data: unknown[] = [];
        for (const r of rows) data.push(!archive && spec.toRestoreApi ? spec.toRestoreApi(r) : await spec.toApi(r, deps.db));
        return { count: data.length, next: null, previous: null, results: { success: true, data } };
      };
    if (spec.ops.archive) {
      defineRoute(
        app,
        {
          method: ['post', 'patch'],
          path: `/${path}/${names.archive}/`,
          catalogue: ids(spec.ops.archive),
          tags,
          summary: `Archive ${label.toLowerCase()} records`,
          access: spec.manage,
          body: ArchiveBody,
          response: restoreEnvelope(spec.record),
        },
        setArchived(true),
      );
    }
    if (spec.ops.restore) {
      defineRoute(
        app,
        {
          method: ['post', 'patch'],
          path: `/${path}/${names.restore}/`,
          catalogue: ids(spec.ops.restore),
          tags,
          summary: `Restore archived ${label.toLowerCase()} records`,
          description: 'Answers the envelope of spec 4.6; `data` holds the records this call restored and `count` their number.',
          access: spec.manage,
          body: ArchiveBody,
          response: restoreEnvelope(restoreShape),
        },
        setArchived(false),
      );
    }
  }

  if (spec.ops.list) {
    defineRoute(
      app,
      {
        method: 'get',
        path: `/${path}/`,
        catalogue: ids(spec.ops.list),
        tags,
        summary: `List ${label.toLowerCase()} records`,
        access: spec.view,
        query: listQuery,
        response: pageOf(spec.record),
      },
      ({ deps, user, query, c }) => {
        const q = query as Record<string, string | undefined> & z.output<typeof ListQuery>;
        const where = scopeWhere(spec, user, deletedCol ? isNull(deletedCol) : undefined, ...listConditions(table, spec.list ?? {}, q));
        return listPage(deps.db, table, where, orderBy(table, spec.list ?? {}, q.ordering), q, c.req.url, shape(deps.db));
      },
    );
  }

  if (spec.ops.create && spec.create) {
    defineRoute(
      app,
      {
        method: 'post',
        path: `/${path}/`,
        catalogue: ids(spec.ops.create),
        tags,
        summary: `Create a ${label.toLowerCase()}`,
        access: spec.manage,
        body: spec.create,
        response: spec.record,
        status: 201,
      },
      async ({ deps, user, body }) => {
        const ctx = { deps, user };
        const now = deps.clock.now();
        const values = { ...(await toRow(body as Partial<z.output<C>>, ctx)), created_at: now, updated_at: now };
        await spec.validate?.(values, ctx);
        let row: Row;
        try {
          row = (await deps.db.insert(table).values(values).returning().get()) as Row;
        } catch (err) {
          mapDbError(err, label);
        }
        await record(deps, user, 'create', row.id as number, null, row);
        await spec.afterWrite?.(deps.db, [row.id as number], ctx);
        return spec.toApi(row, deps.db);
      },
    );
  }

  if (spec.ops.retrieve) {
    defineRoute(
      app,
      {
        method: 'get',
        path: `/${path}/{id}/`,
        catalogue: ids(spec.ops.retrieve),
        tags,
        summary: `Retrieve a ${label.toLowerCase()}`,
        access: spec.view,
        params: IdParams,
        response: spec.record,
      },
      async ({ deps, user, params }) => spec.toApi(await find(deps.db, user, params.id), deps.db),
    );
  }

  if (spec.ops.update && (spec.update || spec.create)) {
    const updateSchema = (spec.update ?? (spec.create ? updateOf(spec.create) : undefined)) as z.ZodObject;
    defineRoute(
      app,
      {
        method: ['patch', 'put'],
        path: `/${path}/{id}/`,
        catalogue: ids(spec.ops.update),
        tags,
        summary: `Update a ${label.toLowerCase()}`,
        description: 'Partial update: only the fields sent change. PUT is accepted as a synonym.',
        access: spec.manage,
        params: IdParams,
        body: updateSchema,
        response: spec.updateAnswer?.schema ?? spec.record,
      },
      async ({ deps, user, params, body }) => {
        const existing = await find(deps.db, user, params.id);
        const ctx = { deps, user, existing };
        await spec.guard?.(existing, ctx);
        const sent = Object.fromEntries(Object.entries(body as Row).filter(([k]) => k in (body as Row) && (body as Row)[k] !== undefined));
        const values = { ...(await toRow(sent as Partial<z.output<C>>, ctx)), updated_at: deps.clock.now() };
        await spec.validate?.({ ...existing, ...values }, ctx);
        let row: Row;
        try {
          row = (await deps.db.update(table).set(values).where(eq(idCol, params.id)).returning().get()) as Row;
        } catch (err) {
          mapDbError(err, label);
        }
        await record(deps, user, 'update', params.id, existing, row);
        await spec.afterWrite?.(deps.db, [params.id], ctx);
        return spec.updateAnswer ? spec.updateAnswer.shape(row) : spec.toApi(row, deps.db);
      },
    );
  }

  if (spec.ops.statusChange && cols.is_active) {
    defineRoute(
      app,
      {
        method: ['post', 'patch'],
        path: `/${path}/{id}/status-change/`,
        catalogue: ids(spec.ops.statusChange),
        tags,
        summary: `Activate or deactivate a ${label.toLowerCase()}`,
        access: spec.manage,
        params: IdParams,
        body: spec.statusChange?.body ?? StatusChangeBody,
        response: spec.record,
      },
      async ({ deps, user, params, body }) => {
        const existing = await find(deps.db, user, params.id);
        await spec.guard?.(existing, { deps, user, existing });
        const sent = body as Row & z.output<typeof StatusChangeBody>;
        await spec.statusChange?.before(existing, sent, { deps, user, existing });
        const row = (await deps.db
          .update(table)
          .set({ is_active: sent.is_active, updated_at: deps.clock.now() })
          .where(eq(idCol, params.id))
          .returning()
          .get()) as Row;
        // Always a line, even when the flag already had this value: someone asked for it, and when matters.
        if (spec.audited !== 'self') {
          await audit(deps.db, deps.clock.now(), user.id, `${tableName}.status_change`, `${tableName}:${params.id}`, {
            before: { is_active: existing.is_active },
            after: { is_active: row.is_active },
          });
        }
        await spec.afterWrite?.(deps.db, [params.id], { deps, user });
        return spec.toApi(row, deps.db);
      },
    );
  }

  if (spec.ops.delete) {
    defineRoute(
      app,
      {
        method: 'delete',
        path: `/${path}/{id}/`,
        catalogue: ids(spec.ops.delete),
        tags,
        summary: `Delete a ${label.toLowerCase()}`,
        description: 'Refused with 409 while other records reference it; archive it instead.',
        access: spec.manage,
        params: IdParams,
        response: SuccessMessage,
      },
      async ({ deps, user, params }) => {
        const existing = await find(deps.db, user, params.id);
        await spec.guard?.(existing, { deps, user, existing });
        const refs = await referencingRows(deps.db, tableName, params.id);
        if (refs.length)
          throw conflict(`${label} ${params.id} is still referenced by ${refs.join(', ')}; archive it instead`, { referenced_by: refs });
        await deps.db.delete(table).where(eq(idCol, params.id)).run();
        await record(deps, user, 'delete', params.id, existing, null);
        await spec.afterWrite?.(deps.db, [params.id], { deps, user });
        return { success: true, message: `${label} ${params.id} deleted` };
      },
    );
  }
}
