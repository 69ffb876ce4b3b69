#!/usr/bin/env bash
# tests/deploy/test_proxy.sh CROUPIER — the deployment of docs/server.md
# ("Deploying behind HAProxy") on loopback: two `croupier serve` processes on
# one PostgreSQL database (CROUPIER_TEST_PG, in a schema of the run's own),
# HAProxy running deploy/haproxy.cfg itself with a self-signed certificate,
# and Chromium (tests/deploy/proxy.mjs) playing a game through
# https://127.0.0.1:PORT/ over wss://.  The process that plays the game is
# killed (kill -9) mid-game; the game goes on through the proxy in the same
# page, to its end, with every event seen before the kill still there and
# never an `elsewhere`.
#
# Skipped (exit 77) without PostgreSQL (CROUPIER_TEST_PG unset), haproxy,
# openssl, node's playwright-core or Chromium; failed instead when
# CROUPIER_REQUIRE_PG=1 (CI).  Everything listens on 127.0.0.1 only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
croupier="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

skip=77
[ "${CROUPIER_REQUIRE_PG:-}" = 1 ] && skip=1
need() { # need WHAT MESSAGE: skip (or fail in CI) without it
    echo "test_proxy: SKIPPED: $2"
    exit $skip
}
[ -n "${CROUPIER_TEST_PG:-}" ] || need pg "set CROUPIER_TEST_PG=postgres://... (scripts/pg-test-db.sh makes a database)"
command -v haproxy >/dev/null || need haproxy "haproxy is not installed (Debian: apt-get install haproxy)"
command -v openssl >/dev/null || need openssl "openssl is not installed (Debian: apt-get install openssl)"
command -v psql >/dev/null || need psql "psql is not installed (Debian: apt-get install postgresql-client)"
command -v node >/dev/null || need node "node is not installed (Debian: apt-get install nodejs npm chromium)"
[ -x "${CR_CHROMIUM:-/usr/bin/chromium}" ] || need chromium "no Chromium at ${CR_CHROMIUM:-/usr/bin/chromium}"
[ -d "$root/tests/web/node_modules/playwright-core" ] || need playwright "playwright-core is not installed (cd tests/web && npm ci)"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/croupier-deploy-XXXXXX")"
schema="croupier_deploy_$$"
pids=()
cleanup() {
    local rc=$?
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    # A server restarted by proxy.mjs (as systemd would) writes its pid here.
    if [ -f "$scratch/restarted.pid" ]; then kill -9 "$(cat "$scratch/restarted.pid")" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    psql -q "$CROUPIER_TEST_PG" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
    if [ $rc -ne 0 ]; then
        for f in "$scratch"/*.log; do
            [ -f "$f" ] || continue
            echo "--- $(basename "$f") (last 30 lines)"
            tail -n 30 "$f"
        done
    fi
    [ -n "${CR_KEEP_SCRATCH:-}" ] && echo "test_proxy: kept $scratch" || rm -rf "$scratch"
    exit $rc
}
trap cleanup EXIT

psql -q -v ON_ERROR_STOP=1 "$CROUPIER_TEST_PG" -c "CREATE SCHEMA $schema" >/dev/null
case "$CROUPIER_TEST_PG" in
*\?*) db="$CROUPIER_TEST_PG&options=-csearch_path%3D$schema" ;;
*) db="$CROUPIER_TEST_PG?options=-csearch_path%3D$schema" ;;
esac

# A free loopback port: bind port 0, read what the kernel chose, let it go.
free_port() {
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# start_server NAME PORT: croupier serve on 127.0.0.1:PORT (0: any), its
# pid appended to pids, its port printed once it listens.
start_server() {
    local name=$1 port=$2 log="$scratch/$1.log"
    # the log exists before the server starts: the child opens it only once
    # it runs, and a loaded machine may read it first
    : >"$log"
    "$croupier" serve --listen "127.0.0.1:$port" --db "$db" --web "$root/web" >"$log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do
        port="$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")"
        if [ -n "$port" ]; then
            echo "$port"
            return 0
        fi
        kill -0 "${pids[-1]}" 2>/dev/null || { echo "test_proxy: $name exited" >&2; return 1; }
        sleep 0.1
    done
    echo "test_proxy: $name did not listen within 10 s" >&2
    return 1
}

# The servers: started one after the other, so the second one's start finds
# the schema made.
start_server s1 0 >"$scratch/s1.port"
s1_pid=${pids[-1]}
start_server s2 0 >"$scratch/s2.port"
s2_pid=${pids[-1]}
s1_port="$(cat "$scratch/s1.port")"
s2_port="$(cat "$scratch/s2.port")"

# The self-signed certificate for 127.0.0.1 (production: a real one, see
# docs/server.md), key and certificate in one PEM as HAProxy wants it.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$scratch/key.pem" -out "$scratch/cert.pem" >"$scratch/openssl.log" 2>&1
cat "$scratch/cert.pem" "$scratch/key.pem" >"$scratch/croupier.pem"

# HAProxy with the shipped configuration; the addresses by environment.
https_port="$(free_port)"
http_port="$(free_port)"
export CROUPIER_HTTPS="127.0.0.1:$https_port" CROUPIER_HTTP="127.0.0.1:$http_port"
export CROUPIER_CERT="$scratch/croupier.pem" CROUPIER_MAXCONN=1000
export CROUPIER_S1="127.0.0.1:$s1_port" CROUPIER_S2="127.0.0.1:$s2_port"
haproxy -c -q -f "$root/deploy/haproxy.cfg"
haproxy -db -f "$root/deploy/haproxy.cfg" >"$scratch/haproxy.log" 2>&1 &
pids+=($!)
haproxy_pid=${pids[-1]}

# proxy.mjs waits for the proxy to answer (its first page load).
export CR_PROXY="https://127.0.0.1:$https_port"
export CR_S1="http://127.0.0.1:$s1_port" CR_S2="http://127.0.0.1:$s2_port"
export CR_S1_PID=$s1_pid CR_S2_PID=$s2_pid CR_HAPROXY_PID=$haproxy_pid
export CR_SCRATCH="$scratch" CR_CROUPIER="$croupier" CR_DB="$db" CR_WEB="$root/web"
node "$here/proxy.mjs"

# HAProxy's log: every upgrade of the game's socket was answered 101 (none
# ended in a 502/503 after its retries); "+N" in the retries field counts
# the upgrades it sent again to another process (a refusal, or the killed
# process) -- how many depends on where round robin pointed first.
game_lines="$(grep -c ' "GET /ws?game=' "$scratch/haproxy.log" || true)"
upgraded="$(grep ' "GET /ws?game=' "$scratch/haproxy.log" | grep -c ' 101 ' || true)"
redispatched="$(grep ' "GET /ws?game=' "$scratch/haproxy.log" | grep -c '/+[0-9]' || true)"
echo "test_proxy: HAProxy: $upgraded of $game_lines upgrades of the game's socket answered 101, $redispatched after a retry on another process"
if [ "$game_lines" -lt 2 ] || [ "$upgraded" != "$game_lines" ]; then
    echo "FAIL the proxy answered an upgrade of the game's socket with something else than 101"
    exit 1
fi
# The probes proxy.mjs sent through the proxy after the restart went
# straight to the game's new owner: the stick table was corrected when the
# reconnection was sent on to another process.
probes="$(grep -c ' "GET /ws?game=[0-9a-f]*&probe=' "$scratch/haproxy.log" || true)"
straight="$(grep ' "GET /ws?game=[0-9a-f]*&probe=' "$scratch/haproxy.log" | grep ' 101 ' | grep -vc '/+[0-9]' || true)"
echo "test_proxy: HAProxy: $straight of $probes probes went straight to the game's owner"
if [ "$probes" != 4 ] || [ "$straight" != 4 ]; then
    echo "FAIL the stick table did not send the game's sockets to its new owner"
    exit 1
fi
echo "test_proxy: all passed"
