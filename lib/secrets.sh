# shellcheck shell=bash
# Per-engine secrets in .secrets/<engine>/ (git-ignored), generated on the first `up`:
#   keyfile                 internal authentication between members (and init's __system login)
#   root-password           user root (root role), created by the init service
#   exporter-password       user exporter (clusterMonitor + read on local), for the exporters
#   grafana-admin-password  Grafana's admin user
# Folder mode 700: it is what keeps other host users out. Files 0644: a bind-mounted file keeps
# its host owner and mode, and the containers read it as other uids (999, 1001, Grafana's 472).
# Values are never printed, passed on a command line, put in an environment value or in
# `docker compose config` output: containers read the files, mounted read-only.

SECRET_FILES=(keyfile root-password exporter-password grafana-admin-password)

# secret_keyfile: 756 random bytes as base64 = 1008 key characters, the size MongoDB's docs use
# (`openssl rand -base64 756`); with line breaks every 76 characters the file stays under
# mongod's 1024-byte limit. Only [A-Za-z0-9+/] and whitespace, the keyfile alphabet.
secret_keyfile() { head -c 756 /dev/urandom | base64; }

# secret_password: 32 characters from [A-Za-z0-9] (about 190 bits), safe in a URI unescaped.
secret_password() {
  local p=""
  while ((${#p} < 32)); do
    p+=$(head -c 64 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
  done
  printf '%s\n' "${p:0:32}"
}

# secrets_ensure: create the engine's secrets folder and any missing file; never overwrite one
# (the users in the volumes were made with these passwords). Under --dry-run it only says what it
# would generate.
secrets_ensure() {
  local dir f missing=()
  dir=$(stack_secrets_dir)
  for f in "${SECRET_FILES[@]}"; do [[ -s $dir/$f ]] || missing+=("$f"); done
  if ((${#missing[@]} == 0)); then
    [[ $DRY_RUN == 1 ]] || chmod 700 "$dir"
    return 0
  fi
  if [[ $DRY_RUN == 1 ]]; then
    info "would generate in ${dir#"$LAB_ROOT"/}/ (folder 700, files 0644): ${missing[*]}"
    return 0
  fi
  mkdir -p "$dir" || die_env "cannot create $dir"
  chmod 700 "$dir"
  for f in "${missing[@]}"; do
    # Written to a temporary name and renamed, so an interrupted run never leaves a short secret.
    if [[ $f == keyfile ]]; then secret_keyfile >"$dir/.$f.tmp"; else secret_password >"$dir/.$f.tmp"; fi
    chmod 0644 "$dir/.$f.tmp"
    mv -f "$dir/.$f.tmp" "$dir/$f"
  done
  info "generated ${missing[*]} in ${dir#"$LAB_ROOT"/}/ (kept across down/destroy; delete the folder to rotate)"
}
