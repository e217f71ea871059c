#!/usr/bin/env bash
# install-tools hook: ESLint for the JavaScript style gate (test/suites/15-eslint.sh, the rules in
# eslint.config.js), with the two packages that config reads (@eslint/js: its recommended rules;
# globals: Node's, the browser's and mongosh's names). Installed into .tools/eslint (LAB_ESLINT_DIR
# overrides), not into a package's node_modules: no package of the lab depends on it at run time.
# Versions pinned, so every machine gates with the same rules. Idempotent. Needs node >= 20.19, npm.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"
for t in node npm; do
  command -v "$t" >/dev/null || { echo "15-eslint: '$t' is missing (install Node.js 20.19+)" >&2; exit 1; }
done
dir=${LAB_ESLINT_DIR:-$TOOLS_DIR/eslint}
packages=(eslint@10.15.0 @eslint/js@10.0.1 globals@17.14.0)
stamp=$dir/.versions
[[ -x $dir/node_modules/.bin/eslint && $(cat "$stamp" 2>/dev/null) == "${packages[*]}" ]] && exit 0
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --no-save "${packages[@]}"
echo "${packages[*]}" >"$stamp"
