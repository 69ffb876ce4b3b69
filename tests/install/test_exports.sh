#!/usr/bin/env bash
# test_exports.sh — the shared library exports exactly the public API:
# every function declared in include/croupier/*.h, and nothing else (the
# rest is hidden, CMakeLists.txt), under the soname it should carry.
# Usage: test_exports.sh LIBCROUPIER.so INCLUDE_DIR SONAME
set -euo pipefail
lib="$1"
inc="$2"
soname="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The functions the headers declare, as gcc lists them (-aux-info writes a
# prototype, with its header's path, for every function a unit declares;
# static inline helpers are the headers' own and are left out).
for h in "$inc"/croupier/*.h; do echo "#include \"croupier/${h##*/}\""; done >"$tmp/all.c"
gcc -std=c11 -I"$inc" -aux-info "$tmp/aux.txt" -c "$tmp/all.c" -o "$tmp/all.o"
grep -F "$inc/croupier/" "$tmp/aux.txt" | grep -v ' static ' |
    sed -E 's/.*[ *]([A-Za-z_][A-Za-z_0-9]*) \(.*/\1/' | sort -u >"$tmp/declared"
[ "$(wc -l <"$tmp/declared")" -ge 50 ] || fail "only $(wc -l <"$tmp/declared") declarations found"

nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWi]$/ {print $3}' | sort -u >"$tmp/exported"
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/diff"; then
    cat "$tmp/diff" >&2
    fail "exports differ from the public headers' declarations ('-': declared, not exported; '+': exported, not declared)"
fi

got="$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ "$got" = "$soname" ] || fail "soname is '$got', expected '$soname'"
readelf -d "$lib" | grep -q 'NEEDED.*libjansson' || fail "the library does not record its jansson dependency"
echo "ok: $(wc -l <"$tmp/exported") functions exported, soname $got"
