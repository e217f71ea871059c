# shellcheck shell=bash
# Where the test suite finds its tools, and the install hint when one is missing.
# test/install-tools.sh installs all of them (it is what .ci/run calls).

TOOLS_DIR="$LAB_ROOT/.tools"
# shellcheck disable=SC2034  # read by test/install-tools.sh, which sources this file
COMPOSE_VERSION=v2.40.3
export PATH="$TOOLS_DIR/bin:$PATH"

INSTALL_HINT="run 'bash test/install-tools.sh' (installs Debian packages, builds Compose v2 from the Go module proxy, fetches npm and Maven dependencies)"

# need_tool NAME: fail loudly with the install hint when NAME is not on PATH.
need_tool() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "not ok 1 - missing tool '$1': $INSTALL_HINT"
  return 1
}

# compose_bin: the real Compose v2 used to validate files (a docker CLI plugin or the standalone).
compose_bin() {
  if [[ -x $TOOLS_DIR/bin/docker-compose ]]; then echo "$TOOLS_DIR/bin/docker-compose"; return 0; fi
  command -v docker-compose 2>/dev/null
}
