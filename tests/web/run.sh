#!/usr/bin/env bash
# tests/web/run.sh CROUPIER [SCREENSHOT_DIR] — the browser tests (run.mjs),
# skipped (exit 77, CTest's SKIP_RETURN_CODE) with a clear message when this
# machine lacks node, the npm packages (cd tests/web && npm ci) or Chromium.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# CI sets CROUPIER_REQUIRE_WEB=1: there a missing piece fails the test.
skip=77
[ "${CROUPIER_REQUIRE_WEB:-}" = 1 ] && skip=1
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: node is not installed (Debian: apt-get install nodejs npm chromium)"
    exit $skip
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
    echo "SKIP: playwright-core is not installed (cd tests/web && npm ci)"
    exit $skip
fi
exec node "$here/run.mjs" "$@"
