#!/usr/bin/env bash
# test_example.sh — examples/playout.c builds against the installed copy the
# way a user builds it, with pkg-config and nothing from the source tree:
# once against the shared library (run with LD_LIBRARY_PATH; it must need
# libcroupier.so.SOVERSION), once fully static (`pkg-config --static` must
# name every library the static one needs).  Both must print the same.
# Usage: test_example.sh SOURCE_DIR PREFIX SOVERSION
set -euo pipefail
src="$1"
prefix="$2"
soversion="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

pc="$(dirname "$(find "$prefix" -name croupier.pc)")"
export PKG_CONFIG_PATH="$pc"
cc="${CC:-cc}"
cflags=(-std=c11 -Wall -Wextra -Werror)

"$cc" "${cflags[@]}" -o "$tmp/shared" "$src/examples/playout.c" \
    $(pkg-config --cflags --libs croupier)
readelf -d "$tmp/shared" | grep -q "NEEDED.*\[libcroupier.so.$soversion\]" ||
    fail "the example does not need libcroupier.so.$soversion"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir croupier)" "$tmp/shared" 7 >"$tmp/out.shared" ||
    fail "the shared example failed"

"$cc" "${cflags[@]}" -static -o "$tmp/static" "$src/examples/playout.c" \
    $(pkg-config --static --cflags --libs croupier) 2>"$tmp/ld.err" ||
    { cat "$tmp/ld.err" >&2; fail "the static example does not link"; }
if readelf -d "$tmp/static" | grep -q NEEDED; then fail "the static example needs shared libraries"; fi
"$tmp/static" 7 >"$tmp/out.static" || fail "the static example failed"

cat "$tmp/out.shared"
diff -u "$tmp/out.shared" "$tmp/out.static" || fail "shared and static runs differ"
grep -q '^random playout: [0-9]* actions' "$tmp/out.shared" || fail "no playout line"
grep -q '^heuristic vs random: [0-9]* actions' "$tmp/out.shared" || fail "no match line"
echo "ok: the example builds with pkg-config, shared and static, and runs"
