#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temporary directory, started
# with pg_ctl on a free loopback port, removed afterwards. The command sees TEST_DATABASE_URL (an
# admin URL: tests make one database per app from a migrated template). PostgreSQL refuses to run
# as root, so as root its tools run as the `postgres` user (Debian's package creates it).
# PG_SERVER_OPTIONS adds server options (e.g. "-c shared_preload_libraries=pg_stat_statements" for
# the scale bench's SCALE_PG_STATEMENTS=1).
# Usage: scripts/with-postgres.sh <command...>     (exits 0 with a notice when PostgreSQL is missing,
#        unless REQUIRE_POSTGRES=1, as in CI)
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  if [ "${REQUIRE_POSTGRES:-0}" = 1 ]; then echo "[pg] PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; fi
  echo "[pg] PostgreSQL is not installed: the PostgreSQL run of the server tests is skipped (apt-get install postgresql)"
  exit 0
fi
dir=$(mktemp -d /tmp/courier-pg.XXXXXX)
chmod 777 "$dir"
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); fi
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
cleanup() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -A trust -U courier --no-sync >/dev/null
# fsync stays on: the tests check what a committed unit leaves behind, and a crash test kills servers.
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 ${PG_SERVER_OPTIONS:-}" start >/dev/null
export TEST_DATABASE_URL="postgres://courier@127.0.0.1:$port/postgres"
echo "[pg] PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
"$@"
