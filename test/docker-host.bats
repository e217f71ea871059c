#!/usr/bin/env bats
# The Docker hosts `up` adapts to, with the stub docker: an engine from 20.10 to 24.x (no
# healthcheck start_interval: lib/stack.sh, lib/preflight.sh). The refusal below 20.10:
# test/bad-input.bats.
# These tests take the stack as running (no port is checked), so they do not depend on which
# ports this machine has free.

# shellcheck disable=SC2030,SC2031
load test_helper

setup() { setup_lab; }

OVERLAY=compose/healthcheck-start-interval.yml
MONITORING_OVERLAY=compose/monitoring/healthcheck-start-interval.yml

# engine VERSION: the stub daemon reports Docker Engine VERSION (docker info ServerVersion).
engine() { rule "info --format {{.ServerVersion}}" 0 "$1"; }
# asked GLOB: how many recorded docker calls match GLOB.
asked() {
  local line n=0
  while IFS= read -r line; do
    # shellcheck disable=SC2053  # GLOB is a pattern on purpose
    [[ $line == $1 ]] && n=$((n + 1))
  done <"$STUB_DOCKER_LOG"
  echo "$n"
}

# ---- Engine 20.10 to 24.x: no start_interval -----------------------------------------------------

@test "the start_interval overlays are added on Engine 25+, and left out on 20.10 to 24.x; docker info is asked once" {
  local v
  for v in 25.0.0 28.5.1 29.0.0; do
    : >"$STUB_DOCKER_LOG" && : >"$STUB_DOCKER_RULES"
    all_up_rules
    engine "$v"
    lab up
    assert_success
    assert_called "* -f compose/cluster.yml * -f $OVERLAY -f compose/monitoring.yml*-f $MONITORING_OVERLAY *"
    refute_called "* -f $OVERLAY * -f $OVERLAY *"
    [[ $(asked "info --format {{.ServerVersion}}") == 1 ]] || fail "$v: asked $(asked "info --format {{.ServerVersion}}") times: $(calls)"
  done
  for v in 20.10.24+dfsg1 20.10.0 23.0.6 24.0.7; do
    : >"$STUB_DOCKER_LOG" && : >"$STUB_DOCKER_RULES"
    all_up_rules
    engine "$v"
    lab up
    assert_success
    assert_called "$(compose_prefix wiredtiger | sed "s| -f $OVERLAY||") -f compose/monitoring.yml *"
    refute_called "*healthcheck-start-interval*"
    [[ $(asked "info --format {{.ServerVersion}}") == 1 ]] || fail "$v: asked $(asked "info --format {{.ServerVersion}}") times: $(calls)"
  done
}

@test "the monitoring overlay only with monitoring: --no-monitoring on Engine 25+ keeps the cluster's overlay alone" {
  all_up_rules
  engine 25.0.0
  lab up --no-monitoring
  assert_success
  assert_called "$(compose_prefix wiredtiger) *"
  refute_called "*monitoring*"
}

@test "a dry run asks the daemon nothing and prints the command of Engine 25+ (both overlays)" {
  engine 24.0.7
  lab up --dry-run
  assert_success
  assert_output --regexp "docker compose .* -f $OVERLAY -f compose/monitoring.yml (.* )?-f $MONITORING_OVERLAY "
  refute_called "info *"
}

@test "Engine 20.10 to 24.x: up says once, in one line, what runs without start_interval and what it costs; 25+ and other verbs say nothing" {
  local v want
  for v in 20.10.24+dfsg1 24.0.7; do
    : >"$STUB_DOCKER_RULES"
    all_up_rules
    engine "$v"
    lab up
    assert_success
    want="Docker Engine ${v%%+*}: healthchecks poll every 10 s while members start (start_interval needs Engine 25), so up waits up to ~10 s longer"
    [[ $(grep -cxF "$want" <<<"$output") == 1 ]] || fail "$v: want the line once: $want"$'\n'"got: $output"
  done
  lab status
  assert_success
  refute_output --partial "start_interval"
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  engine 25.0.0
  lab up
  assert_success
  refute_output --partial "start_interval"
}
