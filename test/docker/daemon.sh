# shellcheck shell=bash
# A dockerd of the Docker suite's own (test/docker.sh): started here with its own data root, exec
# root and socket under DIR, --iptables=false and no default bridge (the lab's stacks use their
# own networks), and its own containerd namespace, so that it never touches another daemon's
# containers or images; stopped by the PID it wrote. The suite runs two: its first stack's, and
# the second stack's in a network namespace of its own (test/docker/apart.sh), so that both can
# publish the lab's ports on 127.0.0.1.

# daemon_start DIR NAMESPACE: the daemon under DIR, DOCKER_HOST exported to its socket, once it
# answers (at most 30 s; its log's tail and a non-zero status otherwise).
daemon_start() {
  local dir=$1 ns=$2 i
  mkdir -p "$dir"
  export DOCKER_HOST="unix://$dir/docker.sock"
  daemon_stop "$dir" # one left by a run that was killed before its trap ran
  dockerd --data-root "$dir/root" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" -H "$DOCKER_HOST" \
    --iptables=false --ip-masq=false --bridge=none \
    --containerd-namespace "$ns" --containerd-plugins-namespace "$ns-plugins" >"$dir/dockerd.log" 2>&1 &
  for ((i = 0; i < 300; i++)); do docker info >/dev/null 2>&1 && return 0; sleep 0.1; done
  tail -20 "$dir/dockerd.log" | sed 's/^/# /'
  return 1
}

# daemon_stop DIR: the daemon under DIR only, by the PID it wrote; it stops its containers first.
# That may take the longest stop timeout of its containers plus 5 s (moby daemon/daemon.go
# ShutdownTimeout; compose/cluster.yml gives mongod 60 s), then up to 15 s more for the containerd
# it started (moby libcontainerd/supervisor/remote_daemon.go shutdownTimeout): it is given
# DAEMON_STOP_WAIT_S (90, systemd's default stop timeout) before it is killed. Killed, it leaves
# that containerd running, perhaps half shut down; the next dockerd on the same exec root takes it
# up by its pid file ("containerd is still running") and, when it does not answer, gives up with
# "timeout waiting for containerd to start" (a CI run, 2026-12-02, killed after 30 s): it goes too.
daemon_stop() {
  local dir=$1 pidfile=$1/dockerd.pid pid i
  pid=$(cat "$pidfile" 2>/dev/null) || pid=""
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    for ((i = 0; i < ${DAEMON_STOP_WAIT_S:-90} * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -f "$pidfile"
  daemon_containerd_kill "$dir"
}

# daemon_containerd_kill DIR: the containerd a dockerd under DIR started, if it still runs (its pid
# file names it; its command line names DIR's config, so a reused pid is left alone), killed and
# waited for (at most 10 s; a zombie holds no socket). A dockerd with no pid file left may have
# left its containerd: it goes all the same.
daemon_containerd_kill() {
  local state=$1/exec/containerd pid i
  pid=$(cat "$state/containerd.pid" 2>/dev/null) || return 0
  if [[ $pid =~ ^[0-9]+$ ]] && grep -qaF "$state/containerd.toml" "/proc/$pid/cmdline" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null
    for ((i = 0; i < 100; i++)); do daemon_pid_running "$pid" || break; sleep 0.1; done
  fi
  rm -f "$state/containerd.pid"
}

# daemon_pid_running PID: the process runs (a zombie, killed and not yet reaped, does not).
daemon_pid_running() { grep -qE '^State:\s+[^Z]' "/proc/$1/status" 2>/dev/null; }

# daemon_clean: what a killed earlier run left in the daemon DOCKER_HOST names (containers,
# volumes, networks), and the images earlier runs' builds left untagged (the data root is kept
# between runs and grew by one loader image a run): the suite starts clean.
daemon_clean() {
  docker ps -aq | xargs -r docker rm -f >/dev/null 2>&1
  docker volume ls -q | xargs -r docker volume rm -f >/dev/null 2>&1
  docker network prune -f >/dev/null 2>&1
  docker image prune -f >/dev/null 2>&1
}
