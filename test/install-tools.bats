#!/usr/bin/env bats
# test/install-tools.sh keeps the binaries it builds between CI runs: on a fresh clone .tools
# becomes a link to LAB_TOOLS_CACHE (test/lib/tools.sh tools_from_cache), so the pinned builds
# of one run are found, by version, by the next; an existing .tools is never replaced.

load lib/bats-tracing # trace_test_lines_only

setup() {
  trace_test_lines_only
  REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
  W=$BATS_TEST_TMPDIR/clone
  mkdir -p "$W"
  LAB_ROOT=$W
  # shellcheck source=test/lib/tools.sh
  source "$REPO/test/lib/tools.sh"
}

@test "a fresh clone's .tools is the cache: what one run built, the next finds" {
  local cache=$BATS_TEST_TMPDIR/cache
  run tools_from_cache "$cache"
  [ "$status" -eq 0 ]
  [[ $output == *".tools -> $cache (kept between runs)"* ]]
  [ "$(readlink "$W/.tools")" = "$cache" ]
  mkdir -p "$W/.tools/bin" && echo built >"$W/.tools/bin/docker-compose"
  # the next run, in another fresh clone
  local next=$BATS_TEST_TMPDIR/clone2
  mkdir -p "$next"
  LAB_ROOT=$next
  source "$REPO/test/lib/tools.sh"
  tools_from_cache "$cache"
  [ "$(cat "$next/.tools/bin/docker-compose")" = built ]
}

@test "an existing .tools (folder or link) stays; no cache given: nothing changes" {
  mkdir -p "$W/.tools/bin"
  run tools_from_cache "$BATS_TEST_TMPDIR/cache"
  [ "$status" -eq 0 ]
  # each on its own line: a false first half of an && list fails nothing
  [ -d "$W/.tools" ]
  [ ! -L "$W/.tools" ]
  [ ! -e "$BATS_TEST_TMPDIR/cache" ]
  rm -rf "$W/.tools"
  run tools_from_cache ""
  [ "$status" -eq 0 ]
  [ ! -e "$W/.tools" ]
}

@test ".ci/run hands the runner's cache to install-tools.sh, and install-tools.sh uses it before building" {
  grep -qE '^LAB_TOOLS_CACHE=\$\{LAB_TOOLS_CACHE-.*\} bash test/install-tools.sh$' "$REPO/.ci/run"
  # the link is made before the first build writes into .tools
  local first
  # shellcheck disable=SC2016 # the literal text of the script
  first=$(grep -E 'tools_from_cache|mkdir -p "\$TOOLS_DIR/bin"' "$REPO/test/install-tools.sh" | head -1)
  [[ $first == *tools_from_cache* ]]
}
