#!/usr/bin/env bats
# An engine's storage is one declaration: compose/engines/<engine>.yml's
# LAB_STORAGE_ARGS, which Compose runs as is and k8s/manifests.sh k8s_storage renders into the
# PerconaServerMongoDB's storage fields. Real components on both sides: the real Compose v2
# renders the flags, the operator's own code (psmdb-check: CheckNSetDefaults + StatefulSpec of
# operator v1.23.0) says which mongod flags the custom resource starts; they must say the same.

load lib/bats-tracing # trace_test_lines_only

setup() {
  trace_test_lines_only
  REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
  W=$BATS_TEST_TMPDIR/lab
  mkdir -p "$W"
  cp -r "$REPO/run.sh" "$REPO/lib" "$REPO/compose" "$REPO/k8s" "$REPO/dashboards" "$REPO/experiments" "$W/"
  for t in docker-compose psmdb-check; do
    [ -x "$REPO/.tools/bin/$t" ] || { echo "missing .tools/bin/$t: run 'bash test/install-tools.sh'" >&2; return 1; }
  done
  command -v jq >/dev/null || { echo "jq is missing: run 'bash test/install-tools.sh'" >&2; return 1; }
}

# norm: "--flag value" / "--flag=value" words -> sorted "--flag=value" lines, numbers as numbers
# (0.50 = 0.5). --wiredTigerIndexPrefixCompression=true is mongod's default (the operator passes
# it; the lab's overlays leave it out): mongodb/mongo
# src/mongo/db/storage/wiredtiger/wiredtiger_global_options.idl (commit 0129130f),
# storage.wiredTiger.indexConfig.prefixCompression, short_name wiredTigerIndexPrefixCompression,
# default: true. The odd flag below, --zstdDefaultCompressionLevel, is that file's
# storage.wiredTiger.engineConfig.zstdCompressionLevel: no field of the operator's CR.
norm() {
  awk '{ for (i = 1; i <= NF; i++) {
           w = $i
           if (w !~ /=/ && i < NF && $(i + 1) !~ /^--/) { i++; w = w "=" $i }
           split(w, kv, "="); v = kv[2]
           if (v ~ /^[0-9.]+$/) v = v + 0
           if (kv[1] == "--wiredTigerIndexPrefixCompression" && v == "true") continue
           print kv[1] (w ~ /=/ ? "=" v : "") } }' | sort
}

# compose_flags ENGINE PROFILE SERVICE: LAB_STORAGE_ARGS as the real Compose renders it.
compose_flags() {
  (
    cd "$W" || exit 1
    # shellcheck source=/dev/null
    source "$W/run.sh"
    # shellcheck disable=SC2030,SC2034  # the subshell's own globals, as run.sh's flags would set them (stack_env reads them)
    ENGINE=$1 PROFILE=$2 MONITORING=0
    mapfile -t envs < <(stack_env)
    env "${envs[@]}" "$REPO/.tools/bin/docker-compose" --project-directory "$W" -p "lab-$1" \
      -f compose/cluster.yml -f "compose/engines/$1.yml" config --format json |
      jq -r --arg s "$3" '.services[$s].environment.LAB_STORAGE_ARGS'
  )
}

# operator_flags ENGINE PROFILE SET: the storage flags of the mongod the operator would start for
# replica set SET (rs0 | cfg) of the engine's custom resource (rendered and checked once per
# engine and profile).
STORAGE_RE='^--(storageEngine|wiredTiger|inMemory|directoryperdb|syncdelay)'
operator_flags() {
  local json=$BATS_TEST_TMPDIR/op-$1-$2.json
  if [[ ! -s $json ]]; then
    "$W/run.sh" k8s manifests --engine "$1" --profile "$2" --registry reg.example/lab >"$BATS_TEST_TMPDIR/cr-$1-$2.yaml"
    "$REPO/.tools/bin/psmdb-check" "$BATS_TEST_TMPDIR/cr-$1-$2.yaml" >"$json" 2>/dev/null || true
  fi
  jq -r --arg set "$3" --arg re "$STORAGE_RE" 'select(.accepted) | .replsets[] | select(.name == $set) |
      .containers[] | select(.name == "mongod") | .args[] | select(test($re))' "$json" | tr '\n' ' '
}

# same ENGINE: for every profile, shard and config members: Compose's flags = the operator's.
same() {
  local p
  while IFS= read -r p; do
    diff <(compose_flags "$1" "$p" shard01-a | norm) <(operator_flags "$1" "$p" rs0 | norm) ||
      { echo "$1 on $p: the shard members' storage flags differ (<: Compose, >: operator)" >&2; return 1; }
    diff <(compose_flags "$1" "$p" cfg1 | norm) <(operator_flags "$1" "$p" cfg | norm) ||
      { echo "$1 on $p: the config servers' storage flags differ (<: Compose, >: operator)" >&2; return 1; }
  done < <(grep -v '^#' "$W/compose/profiles.tsv" | tail -n +2 | cut -f1)
}

# row_like ENGINE NEW: a row for NEW in the copy's engines table, the same as ENGINE's (every column
# the table has today).
row_like() {
  local row
  row=$(awk -F'\t' -v OFS='\t' -v e="$1" -v n="$2" '$1 == e { $1 = n; print }' "$W/compose/engines.tsv")
  printf '%s\n' "$row" >>"$W/compose/engines.tsv"
  grep -q "^$2"$'\t' "$W/compose/engines.tsv"
}

# run.sh is shellchecked on its own; followed from here it took 9 of the file's 11 CPU s
# shellcheck source=/dev/null
refusal() { (source "$W/run.sh"; k8s_load 2>/dev/null || true; k8s_engine_refusal "$1"); }

@test "every engine the operator runs: its Compose storage flags and its custom resource say the same thing; the others are refused in one line" {
  local e compared=0 refused=0 why
  for e in $(grep -v '^#' "$W/compose/engines.tsv" | tail -n +2 | cut -f1); do
    why=$(refusal "$e")
    if [[ -n $why ]]; then
      [ "$(wc -l <<<"$why")" -eq 1 ]
      [[ $why == *"engine '$e'"* ]]
      refused=$((refused + 1))
      continue
    fi
    same "$e"
    compared=$((compared + 1))
  done
  [ "$compared" -ge 2 ] # inmemory and percona-wt today
  [ "$refused" -ge 1 ]
}

@test "a new engine with one more storage flag the CR can express (zstd block compression): the CR carries it, both sides agree" {
  row_like percona-wt percona-zstd
  # shellcheck disable=SC2016  # the overlay's own ${...} text, matched literally
  sed 's/--storageEngine wiredTiger --wiredTigerCacheSizeGB ${LAB_DATA_CACHE_GB:?start the lab with .\/run.sh}/& --wiredTigerCollectionBlockCompressor zstd/' \
    "$W/compose/engines/percona-wt.yml" >"$W/compose/engines/percona-zstd.yml"
  grep -q 'LAB_DATA_CACHE_GB.* --wiredTigerCollectionBlockCompressor zstd$' "$W/compose/engines/percona-zstd.yml"
  [ -z "$(refusal percona-zstd)" ]
  [[ $(compose_flags percona-zstd laptop shard01-a) == *"--wiredTigerCollectionBlockCompressor zstd"* ]]
  [[ $(operator_flags percona-zstd laptop rs0) == *"--wiredTigerCollectionBlockCompressor=zstd"* ]]
  [[ $(operator_flags percona-zstd laptop cfg) != *"BlockCompressor"* ]]
  same percona-zstd
}

@test "a storage flag the operator cannot express: k8s up refuses in one line naming it, exit 2, nothing applied" {
  row_like percona-wt percona-odd
  # shellcheck disable=SC2016  # the overlay's own ${...} text, matched literally
  sed 's/--storageEngine wiredTiger --wiredTigerCacheSizeGB ${LAB_DATA_CACHE_GB:?start the lab with .\/run.sh}/& --zstdDefaultCompressionLevel 10/' \
    "$W/compose/engines/percona-wt.yml" >"$W/compose/engines/percona-odd.yml"
  run "$W/run.sh" k8s up --engine percona-odd --registry reg.example/lab --dry-run
  [ "$status" -eq 2 ]
  # one message (wrapped at 120 columns, its continuation indented), then run.sh's usual pointer
  local n=${#lines[@]} i
  [[ ${lines[n - 1]} == "Run './run.sh help' for usage." ]]
  for ((i = 1; i < n - 1; i++)); do [[ ${lines[i]} == "  "* ]]; done
  local message=${lines[0]}
  for ((i = 1; i < n - 1; i++)); do message+=" ${lines[i]#  }"; done
  [[ $message == "error: engine 'percona-odd': storage flag --zstdDefaultCompressionLevel (compose/engines/percona-odd.yml) cannot be expressed by the Percona Operator"* ]]
  [[ $output != *"kubectl"* ]]
  # and the renderer never drops it silently either
  run bash -c "cd '$W' && source run.sh && k8s_load && k8s_storage '' percona-odd data 0.5 1536m"
  [ "$status" -eq 1 ]
  [[ $output == *"--zstdDefaultCompressionLevel"* && $output != *"storage:"* ]]
}
