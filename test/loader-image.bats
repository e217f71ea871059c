#!/usr/bin/env bats
# Where the loader image takes its dependencies (images/loader/Dockerfile LOADER_DEPS, chosen by
# lib/common.sh loader_deps_source and passed by lib/stack.sh as LAB_LOADER_DEPS): the host's
# loader/node_modules when it is a complete install of the current lock file with no compiled
# addon, so the image builds with no registry; npm ci in the build otherwise.
load test_helper

setup() {
  setup_lab
  mkdir -p "$LAB/loader/node_modules/mongodb"
  echo '{}' >"$LAB/loader/package-lock.json"
  touch -d '2026-01-01' "$LAB/loader/package-lock.json"
  echo '{}' >"$LAB/loader/node_modules/.package-lock.json"
}

deps() { (LAB_ROOT=$LAB; source "$LAB/lib/common.sh"; loader_deps_source); }

@test "a complete npm ci of the current lock file: host (offline build)" {
  run deps
  assert_output host
}

@test "no install, a stale one, or a compiled addon: registry" {
  rm "$LAB/loader/node_modules/.package-lock.json"
  run deps
  assert_output registry
  echo '{}' >"$LAB/loader/node_modules/.package-lock.json"
  touch -d '2025-01-01' "$LAB/loader/node_modules/.package-lock.json"
  run deps
  assert_output registry
  touch "$LAB/loader/node_modules/.package-lock.json"
  mkdir -p "$LAB/loader/node_modules/some-addon/build/Release"
  touch "$LAB/loader/node_modules/some-addon/build/Release/addon.node"
  run deps
  assert_output registry
}

@test "the stack's compose lines carry the choice to the build (LAB_LOADER_DEPS)" {
  lab up --engine wiredtiger --dry-run
  assert_success
  assert_output --partial "LAB_LOADER_DEPS=host"
}

@test "decided once per run, however many compose lines the run builds" {
  # a find that logs each call: loader_deps_source's search of node_modules for compiled addons
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/sh\necho "$*" >>"%s/find.log"\nexec %s "$@"\n' "$BATS_TEST_TMPDIR" "$(command -v find)" >"$BATS_TEST_TMPDIR/bin/find"
  chmod +x "$BATS_TEST_TMPDIR/bin/find"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  PATH="$BATS_TEST_TMPDIR/bin:$PATH" lab up --engine wiredtiger
  assert_success
  (($(grep -c '^compose --project-directory' "$STUB_DOCKER_LOG") > 1)) || fail "up ran one compose command or none: $(calls)"
  [ "$(grep -c "$LAB/loader/node_modules" "$BATS_TEST_TMPDIR/find.log")" = 1 ] || fail "$(cat "$BATS_TEST_TMPDIR/find.log")"
}
