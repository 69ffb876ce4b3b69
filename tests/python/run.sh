#!/usr/bin/env bash
# tests/python/run.sh PYTHON PYDIR SOURCE_DIR — the Python package's pytest
# suite (python/tests/) on the package built in PYDIR (build/python).
# Exits 77 (CTest: skipped), saying why, when Python's headers, numpy or
# pytest are missing; with CROUPIER_REQUIRE_PYTHON=1 that is a failure.
# pytest's own statuses pass through: 5 (no test collected) fails too.
set -uo pipefail
python="$1" pydir="$2" src="$3"

skip() {
    echo "SKIP: $1"
    if [ "${CROUPIER_REQUIRE_PYTHON:-0}" = 1 ]; then exit 1; fi
    exit 77
}
[ -n "$python" ] || skip "no Python headers at configure time (Debian: apt-get install python3-dev)"
"$python" -c 'import numpy' 2>/dev/null || skip "numpy is missing (Debian: apt-get install python3-numpy)"
"$python" -c 'import pytest' 2>/dev/null || skip "pytest is missing (Debian: apt-get install python3-pytest)"

# From the built package's directory: `python -m` puts the working
# directory first on sys.path, and python/croupier/ (the sources, without
# the extension) must not shadow the built package.  -p no:cacheprovider:
# no .pytest_cache in either tree.
cd "$pydir" || exit 1
PYTHONPATH="$pydir" CROUPIER_SOURCE_DIR="$src" \
    exec "$python" -m pytest -q -p no:cacheprovider "$src/python/tests"
