#!/usr/bin/env bats
# lib/monitoring.sh: what `up` prints and publishes for monitoring, and smoke_monitoring's dry run.
# (The live checks are in dashboards/test/run-tests.sh; the Docker-host proof is ./run.sh smoke.)

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
load ../../test/lib/bats-tracing # trace_test_lines_only

setup() {
  trace_test_lines_only
  LAB_ROOT=$REPO
  # lib/common.sh is not sourced: its run() (dry-run runner) would shadow bats' run.
  # shellcheck source=lib/tables.sh
  source "$REPO/lib/tables.sh"
  # shellcheck source=lib/monitoring.sh
  source "$REPO/lib/monitoring.sh"
  ENGINE=inmemory MONITORING=1 DRY_RUN=0
}

@test "monitoring_after_up prints the four dashboard URLs for the engine, Grafana and Prometheus" {
  run monitoring_after_up
  assert_success
  assert_output --partial "http://127.0.0.1:3000/d/lab-cluster-overview?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-engine-cache?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-disk-host?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-replication?var-engine=inmemory"
  assert_output --partial ".secrets/inmemory/grafana-admin-password"
  assert_output --partial "http://127.0.0.1:9090/targets"
  refute_output --regexp "0\.0\.0\.0|localhost:"
}

@test "every dashboard uid monitoring_after_up prints exists in dashboards/*.json" {
  local uid
  while IFS=$'\t' read -r uid _; do
    grep -lq "\"uid\": \"$uid\"" "$REPO"/dashboards/*.json || fail "no dashboard with uid $uid"
  done <<<"$MONITORING_DASHBOARDS"
}

@test "--no-monitoring: no URLs, no ports" {
  MONITORING=0
  run monitoring_after_up
  assert_success
  assert_output ""
  run monitoring_ports
  assert_output ""
}

@test "monitoring_ports: Grafana 3000 and Prometheus 9090 (preflight checks them)" {
  run monitoring_ports
  assert_output $'3000\n9090'
}

@test "smoke_monitoring --dry-run runs nothing and says what it would check" {
  DRY_RUN=1
  run smoke_monitoring inmemory
  assert_success
  assert_output --partial "would query every dashboard panel"
}

# ---- node_exporter per platform (monitoring_host_view; lib/stack.sh adds the file it names) ------
# The stub docker (test/stub/docker) answers `docker info` as a Linux engine or Docker Desktop would.
# host_view_with OPERATING_SYSTEM [ROOT_FIELDS]: monitoring_host_view against a stub daemon, local,
# on a host whose / has ROOT_FIELDS among its mountinfo optional fields (default shared:1, as
# systemd mounts it; "" private), whatever this machine's own / is.
host_view_with() {
  export STUB_DOCKER_LOG=$BATS_TEST_TMPDIR/docker.log STUB_DOCKER_RULES=$BATS_TEST_TMPDIR/rules
  : >"$STUB_DOCKER_LOG"
  printf 'info --format {{.OperatingSystem}}\t0\t%s\n' "$1" >"$STUB_DOCKER_RULES"
  LAB_MOUNTINFO=$BATS_TEST_TMPDIR/mountinfo
  local fields=${2-shared:1}
  echo "27 1 254:0 / / rw,relatime ${fields:+$fields }- ext4 /dev/vda rw" >"$LAB_MOUNTINFO"
  unset DOCKER_HOST
  PATH="$REPO/test/stub:$PATH" monitoring_host_view
}

@test "monitoring_host_view: Docker Desktop (docker info) -> desktop-vm, a Linux engine -> host (host-private on a private /)" {
  HOST_VIEW=auto run host_view_with "Docker Desktop"
  assert_success
  assert_output desktop-vm
  HOST_VIEW=auto run host_view_with "Ubuntu 24.04.1 LTS"
  assert_output host
  grep -qx 'info --format {{.OperatingSystem}}' "$BATS_TEST_TMPDIR/docker.log"
  # a Linux engine on a private / (no systemd): node_exporter without rslave (test/docker-host.bats)
  HOST_VIEW=auto run host_view_with "Ubuntu 24.04.1 LTS" ""
  assert_output host-private
  HOST_VIEW=auto run host_view_with "Docker Desktop" ""
  assert_output desktop-vm
}

@test "monitoring_host_view: --host-view chooses without asking the daemon; a dry run never asks" {
  HOST_VIEW=desktop-vm run host_view_with "Ubuntu 24.04.1 LTS"
  assert_output desktop-vm
  HOST_VIEW=host run host_view_with "Docker Desktop"
  assert_output host
  [[ ! -s $BATS_TEST_TMPDIR/docker.log ]] || fail "docker was called: $(cat "$BATS_TEST_TMPDIR/docker.log")"
  DRY_RUN=1 HOST_VIEW=auto run host_view_with "Docker Desktop"
  assert_output host
  [[ ! -s $BATS_TEST_TMPDIR/docker.log ]] || fail "a dry run called docker: $(cat "$BATS_TEST_TMPDIR/docker.log")"
}

@test "the daemon is asked once per run, however many compose command lines are built" {
  export STUB_DOCKER_LOG=$BATS_TEST_TMPDIR/docker.log STUB_DOCKER_RULES=$BATS_TEST_TMPDIR/rules
  : >"$STUB_DOCKER_LOG"
  printf 'info --format {{.OperatingSystem}}\t0\tDocker Desktop\n' >"$STUB_DOCKER_RULES"
  # Three command lines in one shell, as a verb builds them (each line is built in a subshell).
  # shellcheck disable=SC2016  # $1 is the inner shell's argument
  run env PATH="$REPO/test/stub:$PATH" bash -c 'source "$1/run.sh"; ENGINE=wiredtiger PROFILE=laptop
    HOST_VIEW=auto; compose_probe ps; compose_probe config --services; compose ps' _ "$REPO"
  assert_success
  [[ $(grep -c '^info --format {{.OperatingSystem}}' "$STUB_DOCKER_LOG") == 1 ]] ||
    fail "docker info asked $(grep -c '^info --format {{.OperatingSystem}}' "$STUB_DOCKER_LOG") times: $(cat "$STUB_DOCKER_LOG")"
  [[ $(grep -c 'node-exporter-desktop-vm.yml' "$STUB_DOCKER_LOG") == 3 ]] ||
    fail "the Desktop override was not on all three command lines: $(cat "$STUB_DOCKER_LOG")"
}

@test "stack_files adds the Docker Desktop node_exporter override only for desktop-vm, and nothing without monitoring" {
  # (Not followed: stack.sh reads MONITORING, which the other tests set in their own subshells,
  # and shellcheck would flag those assignments; stack.sh is checked on its own.)
  # shellcheck source=/dev/null
  source "$REPO/lib/stack.sh"
  ENGINE=wiredtiger
  # shellcheck disable=SC2034 # read by stack_files: the daemon's engine, not asked (lib/stack.sh)
  DOCKER_SERVER_VERSION=25.0.0
  HOST_VIEW=desktop-vm run stack_files
  assert_line compose/monitoring.yml
  assert_line compose/monitoring/node-exporter-desktop-vm.yml
  # The override comes after the file it overrides.
  [[ $(grep -n . <<<"$output" | grep -F compose/monitoring/node-exporter-desktop-vm.yml | cut -d: -f1) -gt \
    $(grep -n . <<<"$output" | grep -Fx compose/monitoring.yml | cut -d: -f1) ]] || fail "override before monitoring.yml: $output"
  HOST_VIEW=host run stack_files
  assert_line compose/monitoring.yml
  refute_output --partial node-exporter
  MONITORING=0
  HOST_VIEW=desktop-vm run stack_files
  refute_output --partial monitoring
}

@test "smoke_monitoring: a target without MongoDB series fails it when that lasts 10 s, not for one late scrape, and says which and when" {
  MONITORING_PROMETHEUS_PORT=9090
  # curl as Prometheus's query_range answers: one target absent from MongoDB's series at one 5 s
  # step (a scrape past its 1 s deadline), or at two in a row
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/sh\ncat "%s"\n' "$BATS_TEST_TMPDIR/answer" >"$BATS_TEST_TMPDIR/bin/curl"
  chmod +x "$BATS_TEST_TMPDIR/bin/curl"
  answer() { printf '{"data":{"result":[{"metric":{"instance":"shard01-b:9216"},"values":[%s]}]}}' "$1" >"$BATS_TEST_TMPDIR/answer"; }
  answer '[1000,"1"],[1020,"1"]'
  [ "$(PATH=$BATS_TEST_TMPDIR/bin:$PATH monitoring_query_range 'up == 1' spans)" = "" ]
  [ "$(PATH=$BATS_TEST_TMPDIR/bin:$PATH monitoring_query_range 'up == 1')" = 1 ]
  answer '[1000,"1"],[1020,"1"],[1025,"1"],[1030,"1"],[1100,"1"],[1105,"1"]'
  [ "$(PATH=$BATS_TEST_TMPDIR/bin:$PATH monitoring_query_range 'up == 1' spans)" = "shard01-b:9216 00:17:00-00:17:10 UTC
shard01-b:9216 00:18:20-00:18:25 UTC" ]
  # Prometheus not answering is a failure, never an empty panel
  printf '#!/bin/sh\nexit 7\n' >"$BATS_TEST_TMPDIR/bin/curl"
  PATH=$BATS_TEST_TMPDIR/bin:$PATH run monitoring_query_range 'up == 1' spans
  [ "$status" -ne 0 ]
}
