#!/usr/bin/env bash
# tests/server/on_pg.sh TEST_BINARY — runs a test that reads
# CR_TEST_STORE_URL (tests/server/test_store.c, test_soak_kill9.c) against the
# PostgreSQL database in CROUPIER_TEST_PG, so every store test the SQLite
# backend passes, and the kill -9 soak, run on PostgreSQL too.  Unset: skipped (exit 77) with a message, unless
# CROUPIER_REQUIRE_PG=1 (CI), when it fails.
set -euo pipefail
if [ -z "${CROUPIER_TEST_PG:-}" ]; then
    if [ "${CROUPIER_REQUIRE_PG:-}" = 1 ]; then
        echo "on_pg: CROUPIER_REQUIRE_PG=1 but CROUPIER_TEST_PG is unset" >&2
        exit 1
    fi
    echo "on_pg: SKIPPED: set CROUPIER_TEST_PG=postgres://... (scripts/pg-test-db.sh makes a database)"
    exit 77
fi
CR_TEST_STORE_URL="$CROUPIER_TEST_PG" exec "$1"
