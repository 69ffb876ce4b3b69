#!/usr/bin/env bash
# scripts/pg-test-db.sh — a PostgreSQL database for the store tests, made the
# way a user makes one: start Debian's cluster (pg_ctlcluster, no systemd
# needed), then create the role `croupier_test` and the database
# `croupier_test` it owns.  Run as root (CI) or as a user who may run
# commands as `postgres` (runuser/sudo).  Prints the URL to use, nothing else
# on stdout:
#
#     export CROUPIER_TEST_PG="$(sudo scripts/pg-test-db.sh)"
#     ctest --test-dir build -R store
#
# The role's password is fresh random hex on every run (the previous one stops
# working); it travels only in the printed URL, which the tests never log.
# Idempotent: an existing role and database are kept (the tests use fresh
# game ids, so older rows do not matter).  The database is UTF-8 whatever the
# cluster's locale (a minimal container's is often SQL_ASCII).  Options: --drop removes the
# database and the role instead.
set -euo pipefail

role=croupier_test
db=croupier_test

as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres -- "$@"; fi
}

command -v pg_lsclusters >/dev/null ||
    { echo "pg-test-db: PostgreSQL is not installed (Debian: apt-get install postgresql)" >&2; exit 1; }

# The first cluster Debian made (postgresql creates "15 main" on install).
read -r ver name port status _ < <(pg_lsclusters --no-header | head -n 1) ||
    { echo "pg-test-db: no PostgreSQL cluster (pg_createcluster 15 main)" >&2; exit 1; }
if [ "$status" != online ]; then
    pg_ctlcluster "$ver" "$name" start >&2
fi
# Wait until it accepts connections (a fresh start takes a moment).
for _ in $(seq 1 50); do
    as_postgres pg_isready -q -p "$port" && break
    sleep 0.2
done
as_postgres pg_isready -q -p "$port" ||
    { echo "pg-test-db: cluster $ver/$name does not accept connections" >&2; exit 1; }

if [ "${1:-}" = --drop ]; then
    as_postgres psql -q -X -p "$port" -v ON_ERROR_STOP=1 -d postgres >&2 <<SQL
DROP DATABASE IF EXISTS $db;
DROP ROLE IF EXISTS $role;
SQL
    exit 0
fi

pw="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
# The password reaches psql as a variable (:'pw' quotes it), never spliced
# into the SQL text.
as_postgres psql -q -X -p "$port" -v ON_ERROR_STOP=1 -v pw="$pw" -d postgres >&2 <<SQL
SELECT 'CREATE ROLE $role LOGIN' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$role')
\gexec
ALTER ROLE $role LOGIN PASSWORD :'pw';
SELECT 'CREATE DATABASE $db OWNER $role ENCODING ''UTF8'' LC_COLLATE ''C'' LC_CTYPE ''C'' TEMPLATE template0'
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '$db')
\gexec
SQL
echo "postgres://$role:$pw@127.0.0.1:$port/$db"
