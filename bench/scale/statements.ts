import pg from 'pg';

/**
 * What each request costs PostgreSQL statement by statement (SCALE_PG_STATEMENTS=1), from the
 * pg_stat_statements extension: it needs the cluster started with
 * `shared_preload_libraries=pg_stat_statements` (PG_SERVER_OPTIONS for scripts/with-postgres.sh).
 * Reset before each endpoint's run, read after it: per statement, calls, execution time and buffer
 * pages touched per request of the run, so a figure that grows with the data points at its query.
 */
export interface StatementRow {
  query: string;
  calls: number;
  msPerReq: number;
  hitPerReq: number;
  readPerReq: number;
  rowsPerCall: number;
}

export interface StatementProbe {
  reset(): Promise<void>;
  read(requests: number): Promise<StatementRow[]>;
  close(): Promise<void>;
}

/** A probe on `url`'s database, or undefined when the extension cannot be loaded there. */
export async function statementProbe(url: string): Promise<StatementProbe | undefined> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('create extension if not exists pg_stat_statements');
    await c.query('select 1 from pg_stat_statements limit 1');
  } catch {
    await c.end();
    return undefined;
  }
  return {
    reset: async () => {
      await c.query('select pg_stat_statements_reset()');
    },
    read: async (requests) => {
      const { rows } = await c.query<{ query: string; calls: string; ms: number; hit: string; read: string; rows: string }>(
        `select query, calls, total_exec_time as ms, shared_blks_hit as hit, shared_blks_read as read, rows from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database()) and query not like '%pg_stat_statements%'
          order by total_exec_time desc`,
      );
      const n = Math.max(1, requests);
      return rows.map((r) => ({
        query: r.query.replace(/\s+/g, ' '),
        calls: Number(r.calls),
        msPerReq: r.ms / n,
        hitPerReq: Number(r.hit) / n,
        readPerReq: Number(r.read) / n,
        rowsPerCall: Number(r.rows) / Math.max(1, Number(r.calls)),
      }));
    },
    close: async () => {
      await c.end();
    },
  };
}

export function printStatements(label: string, requests: number, rows: StatementRow[], top = 15): void {
  const total = rows.reduce((s, r) => s + r.msPerReq, 0);
  console.log(`\n${label}: ${requests} requests, ${total.toFixed(3)} ms of statement execution per request (pg_stat_statements)`);
  console.log('| calls/req | exec ms/req | pages hit/req | read/req | rows/call | statement |');
  console.log('|---:|---:|---:|---:|---:|---|');
  for (const r of rows.slice(0, top)) {
    console.log(
      `| ${(r.calls / Math.max(1, requests)).toFixed(2)} | ${r.msPerReq.toFixed(3)} | ${r.hitPerReq.toFixed(1)} | ${r.readPerReq.toFixed(2)} | ${r.rowsPerCall.toFixed(1)} | ${r.query.slice(0, 160)} |`,
    );
  }
}
