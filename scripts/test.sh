#!/usr/bin/env bash
# scripts/test.sh — THE test command: configure, build, run the whole suite.
#
#   bash scripts/test.sh                       # build/ (RelWithDebInfo)
#   bash scripts/test.sh build-asan -DCR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
#
# The first argument is the build directory (default build/); the rest go to
# cmake.  CTEST_JOBS overrides the parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${1:-build}"
shift || true
if [ $# -eq 0 ]; then
    set -- -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi

jobs="$(nproc 2>/dev/null || echo 2)"
cmake -S . -B "$build_dir" "$@"
cmake --build "$build_dir" -j "$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"${CTEST_JOBS:-2}"
