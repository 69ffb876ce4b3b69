#!/usr/bin/env bash
# tests/python/pip.sh PYTHON BUILD_DIR SOURCE_DIR — the package builds with
# Debian's pip and setuptools and nothing else (--no-index: no PyPI; the
# build runs on a copy of python/, so the source tree stays clean), against
# BUILD_DIR's libcroupier.a, and the installed copy plays.  Exits 77 (CTest:
# skipped) without pip or setuptools; CROUPIER_REQUIRE_PYTHON=1 fails then.
set -euo pipefail
python="$1" build="$2" src="$3"

skip() {
    echo "SKIP: $1"
    if [ "${CROUPIER_REQUIRE_PYTHON:-0}" = 1 ]; then exit 1; fi
    exit 77
}
[ -n "$python" ] || skip "no Python headers at configure time (Debian: apt-get install python3-dev)"
"$python" -m pip --version >/dev/null 2>&1 || skip "pip is missing (Debian: apt-get install python3-pip)"
"$python" -c 'import setuptools' 2>/dev/null || skip "setuptools is missing (Debian: apt-get install python3-setuptools)"

work="$build/python-pip"
rm -rf "$work"
mkdir -p "$work/src"
cp -r "$src/python/croupier" "$src/python/setup.py" "$src/python/pyproject.toml" \
    "$src/python/README.md" "$work/src/"
rm -rf "$work/src/croupier/__pycache__"
CROUPIER_BUILD_DIR="$build" CROUPIER_SOURCE_DIR="$src" PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$python" -m pip install --quiet --no-build-isolation --no-index --no-deps \
    --target "$work/target" "$work/src"
test -f "$work/target/croupier/__init__.py"
ls "$work"/target/croupier/_croupier*.so >/dev/null
cd "$work"
PYTHONPATH="$work/target" "$python" - <<'PY'
import random
import croupier
assert croupier.__file__.endswith("target/croupier/__init__.py"), croupier.__file__
g = croupier.load_game("dml", {"players": 4})
s, rng = g.new_initial_state(), random.Random(1)
bots = [croupier.make_bot(g, "heuristic", p, 1) for p in range(4)]
for _ in range(100000):
    if s.is_terminal():
        break
    p = s.current_player()
    if p < 0:
        a, w = zip(*s.chance_outcomes())
        s.apply_action(rng.choices(a, weights=w)[0])
    else:
        s.apply_action(bots[p].step(s))
assert s.is_terminal()
print("pip-installed croupier played", s.move_number(), "actions; returns", s.returns())
PY
