# shellcheck shell=bash
# ./run.sh smoke [--faults]: the end-to-end proof, on a Docker host. For every engine in the
# engines table: up, status, the cluster checks below, each other part's checks, destroy.
# Prints one TAP-like line per check ("ok - ..." / "not ok - ...") and exits 1 if any failed.
#
# Hook contract for the other parts (each defined in its own lib file, called when defined):
#   smoke_experiments ENGINE | smoke_monitoring ENGINE | smoke_faults ENGINE (only with --faults)
# Called with the engine's stack up (ENGINE, PROFILE, MONGOS_COUNT set as for any verb); print
# their own "ok -"/"not ok -" lines through smoke_check or directly; return non-zero on failure.
# Under --dry-run every step prints its docker commands instead of running them.

SMOKE_FAILED=0
SMOKE_N=0

# smoke_check NAME CMD...: run one check, print its result line, remember a failure.
smoke_check() {
  local name=$1
  shift
  SMOKE_N=$((SMOKE_N + 1))
  if "$@"; then
    echo "ok $SMOKE_N - $name"
  else
    echo "not ok $SMOKE_N - $name"
    SMOKE_FAILED=1
  fi
}

# smoke_lab VERB [ARGS...]: this very CLI in a child process, so that a check that dies (exit 1
# from die_env) fails the check instead of ending the smoke run.
smoke_lab() {
  local flags=(--engine "$ENGINE" --profile "$PROFILE" --mongos "$MONGOS_COUNT")
  [[ $DRY_RUN == 1 ]] && flags+=(--dry-run)
  [[ $MONITORING == 1 ]] || flags+=(--no-monitoring)
  "$LAB_ROOT/run.sh" "$@" "${flags[@]}"
}

# smoke_cluster ENGINE: the cluster's own checks, from status.js's summary line and smoke.js.
smoke_cluster() {
  local engine=$1 want status rc=0
  want=$(engine_field "$engine" server_engine)
  if [[ $DRY_RUN == 1 ]]; then
    smoke_check "$engine: status (dry run)" smoke_lab status
    smoke_check "$engine: write and read a document through mongos (dry run)" \
      compose exec -T mongos mongosh --nodb --quiet --norc /lab/init/smoke.js
    return 0
  fi
  status=$(smoke_lab status 2>&1) || rc=$?
  smoke_check "$engine: status reports healthy members, primaries and the shard" test "$rc" -eq 0
  printf '%s\n' "$status" | sed 's/^/    /'
  smoke_check "$engine: shard shard01 registered with the config servers" \
    grep -qE '^summary .* shards=([^ ]*,)?shard01(,| |$)' <<<"$status"
  smoke_check "$engine: shard members report storage engine $want" \
    grep -qE "^summary engine=$want( |$)" <<<"$status"
  smoke_check "$engine: write and read a document through mongos (w:majority)" \
    compose exec -T mongos mongosh --nodb --quiet --norc /lab/init/smoke.js
}

verb_smoke() {
  local faults=0 arg engine hook
  for arg in "$@"; do
    case $arg in
      --faults) faults=1 ;;
      *) die_usage "smoke does not take '$arg' (only --faults)" ;;
    esac
  done
  while IFS= read -r engine; do
    ENGINE=$engine
    echo "# engine $engine (profile $PROFILE, $MONGOS_COUNT mongos)"
    smoke_check "$engine: up" smoke_lab up
    smoke_cluster "$engine"
    for hook in smoke_experiments smoke_monitoring; do
      declare -F "$hook" >/dev/null && smoke_check "$engine: $hook" "$hook" "$engine"
    done
    if ((faults)) && declare -F smoke_faults >/dev/null; then
      smoke_check "$engine: smoke_faults" smoke_faults "$engine"
    fi
    if ((SMOKE_FAILED)) && [[ $DRY_RUN != 1 ]]; then
      echo "# $engine: last lines of the init log before destroying:"
      compose_probe logs --no-color --tail 30 init 2>&1 | sed 's/^/#   /' || true
    fi
    smoke_check "$engine: destroy" smoke_lab destroy --yes
  done < <(engine_names)
  echo "1..$SMOKE_N"
  ((SMOKE_FAILED == 0)) || die_env "smoke: some checks failed (see 'not ok' lines above)"
  echo "smoke: all $SMOKE_N checks passed"
}
