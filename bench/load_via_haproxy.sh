#!/usr/bin/env bash
# bench/load_via_haproxy.sh CROUPIER [--rounds N] [BENCH OPTIONS...] — the load
# test (bench_load_server) straight to the server and through HAProxy
# running deploy/haproxy.cfg, one after the other, N rounds (default 2), on
# loopback.  The bench's clients speak plain ws://, so HAProxy gets a
# plain frontend as well (bench/haproxy-plain.cfg); its TLS frontend gets a
# throw-away self-signed certificate.  BENCH OPTIONS go to both runs (e.g.
# --games 32 --seconds 10 --pg URL).  Prints each run's report.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
croupier="$1"
shift
rounds=2
if [ "${1:-}" = --rounds ]; then
    rounds="$2"
    shift 2
fi
bench="$(dirname "$croupier")/bench/bench_load_server"
[ -x "$bench" ] || { echo "load_via_haproxy: no $bench (cmake --build build --target bench_load_server)" >&2; exit 1; }
for tool in haproxy openssl node; do
    command -v "$tool" >/dev/null || { echo "load_via_haproxy: $tool is not installed" >&2; exit 1; }
done

scratch="$(mktemp -d "${TMPDIR:-/tmp}/croupier-bench-proxy-XXXXXX")"
haproxy_pid=
cleanup() {
    if [ -n "$haproxy_pid" ]; then kill "$haproxy_pid" 2>/dev/null || true; wait "$haproxy_pid" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# A free loopback port (as tests/deploy/test_proxy.sh finds one).
free_port() {
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" \
    -keyout "$scratch/key.pem" -out "$scratch/cert.pem" >/dev/null 2>&1
cat "$scratch/cert.pem" "$scratch/key.pem" >"$scratch/croupier.pem"
server_port="$(free_port)"
plain_port="$(free_port)"
# Both of the shipped config's servers are the bench's one server.
export CROUPIER_HTTPS="127.0.0.1:$(free_port)" CROUPIER_HTTP="127.0.0.1:$(free_port)"
export CROUPIER_CERT="$scratch/croupier.pem" CROUPIER_MAXCONN=1000
export CROUPIER_S1="127.0.0.1:$server_port" CROUPIER_S2="127.0.0.1:$server_port"
export CROUPIER_BENCH_PLAIN="127.0.0.1:$plain_port"
haproxy -db -f "$root/deploy/haproxy.cfg" -f "$here/haproxy-plain.cfg" >"$scratch/haproxy.log" 2>&1 &
haproxy_pid=$!

for r in $(seq 1 "$rounds"); do
    echo "== round $r: direct"
    "$bench" "$croupier" --port "$server_port" "$@"
    echo "== round $r: through HAProxy (127.0.0.1:$plain_port, deploy/haproxy.cfg)"
    "$bench" "$croupier" --port "$server_port" --via "127.0.0.1:$plain_port" "$@"
done
