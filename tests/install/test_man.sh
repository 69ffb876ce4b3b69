#!/usr/bin/env bash
# test_man.sh — the manual pages say what the program and the library do:
# croupier(1) has a section for every command of `croupier --help`, and in
# it every flag that the command's --help names or its source parses
# (src/cli/cmd_NAME.c, plus --option and --board where it takes the
# table's options), and every exit status `croupier --help` gives;
# croupier(3) names every public header and every function the library
# exports; both carry the program's version; groff renders both without a
# warning.
# Usage: test_man.sh CROUPIER SOURCE_DIR
set -euo pipefail
cr="$1"
src="$2"
page1="$src/docs/man/croupier.1"
page3="$src/docs/man/croupier.3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
errors=0
fail() { echo "FAIL: $*" >&2; errors=$((errors + 1)); }

# The page's text with roff's escaped hyphens as plain ones.
sed 's/\\-/-/g' "$page1" >"$tmp/page1"

# The commands, from the program's own list.
"$cr" --help >"$tmp/help"
commands="$(sed -n '/^  [a-z]/s/^  \([a-z]*\) .*/\1/p' "$tmp/help")"
[ "$(wc -w <<<"$commands")" -ge 6 ] || fail "found only: $commands"
for c in $commands; do
    # The command's section: from its .SS "croupier C ..." to the next
    # .SS of another command or the next .SH.
    awk -v c="$c" '
        /^\.SH/ { on = 0 }
        /^\.SS "croupier / { split($0, w, /[ "]+/); on = (w[3] == c) }
        on' "$tmp/page1" >"$tmp/sec"
    [ -s "$tmp/sec" ] || { fail "croupier.1 has no section for '$c'"; continue; }
    "$cr" "$c" --help >"$tmp/chelp"
    flags="$(grep -o -- '--[a-z][a-z0-9-]*' "$tmp/chelp" || true)"
    if [ -f "$src/src/cli/cmd_$c.c" ]; then
        flags="$flags $(grep -o '"--[a-z][a-z0-9-]*"' "$src/src/cli/cmd_$c.c" | tr -d '"' || true)"
        grep -q 'cli_table_opt' "$src/src/cli/cmd_$c.c" && flags="$flags --option --board"
    else
        fail "no src/cli/cmd_$c.c"
    fi
    for f in $(tr ' ' '\n' <<<"$flags" | sort -u); do
        [ "$f" = "--help" ] && continue
        grep -q -- "$f\\b" "$tmp/sec" || fail "croupier.1, section '$c': $f is not described"
    done
done

# Exit statuses: "Exit status: 0 on success, 1 on failure, 2 on bad usage."
statuses="$(tr '\n' ' ' <"$tmp/help" | grep -o 'Exit status:[^.]*' | grep -o '[0-9]\+' || true)"
[ -n "$statuses" ] || fail "croupier --help gives no exit status"
awk '/^\.SH EXIT STATUS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$tmp/page1" >"$tmp/exit"
for s in $statuses; do
    grep -qx "\\.B $s" "$tmp/exit" || fail "croupier.1, EXIT STATUS: $s is not described"
done

# croupier(3): every header and every exported function (the functions
# declared in the headers, tests/install/test_exports.sh).
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page3" >"$tmp/page3"
for h in "$src"/include/croupier/*.h; do
    grep -q "croupier/${h##*/}" "$tmp/page3" || fail "croupier.3 does not name croupier/${h##*/}"
done
for h in "$src"/include/croupier/*.h; do echo "#include \"croupier/${h##*/}\""; done >"$tmp/all.c"
gcc -std=c11 -I"$src/include" -aux-info "$tmp/aux.txt" -c "$tmp/all.c" -o "$tmp/all.o"
for fn in $(grep -F "/include/croupier/" "$tmp/aux.txt" | grep -v ' static ' |
    sed -E 's/.*[ *]([A-Za-z_][A-Za-z_0-9]*) \(.*/\1/' | sort -u); do
    grep -qw -- "$fn" "$tmp/page3" || fail "croupier.3 does not name $fn"
done

# Both name the program's version in their title line.
version="$("$cr" --version)" # "croupier 0.1.0"
for p in "$page1" "$page3"; do
    grep -q "^\.TH CROUPIER [13] [0-9-]* \"$version\"" "$p" ||
        fail "${p##*/}: its .TH line does not name \"$version\""
done

# Both render without a warning (groff-base: groff, the man macros).
command -v groff >/dev/null || { fail "groff is not installed (Debian: groff-base)"; exit 1; }
for p in "$page1" "$page3"; do
    LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$p" 2>"$tmp/warn" || fail "groff failed on $p"
    [ ! -s "$tmp/warn" ] || { cat "$tmp/warn" >&2; fail "groff warns about $p"; }
done

[ "$errors" -eq 0 ] || exit 1
echo "ok: $(wc -w <<<"$commands") commands, their flags and exit statuses in croupier.1; croupier.3 complete"
