#!/usr/bin/env bash
# test_headers.sh — every installed header compiles alone, twice in a row
# (its include guard), as strict C11 and as strict C++11, with only the
# install prefix on the include path: no header leans on another one being
# included first, nor on anything that stays in src/.  Then a C++ program
# calls the library through the headers and links: the declarations are
# extern "C".  Usage: test_headers.sh PREFIX (made by cmake --install)
set -euo pipefail
prefix="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
errors=0
fail() { echo "FAIL: $*" >&2; errors=$((errors + 1)); }

cc="${CC:-cc}"
cxx="${CXX:-c++}"
cflags=(-std=c11 -pedantic-errors -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow
        -Wundef -Werror -I"$prefix/include")
cxxflags=(-std=c++11 -pedantic-errors -Wall -Wextra -Wshadow -Wundef -Werror -I"$prefix/include")

n=0
for h in "$prefix"/include/croupier/*.h; do
    name="croupier/${h##*/}"
    printf '#include <%s>\n#include <%s>\n' "$name" "$name" >"$tmp/one.c"
    "$cc" "${cflags[@]}" -fsyntax-only "$tmp/one.c" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; fail "$name does not compile alone as C11"; }
    cp "$tmp/one.c" "$tmp/one.cpp"
    "$cxx" "${cxxflags[@]}" -fsyntax-only "$tmp/one.cpp" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; fail "$name does not compile alone as C++"; }
    n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n headers installed"

# Every header an installed header includes is a standard one or installed.
grep -ho '#include *"[^"]*"' "$prefix"/include/croupier/*.h | sed 's/.*"\(.*\)"/\1/' | sort -u |
    while read -r inc; do
        [ -f "$prefix/include/$inc" ] || echo "$inc"
    done >"$tmp/missing"
[ ! -s "$tmp/missing" ] || fail "installed headers include what is not installed: $(cat "$tmp/missing")"

# C++ calls into the library: with a C++ (mangled) declaration it would not link.
cat >"$tmp/call.cpp" <<'CPP'
#include <croupier/game.h>
#include <croupier/match.h>
#include <cstdio>
int main()
{
    const cr_game_def *def = cr_registry_find("dml");
    cr_rng rng;
    cr_rng_seed(&rng, 1, 2);
    std::printf("%s %s %u\n", def ? def->name : "none", cr_status_str(CR_OK),
                cr_rng_below(&rng, 6) < 6 ? 1u : 0u);
    return def ? 0 : 1;
}
CPP
"$cxx" "${cxxflags[@]}" -o "$tmp/call" "$tmp/call.cpp" -L"$prefix/lib" -lcroupier ||
    fail "a C++ program does not link with libcroupier"
if [ -x "$tmp/call" ]; then
    out="$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/call")" || fail "the C++ program failed"
    [ "$out" = "dml ok 1" ] || fail "the C++ program printed '$out'"
fi

[ "$errors" -eq 0 ] || exit 1
echo "ok: $n headers compile alone as C11 and C++; a C++ program links"
