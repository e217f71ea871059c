#!/usr/bin/env bash
# install-tools hook: what the report's tests need. report/'s npm dependencies (exactly the lock
# file: Observable Plot + d3 inlined into reports, hdr-histogram-js, the t quantile, and
# playwright-core to drive the browser) and Debian's chromium (playwright-core never downloads a
# browser here; the tests point it at /usr/bin/chromium). Idempotent.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
for t in node npm; do
  command -v "$t" >/dev/null || { echo "60-report: '$t' is missing (install Node.js 20.19+)" >&2; exit 1; }
done
if ! dpkg -s chromium >/dev/null 2>&1; then
  echo "60-report: apt-get install chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
(cd "$LAB_ROOT/report" && npm ci --no-audit --no-fund --loglevel=error)
