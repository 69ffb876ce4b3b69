#!/usr/bin/env bash
# test_rules_reference.sh — the rules reference the code, the tests and the
# guides cite lives in the repository (docs/rules/), and nothing points
# outside it.  When the team's shared checkout sits beside the repository
# (../shared/rules/, where the canonical rules are kept), the copies must be
# identical to it, byte for byte.  Argument: the croupier program (unused;
# the CLI tests all take it).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }

for f in dml.md 18dracula.md; do
    [ -s "$root/docs/rules/$f" ] || fail "docs/rules/$f is missing"
done

# no document, source or test cites a rules file outside the repository
cd "$root"
hits="$(git grep -n -I -E '(^|[^a-z/])shared/(rules|seeds)/' -- . ':!docs/rules/' ':!tests/cli/test_rules_reference.sh' 2>/dev/null || true)"
[ -z "$hits" ] || fail "files cite rules outside the repository:
$hits"

shared="$root/../shared/rules"
if [ -d "$shared" ]; then
    for f in dml.md 18dracula.md; do
        cmp -s "$shared/$f" "$root/docs/rules/$f" ||
            fail "docs/rules/$f differs from ../shared/rules/$f: copy it again (cp ../shared/rules/$f docs/rules/)"
    done
    echo "docs/rules/ is identical to ../shared/rules/"
else
    echo "no ../shared/rules beside the repository: only the repository's own copy is checked"
fi
