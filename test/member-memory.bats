#!/usr/bin/env bats
# lib/stack.sh stack_member_mem_mb: a shard member's memory in MB for every engine row of
# compose/engines.tsv and every profile of compose/profiles.tsv, against the rule it implements:
# the cache flag's GB are GiB (WiredTiger's and In-Memory's cacheSizeGB, MongoRocks' CacheSizeGB)
# and the profile's data_mem is in MiB (Docker's m), so 1 GB of cache is 1024 MB of the limit.
# A factor of 1000 for the engines whose flag takes fractions (every engine but rocksdb and
# mmapv1) once passed every test: each row is checked here.

load test_helper

setup() { setup_lab; }

@test "every engine and profile: cache = data_cache_gb x 1024 MB (whole GB up for a whole-GB flag, 0 without a flag), need = cache + beyond + 512" {
  # shellcheck source=/dev/null
  source "$LAB/run.sh" # (run.sh's run() shadows bats' run: the function is called directly)
  local engine flag beyond profile gb mem want_cache got need limit cache b own rows=0
  while IFS=$'\t' read -r engine flag beyond; do
    while IFS=$'\t' read -r profile gb mem; do
      case $flag in
        -) want_cache=0 ;;
        --rocksdbCacheSizeGB) want_cache=$(awk -v g="$gb" 'BEGIN { n = int(g); if (n < g) n++; if (n < 1) n = 1; print n * 1024 }') ;;
        *) want_cache=$(awk -v g="$gb" 'BEGIN { printf "%d", g * 1024 + 0.5 }') ;;
      esac
      got=$(stack_member_mem_mb "$engine" "$profile")
      read -r need limit cache b own <<<"$got"
      [[ $cache == "$want_cache" ]] || fail "$engine, $profile ($gb GB, flag $flag): cache $cache MB, want $want_cache"
      [[ $b == "$beyond" && $own == 512 && $need == $((want_cache + beyond + 512)) ]] || fail "$engine, $profile: got '$got'"
      [[ $limit == $(($(mem_bytes "$mem") >> 20)) ]] || fail "$engine, $profile: limit $limit for $mem"
      rows=$((rows + 1))
    done < <(awk -F'\t' '!/^#/ && n++ { print $1 "\t" $4 "\t" $2 }' "$LAB/compose/profiles.tsv")
  done < <(awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $1 "\t" $c["cache_flag"] "\t" $c["mem_beyond_cache_mb"] }' "$LAB/compose/engines.tsv")
  [[ $rows -ge 10 ]] || fail "only $rows engine x profile pairs checked"
  # the figures by hand for the default profile (0.5 GB of cache): 512 MB, never 500
  [[ $(stack_member_mem_mb wiredtiger laptop) == "1024 1536 512 0 512" ]] || fail "wiredtiger laptop: $(stack_member_mem_mb wiredtiger laptop)"
}

@test "a whole-GB cache flag: the same rounding (up, at least 1 GB) in what Compose gets and what up checks" {
  # profiles of this test's own: the table's data_cache_gb (0.5, 1) round the same with or without
  # either half of the rule
  printf 'wide\t4g\t2\t1.5\t512m\t1\t0.25\ttest: 1.5 GB of cache\t1\n' >>"$LAB/compose/profiles.tsv"
  printf 'thin\t2g\t2\t0\t512m\t1\t0.25\ttest: no cache given\t1\n' >>"$LAB/compose/profiles.tsv"
  lab up --engine rocksdb --profile wide --dry-run
  assert_success
  assert_output --partial " LAB_DATA_CACHE_GB_WHOLE=2 "
  lab up --engine rocksdb --profile thin --dry-run
  assert_success
  assert_output --partial " LAB_DATA_CACHE_GB_WHOLE=1 "
  # shellcheck source=/dev/null
  source "$LAB/run.sh"
  [[ $(stack_member_mem_mb rocksdb wide) == "$((2048 + $(engine_field rocksdb mem_beyond_cache_mb) + 512)) 4096 2048 "* ]] ||
    fail "rocksdb wide: $(stack_member_mem_mb rocksdb wide)"
  [[ $(stack_member_mem_mb rocksdb thin) == *" 2048 1024 "* ]] || fail "rocksdb thin: $(stack_member_mem_mb rocksdb thin)"
}
