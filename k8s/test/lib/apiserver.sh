# shellcheck shell=bash
# Shared by k8s/test/validate.sh (in the suite) and k8s/test/e2e-offline.sh (by hand): TAP output
# and a real etcd + kube-apiserver on loopback, so both start it the same way.
# The caller sets TOOLS (the lab's .tools) and keeps PIDS (an array); stop_pids ends them.

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
  n=$((n + 1)) failed=$((failed + 1))
  echo "not ok $n - $1"
  [[ -z ${2:-} ]] || printf '%s\n' "$2" | head -40 | while IFS= read -r l; do echo "# $l"; done
}
# check COND_STATUS OK_TEXT NOT_OK_TEXT [DETAIL]: ok when the status is 0.
check() { if (($1 == 0)); then ok "$2"; else not_ok "$3" "${4:-}"; fi; }
finish() { echo "1..$n"; exit $((failed > 0)); }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# stop_pids: last started first (kube-apiserver shuts down gracefully only while etcd is there);
# anything still running after 10 s is killed.
stop_pids() {
  local p
  for ((p = ${#PIDS[@]} - 1; p >= 0; p--)); do
    kill "${PIDS[p]}" 2>/dev/null
    timeout 10 tail --pid="${PIDS[p]}" -f /dev/null 2>/dev/null || kill -9 "${PIDS[p]}" 2>/dev/null
  done
  return 0
}

# start_apiserver DIR ISSUER: etcd and kube-apiserver with a token for system:masters, their
# files and logs in DIR; writes DIR/kubeconfig and sets api_port. Returns once both are started,
# not ready: wait for `kubectl get --raw /readyz`.
start_apiserver() {
  local dir=$1 issuer=$2 etcd_port token
  mkdir -p "$dir/etcd" "$dir/certs"
  etcd_port=$(free_port)
  api_port=$(free_port)
  openssl genrsa -out "$dir/sa.key" 2048 2>/dev/null
  openssl rsa -in "$dir/sa.key" -pubout -out "$dir/sa.pub" 2>/dev/null
  token=$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
  echo "$token,$issuer,$issuer,system:masters" >"$dir/tokens.csv"
  etcd --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$(free_port)" >"$dir/etcd.log" 2>&1 &
  PIDS+=($!)
  disown # no "Killed" job notice when stop_pids has to kill it
  "$TOOLS/bin/kube-apiserver" --etcd-servers="http://127.0.0.1:$etcd_port" --bind-address=127.0.0.1 --secure-port="$api_port" \
    --advertise-address=127.0.0.1 --cert-dir="$dir/certs" --token-auth-file="$dir/tokens.csv" --authorization-mode=RBAC \
    --service-account-issuer="https://$issuer" --service-account-key-file="$dir/sa.pub" \
    --service-account-signing-key-file="$dir/sa.key" --service-cluster-ip-range=10.96.0.0/16 >"$dir/apiserver.log" 2>&1 &
  PIDS+=($!)
  disown
  cat >"$dir/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters: [{name: t, cluster: {server: "https://127.0.0.1:$api_port", insecure-skip-tls-verify: true}}]
users: [{name: t, user: {token: "$token"}}]
contexts: [{name: t, context: {cluster: t, user: t}}]
current-context: t
EOF
}
