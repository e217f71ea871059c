#!/usr/bin/env bats
# The Docker hosts `up` adapts to, with the stub docker: an engine from 20.10 to 24.x (no
# healthcheck start_interval: lib/stack.sh, lib/preflight.sh), and a Linux host whose / is a
# private mount (node_exporter without rslave: lib/monitoring.sh), including a rerun after Docker
# refused node_exporter's start. The refusal below 20.10: test/bad-input.bats.
# These tests take the stack as running or partly running (no port is checked), so they do not
# depend on which ports this machine has free.

# shellcheck disable=SC2030,SC2031
load test_helper

setup() { setup_lab; }

OVERLAY=compose/healthcheck-start-interval.yml
MONITORING_OVERLAY=compose/monitoring/healthcheck-start-interval.yml
PRIVATE_OVERRIDE=compose/monitoring/node-exporter-host-private.yml
MOUNT_ERROR="path / is mounted on / but it is not a shared or slave mount"

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
# root_mount OPTIONAL_FIELDS: this host's / as mountinfo shows it ("shared:1", "master:3", "" private).
root_mount() { echo "27 1 254:0 / / rw,relatime ${1:+$1 }- ext4 /dev/vda rw" >"$LAB_MOUNTINFO"; }
# linux_daemon: the stub daemon is a Linux engine (not Docker Desktop).
linux_daemon() { rule "info --format {{.OperatingSystem}}" 0 "Debian GNU/Linux 12 (bookworm)"; }

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

# Compose 2.21 to 2.23 accept healthcheck.start_interval and drop it (docker/compose v2.23.3
# pkg/compose/convert.go ToMobyHealthCheck has no StartInterval; v2.24.0 passes it on).
@test "Engine 25+ with Compose 2.21 to 2.23: up says once, in one line, that start_interval is ignored; Compose 2.24+ says nothing" {
  local v want
  for v in 2.21.0 v2.23.3 2.23.0-desktop.1; do
    : >"$STUB_DOCKER_RULES"
    all_up_rules
    engine 25.0.0
    rule "compose version --short" 0 "$v"
    lab up
    assert_success
    want="Docker Compose ${v#v} ignores healthcheck start_interval (passed on from Compose 2.24): healthchecks"
    want+=" poll every 10 s while members start, so up waits up to ~10 s longer"
    [[ $(grep -cxF "$want" <<<"$output") == 1 ]] || fail "$v: want the line once: $want"$'\n'"got: $output"
  done
  for v in 2.24.0 2.40.3 3.0.0; do
    : >"$STUB_DOCKER_RULES"
    all_up_rules
    engine 28.5.1
    rule "compose version --short" 0 "$v"
    lab up
    assert_success
    refute_output --partial "start_interval"
  done
  # below Engine 25 the Engine's line alone (start_interval is not passed at all)
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  engine 24.0.7
  rule "compose version --short" 0 "2.21.0"
  lab up
  assert_success
  [[ $(grep -c "start_interval" <<<"$output") == 1 ]] || fail "want one start_interval line, got: $output"
  assert_output --partial "start_interval needs Engine 25"
}

# ---- a private / (no systemd): node_exporter without rslave --------------------------------------

@test "a local Linux daemon on a private /: up uses node_exporter without rslave and says so in one line" {
  all_up_rules
  linux_daemon
  root_mount ""
  lab up
  assert_success
  assert_line "/ is a private mount here (no systemd?): node_exporter sees the host's disks as mounted now; mounts made later are not seen"
  assert_called "* -f compose/monitoring.yml -f $PRIVATE_OVERRIDE *"
  refute_called "*node-exporter-desktop-vm*"
  [[ $(asked "info --format {{.OperatingSystem}}") == 1 ]] || fail "asked $(asked "info --format {{.OperatingSystem}}") times: $(calls)"
}

@test "a shared or slave /, a daemon that is not local, Docker Desktop: no host-private" {
  local fields
  for fields in shared:1 master:3 "shared:1 master:3"; do
    : >"$STUB_DOCKER_LOG"
    all_up_rules
    linux_daemon
    root_mount "$fields"
    lab up
    assert_success
    refute_output --partial "private mount"
    refute_called "*node-exporter-*"
  done
  : >"$STUB_DOCKER_LOG"
  root_mount ""
  DOCKER_HOST=tcp://10.0.0.5:2376 lab up
  assert_success
  refute_output --partial "private mount"
  refute_called "*node-exporter-*"
  : >"$STUB_DOCKER_LOG" && : >"$STUB_DOCKER_RULES"
  all_up_rules
  rule "info --format {{.OperatingSystem}}" 0 "Docker Desktop"
  lab up
  assert_success
  assert_called "* -f compose/monitoring/node-exporter-desktop-vm.yml *"
  refute_called "*$PRIVATE_OVERRIDE*"
}

@test "--host-view overrides what / says: host on a private /, host-private on a shared one (its own line)" {
  all_up_rules
  linux_daemon
  root_mount ""
  lab up --host-view host
  assert_success
  refute_output --partial "private"
  refute_called "*node-exporter-*"
  refute_called "info --format {{.OperatingSystem}}"
  : >"$STUB_DOCKER_LOG"
  root_mount shared:1
  lab up --host-view host-private
  assert_success
  assert_line "--host-view host-private: node_exporter sees the host's disks as mounted now; mounts made later are not seen"
  assert_called "* -f compose/monitoring.yml -f $PRIVATE_OVERRIDE *"
  lab up --host-view host-private --dry-run
  assert_success
  assert_line "--host-view host-private: node_exporter sees the host's disks as mounted now; mounts made later are not seen"
  assert_output --regexp "docker compose .* -f compose/monitoring.yml -f $PRIVATE_OVERRIDE "
}

# ---- Docker refused node_exporter's start: the message names the fix, a rerun works ---------------

# partly_up_with_refused [INSPECT]: members running, node_exporter created but refused by Docker (as
# after an up on a private / that was not detected: a daemon elsewhere, another mount namespace),
# and one member whose start Docker also refused (it must never be removed). INSPECT replaces what
# `docker inspect` says of the two created containers.
partly_up_with_refused() {
  local ps='keyfile|exited||0\ncfg1|running|healthy|0\ncfg2|running|healthy|0\ncfg3|running|healthy|0'
  ps+='\nshard01-a|running|healthy|0\nshard01-b|created||0\nshard01-c|running|healthy|0\nmongos|running|healthy|0'
  ps+='\nnode-exporter|created||0\nprometheus|running||0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}" 0 "$ps"
  rule "ps -aq --filter label=com.docker.compose.project=lab-wiredtiger --filter status=created" 0 'c0ffee\nbadbee'
  rule "inspect --format * c0ffee badbee" 0 "${1:-node-exporter|$MOUNT_ERROR\nshard01-b|driver failed programming external connectivity}"
}

@test "a rerun after Docker refused node_exporter's start removes that container, and only it, before up --no-recreate" {
  partly_up_with_refused
  lab up --host-view host-private
  assert_success
  assert_output --partial "Docker refused to start node-exporter on an earlier up: removing that container (it never ran), so that up creates it from the current files."
  assert_called "$(compose_prefix wiredtiger)* --profile * rm -f node-exporter"
  refute_called "* rm *shard01*"
  assert_called "* -f $PRIVATE_OVERRIDE * up -d --no-recreate"
  local rm_at up_at
  rm_at=$(grep -n ' rm -f node-exporter$' "$STUB_DOCKER_LOG" | cut -d: -f1)
  up_at=$(grep -n ' up -d --no-recreate$' "$STUB_DOCKER_LOG" | cut -d: -f1)
  ((rm_at < up_at)) || fail "rm at call $rm_at, up at call $up_at: $(calls)"
}

@test "up failing on node_exporter's rslave mount: the error line names the fix; another failure keeps the plain line" {
  partly_up_with_refused
  rule "compose * up -d --no-recreate" 1
  lab up
  assert_failure 1
  assert_line "error: docker compose up failed: Docker refused node_exporter's rslave mount of / ($MOUNT_ERROR), so / is a private mount on the Docker host (no systemd?): run up again with --host-view host-private (node_exporter then sees the disks mounted when it starts) or --host-view desktop-vm (no host mount); up removes the container that did not start"
  assert_output --partial "Clean up: ./run.sh down --engine wiredtiger"
  : >"$STUB_DOCKER_RULES"
  partly_up_with_refused "shard01-b|driver failed programming external connectivity"
  rule "compose * up -d --no-recreate" 1
  lab up
  assert_failure 1
  assert_line "error: docker compose up failed (see above)"
}
