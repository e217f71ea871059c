#!/usr/bin/env bash
# Installs everything ./run.sh test needs on a fresh machine of this project's kind; idempotent,
# so developers run it too. Called by .ci/run. Nothing here needs a Docker engine.
#   Debian: shellcheck, bats, prometheus (promtool + server), jq, parallel (bats --jobs)
#   Go module proxy: Compose v2, built from source (no engine needed to validate files)
#   npm: the loader's dependencies (npm ci)
#   Maven Central: de.bwaldvogel:mongo-java-server, the wire-protocol server the loader tests use
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"
# LAB_TOOLS_CACHE (set by .ci/run): a folder that outlives the clone, where the built tools stay
tools_from_cache "${LAB_TOOLS_CACHE:-}"
mkdir -p "$TOOLS_DIR/bin"

apt_packages=(shellcheck bats bats-support bats-assert prometheus jq parallel)
missing=()
for p in "${apt_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "install-tools: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Compose v2: `go install` refuses this module (replace directives), so download and build it.
# The version is read whole before it is matched (a `| grep -q` under pipefail can kill the
# writer with SIGPIPE and fail the check at random).
if [[ ! -x $TOOLS_DIR/bin/docker-compose || $("$TOOLS_DIR/bin/docker-compose" version 2>/dev/null) != *"${COMPOSE_VERSION#v}"* ]]; then
  echo "install-tools: building Compose $COMPOSE_VERSION from the Go module proxy (a few minutes)"
  dir=$(go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" | jq -r .Dir)
  (cd "$dir" && GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" -o "$TOOLS_DIR/bin/docker-compose" ./cmd)
fi

for hook in "$LAB_ROOT"/test/install.d/*.sh; do
  [[ -e $hook ]] || continue
  echo "install-tools: $(basename "$hook")"
  bash "$hook"
done
echo "install-tools: done"
