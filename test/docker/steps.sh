# shellcheck shell=bash
# The lab's own commands as the Docker suite runs them, on a copy of this checkout ($LAB), each
# step's output kept in $WORK for its checks (sourced by test/docker.sh and test/docker/apart.sh;
# each has its own LAB, WORK and DOCKER_HOST).

# lab_copy DEST: this checkout's files (tracked and untracked, never ignored ones: no secrets,
# state or results) in DEST, with the loader's node_modules and the installed tools, so that the
# suite's secrets, state and results never touch the developer's.
lab_copy() {
  local dest=$1
  mkdir -p "$dest"
  (cd "$LAB_ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$dest" 2>/dev/null) ||
    (cd "$LAB_ROOT" && tar --exclude=./.tools --exclude=./.secrets --exclude=./results --exclude=./.state --exclude=./loader/node_modules -cf - . | tar -C "$dest" -xf -)
  # -L: a worktree may hold node_modules as a symlink, which a Docker build context cannot follow
  cp -rL "$LAB_ROOT/loader/node_modules" "$dest/loader/node_modules"
  ln -s "$LAB_ROOT/.tools" "$dest/.tools"
}

lab() { (cd "$LAB" && ./run.sh "$@"); }
step() { # step NAME CMD...: run a lab command, its output kept for the checks and shown on failure
  local name=$1 rc
  shift
  "$@" >"$WORK/$name.out" 2>&1
  rc=$?
  echo "$rc" >"$WORK/$name.rc"
  ((rc == 0)) || diagnose >>"$WORK/$name.out"
  return "$rc"
}
# diagnose: the last lines of each container of the stack that exited with an error or is not
# healthy, to see why a step failed (appended to the step's output).
diagnose() {
  docker ps -a --filter label=com.docker.compose.project=lab-wiredtiger --format '{{.Names}}|{{.Status}}' |
    grep -E 'Exited \([1-9]|unhealthy' | while IFS='|' read -r name status; do
      echo "$name: $status"
      docker logs --tail 6 "$name" 2>&1 | sed "s/^/  $name: /"
    done
}
mongosh_in() { # mongosh_in SERVICE JS: the real mongosh inside a member, as root
  (cd "$LAB" && docker compose -p lab-wiredtiger exec -T "$1" sh -c \
    'mongosh --quiet --norc "mongodb://root:$(cat /run/lab-secrets/root-password)@127.0.0.1:27017/admin" --eval "$0"' "$2")
}
