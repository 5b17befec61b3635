#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server, then stop it and delete its files.
#
#   bash scripts/postgres.sh .venv/bin/pytest -q
#
# The command sees ATLAS_TEST_DATABASE_URL (a server the tests may create databases on) and
# DATABASE_URL unchanged. Debian's `postgresql` is installed first when no server binaries
# are found (that needs root, as CI has). PostgreSQL refuses to run as root, so under root
# the cluster belongs to the `postgres` user the package creates. The server listens on a
# Unix socket in its own folder only: no port to collide with another run.
set -euo pipefail

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

bin="$(find_bin)"
if [ -z "$bin" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "postgres.sh: PostgreSQL is not installed; run 'apt-get install postgresql' as root." >&2
        exit 1
    fi
    echo "postgres.sh: installing Debian's postgresql" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin="$(find_bin)"
fi

run_as=()
if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
    run_as=(runuser -u postgres --)
fi

dir="$(mktemp -d /tmp/atlas-pg.XXXXXX)"
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"

stop() {
    "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

"${run_as[@]}" "$bin/initdb" -D "$dir/data" -U atlas --auth=trust -E UTF8 --no-sync >/dev/null
# Durability is pointless for a server that is deleted afterwards; speed is not.
"${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
    "-k $dir -c listen_addresses='' -c max_connections=300 -c fsync=off \
     -c synchronous_commit=off -c full_page_writes=off" start >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }

export ATLAS_TEST_DATABASE_URL="postgresql+psycopg://atlas@/postgres?host=$dir"
echo "postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $dir" >&2
"$@"
