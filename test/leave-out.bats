#!/usr/bin/env bats
# LAB_LEAVE_OUT: monitoring services an engine cannot run (cAdvisor needs a privileged container;
# an engine may be unable to pull Grafana) are left out of the stack by a Compose profile nothing
# enables (compose/monitoring/leave-out-<service>.yml), said at up; only those services may be named.
load test_helper

setup() { setup_lab; }

@test "LAB_LEAVE_OUT='cadvisor grafana': the leave-out files on the compose line, said once, no Grafana links" {
  LAB_LEAVE_OUT="cadvisor grafana" lab up --engine wiredtiger --dry-run
  assert_success
  assert_output --partial "-f compose/monitoring/leave-out-cadvisor.yml -f compose/monitoring/leave-out-grafana.yml"
  assert_output --partial "Left out of the stack (LAB_LEAVE_OUT): cadvisor grafana"
  assert_output --partial "Grafana:          left out (LAB_LEAVE_OUT)"
  refute_output --partial "/d/lab-cluster-overview"
}

@test "LAB_LEAVE_OUT naming a service that cannot be left out: exit 2, one line, nothing started" {
  LAB_LEAVE_OUT="shard01-a" lab up --engine wiredtiger
  assert_failure 2
  assert_output --partial "LAB_LEAVE_OUT names 'shard01-a', which cannot be left out (these can: cadvisor grafana)"
  nothing_started
}

@test "the real Compose leaves the services out of the stack it renders" {
  compose=$(LAB_ROOT=$REPO; source "$REPO/test/lib/tools.sh"; compose_bin)
  [[ -n $compose ]] || fail "Compose v2 missing (.tools/bin/docker-compose): run 'bash test/install-tools.sh'"
  # the compose line lib/stack.sh builds, run by the real Compose (config --services)
  services() {
    (cd "$LAB" && LAB_ROOT=$LAB LAB_LEAVE_OUT=$1 bash -c '
      source lib/common.sh; source lib/tables.sh; source lib/stack.sh; source lib/preflight.sh
      source lib/secrets.sh; source lib/cluster.sh; source lib/monitoring.sh
      ENGINE=wiredtiger PROFILE=laptop MONGOS_COUNT=1 MONITORING=1 HOST_VIEW=host DOCKER_SERVER_VERSION=28.0.0
      secrets_ensure >/dev/null 2>&1
      mapfile -t a < <(compose_argv config --services)
      for ((i = 0; i < ${#a[@]}; i++)); do [[ ${a[i]} == docker && ${a[i + 1]} == compose ]] && break; done
      "${a[@]:0:i}" "$0" "${a[@]:i+2}"' "$compose")
  }
  run services ""
  assert_success
  assert_line cadvisor
  assert_line grafana
  run services "cadvisor grafana"
  assert_success
  refute_line cadvisor
  refute_line grafana
  assert_line prometheus
  assert_line shard01-a
}
