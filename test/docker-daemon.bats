#!/usr/bin/env bats
# The Docker suite's own dockerd (test/docker/daemon.sh) stopped for good: a dockerd that outlives
# its stop timeout is killed, and the containerd it started with it, so that the next dockerd on the
# same exec root starts a containerd of its own rather than taking up one that no longer answers
# (a CI run, 2026-12-02: "timeout waiting for containerd to start"). Plain processes stand for both
# daemons: the helper acts on pids, pid files and command lines only.

load test_helper

setup() {
  trace_test_lines_only
  # shellcheck source=test/docker/daemon.sh
  source "$BATS_TEST_DIRNAME/docker/daemon.sh"
  DIR=$BATS_TEST_TMPDIR/suite
  OTHER=$BATS_TEST_TMPDIR/other
  mkdir -p "$DIR/exec/containerd" "$OTHER/exec/containerd"
  PIDS=()
}

teardown() { for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; }

# deaf NAME ARGS...: a process that ignores SIGTERM, ARGS on its command line; its pid in $REPLY.
deaf() {
  bash -c 'trap "" TERM; while :; do sleep 0.2; done' "$@" &
  REPLY=$!
  disown "$REPLY" # no "Killed" notice in the test's output
  PIDS+=("$REPLY")
}

# alive PID: running (daemon.sh's own test: a zombie is not); gone PID: not.
alive() { daemon_pid_running "$1"; }
gone() { ! alive "$1"; }

@test "daemon_stop: a dockerd deaf to SIGTERM is killed after DAEMON_STOP_WAIT_S, its containerd with it; another daemon's containerd is left" {
  deaf dockerd --data-root "$DIR/root"
  echo "$REPLY" >"$DIR/dockerd.pid"
  local dockerd=$REPLY
  deaf containerd --config "$DIR/exec/containerd/containerd.toml"
  echo "$REPLY" >"$DIR/exec/containerd/containerd.pid"
  local containerd=$REPLY
  deaf containerd --config "$OTHER/exec/containerd/containerd.toml"
  local other=$REPLY
  DAEMON_STOP_WAIT_S=1 daemon_stop "$DIR"
  sleep 0.3
  gone "$dockerd"
  gone "$containerd"
  alive "$other"
  [[ ! -e $DIR/dockerd.pid && ! -e $DIR/exec/containerd/containerd.pid ]]
}

@test "daemon_stop: a pid file naming a process that is not this dockerd's containerd kills nothing" {
  deaf sleeper --config "$OTHER/exec/containerd/containerd.toml"
  echo "$REPLY" >"$DIR/exec/containerd/containerd.pid"
  daemon_stop "$DIR"
  alive "$REPLY"
}
