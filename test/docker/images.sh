# shellcheck shell=bash
# The images the Docker suite's stacks run, built here from what test/install-tools.sh fetched:
# no registry is reachable from this engine, so nothing is pulled. Each image is tagged with the
# name the lab's compose files use, inside the suite's own daemon only (its own data root), and
# labelled lab.suite.stands-in with what it really holds, so no one takes it for the original.
#   lab-suite/base:1               busybox (sh, sed, wget) + coreutils' install and du + bash + Node.js
#                                  and npm (this host's) + the libraries they load
#   mongo:8.0                      the stand-in mongod/mongos (test/docker/standin) on FerretDB
#                                  v1.24.2, with the real mongosh (npm) as `mongosh`
#   node:20-slim                   lab-suite/base: what images/loader/Dockerfile builds FROM
#   lab-mongodb-exporter:0.43.1    the lab's entrypoint (images/mongodb-exporter) + the real
#                                  percona/mongodb_exporter v0.43.1, both built from Go source
#   prom/prometheus:v3.5.0         Debian's prometheus (2.42) with busybox sh, sed and wget
#   prom/node-exporter:v1.9.1      Debian's prometheus-node-exporter (1.5)
# Left out, with the reason said by the suite: cAdvisor (needs a privileged container, which this
# engine refuses) and Grafana (its licence rules out building it here).
# Sourced by test/docker.sh; needs DOCKER_HOST set to the suite's daemon and LAB_ROOT.

SUITE_IMAGE_DIR=${SUITE_IMAGE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/lab-docker-images.XXXXXX")}
# The tags the stacks run, as the lab's compose files name them, each built below on
# lab-suite/base:1 (test/docker/apart.sh copies these and the base into the second daemon).
SUITE_IMAGE_TAGS=(mongo:8.0 node:20-slim lab-mongodb-exporter:0.43.1 prom/prometheus:v3.5.0 prom/node-exporter:v1.9.1)

# rootfs_add DIR FILE...: FILE (and the shared libraries ldd names for it) copied into DIR at the
# same path, symlinks resolved.
rootfs_add() {
  local dir=$1 f lib
  shift
  for f in "$@"; do
    cp -L --parents "$f" "$dir"
    while read -r lib; do
      [[ -n $lib && -e $lib ]] && cp -L --parents -n "$lib" "$dir"
    done < <(ldd "$f" 2>/dev/null | awk '/=> \//{ print $3 } /^[[:space:]]*\/lib/{ print $1 }')
  done
}

# image_current TAG HASH: the daemon has TAG built from inputs whose hash is HASH.
image_current() {
  [[ $(docker image inspect -f '{{index .Config.Labels "lab.suite.hash"}}' "$1" 2>/dev/null) == "$2" ]]
}

# inputs_hash FILE...: one hash of the files' contents and names (a changed input rebuilds), the
# same wherever the checkout is (CI clones it into a new folder each time).
inputs_hash() {
  local f
  for f in "$@"; do
    if [[ -d $f ]]; then (cd "$f" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum); else echo "$(sha256sum <"$f" | cut -d' ' -f1) ${f##*/}"; fi
  done | sha256sum | cut -c1-16
}

# build_base: busybox + node, imported as a root filesystem (there is no base image to pull).
build_base() {
  local hash dir
  hash=$(inputs_hash /bin/busybox "$(command -v node)" "$(readlink -f "$(command -v npm)")" "$LAB_ROOT/test/docker/images.sh")
  image_current lab-suite/base:1 "$hash" && return 0
  dir=$SUITE_IMAGE_DIR/base
  rm -rf "$dir" && mkdir -p "$dir"/{bin,usr/local/bin,etc,tmp,home/node} && chmod 1777 "$dir/tmp"
  cp /bin/busybox "$dir/bin/busybox"
  local a
  for a in sh ash cat cp echo env grep hostname id kill ln ls mkdir mv nc ps rm sed sleep tar test true false wget; do ln -s busybox "$dir/bin/$a"; done
  # scripts' #!/usr/bin/env (npm's among them)
  mkdir -p "$dir/usr/bin" && ln -s /bin/busybox "$dir/usr/bin/env"
  # coreutils' install and du, which busybox lacks (or lacks -b): the lab's keyfile service runs
  # `install -m 400 -o UID`, and ./run.sh measures a member's data directory with `du -sb`. bash,
  # which every mongo image has: the members' healthcheck is compose/init/ping.sh (/dev/tcp).
  rootfs_add "$dir" "$(command -v node)" /usr/bin/install /usr/bin/du /bin/bash
  [[ -e $dir/usr/local/bin/node ]] || ln -s "$(command -v node)" "$dir/usr/local/bin/node"
  # npm, as node:20-slim has it: the loader image's registry stage runs npm ci
  local npm_dir
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  mkdir -p "$dir/usr/local/lib/node_modules"
  cp -r "$npm_dir" "$dir/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000:node:/home/node:/bin/sh\nmongodb:x:999:999:mongodb:/data/db:/bin/sh\n' >"$dir/etc/passwd"
  printf 'root:x:0:\nnode:x:1000:\nmongodb:x:999:\n' >"$dir/etc/group"
  echo "hosts: files dns" >"$dir/etc/nsswitch.conf"
  chown 1000:1000 "$dir/home/node"
  tar -C "$dir" -c . | docker import \
    -c 'ENV PATH=/usr/local/bin:/usr/bin:/bin' -c "LABEL lab.suite.hash=$hash" \
    -c 'LABEL lab.suite.stands-in="busybox and this host'"'"'s Node.js, imported as a root filesystem"' - lab-suite/base:1 >/dev/null
  docker tag lab-suite/base:1 node:20-slim
}

# on_base HASH: HASH and the base image's id, an image's whole hash: a new base image rebuilds every
# image on it.
on_base() { echo "$1-$(docker image inspect -f '{{.Id}}' lab-suite/base:1 | cut -c8-19)"; }

# build_from TAG HASH DOCKERFILE_TEXT CONTEXT: docker build of a small Dockerfile over a context dir
# (HASH from on_base; the caller found the image not current before it made the context).
build_from() {
  local tag=$1 hash=$2 text=$3 ctx=$4
  printf '%s\nLABEL lab.suite.hash=%s\n' "$text" "$hash" >"$ctx/Dockerfile"
  DOCKER_BUILDKIT=0 docker build -q -t "$tag" "$ctx" >/dev/null
}

build_standin() {
  local hash ctx
  hash=$(inputs_hash "$LAB_ROOT/test/docker/standin" "$LAB_ROOT/loader/test/support/wire.js" "$LAB_ROOT/.tools/bin/ferretdb" \
    "$LAB_ROOT/.tools/mongosh/node_modules/mongosh/package.json" "$LAB_ROOT/loader/package-lock.json")
  hash=$(on_base "$hash")
  # current: no context to make (copying mongosh's 15,000 files and the loader's modules took 0.8 CPU s)
  image_current mongo:8.0 "$hash" && return 0
  ctx=$SUITE_IMAGE_DIR/standin
  rm -rf "$ctx" && mkdir -p "$ctx/lab/test/docker" "$ctx/lab/loader/test/support" "$ctx/lab/loader/node_modules"
  cp -r "$LAB_ROOT/test/docker/standin" "$ctx/lab/test/docker/"
  cp "$LAB_ROOT/loader/test/support/wire.js" "$ctx/lab/loader/test/support/"
  cp -r "$LAB_ROOT/loader/node_modules/." "$ctx/lab/loader/node_modules/"
  cp "$LAB_ROOT/.tools/bin/ferretdb" "$ctx/ferretdb"
  cp -rL "$LAB_ROOT/.tools/mongosh" "$ctx/mongosh"
  # mongod and mongos are the stand-in; mongosh is the real shell from npm.
  printf '#!/bin/sh\nexec node /opt/lab/test/docker/standin/standin.js mongod "$@"\n' >"$ctx/mongod"
  printf '#!/bin/sh\nexec node /opt/lab/test/docker/standin/standin.js mongos "$@"\n' >"$ctx/mongos"
  printf '#!/bin/sh\nexec node /opt/mongosh/node_modules/mongosh/bin/mongosh.js "$@"\n' >"$ctx/mongosh-bin"
  chmod 755 "$ctx/mongod" "$ctx/mongos" "$ctx/mongosh-bin"
  # mongosh's global configuration: no telemetry, no update check (the suite's containers talk to
  # nothing outside the stack)
  printf 'mongosh:\n  forceDisableTelemetry: true\n  updateURL: ""\n' >"$ctx/mongosh.conf"
  build_from mongo:8.0 "$hash" "FROM lab-suite/base:1
COPY lab /opt/lab
COPY mongosh /opt/mongosh
COPY ferretdb /usr/local/bin/ferretdb
COPY mongod mongos /usr/local/bin/
COPY mongosh-bin /usr/local/bin/mongosh
COPY mongosh.conf /etc/mongosh.conf
RUN mkdir -p /data/db /data/configdb && chmod 1777 /data/db /data/configdb
LABEL lab.suite.stands-in=\"the lab's stand-in mongod and mongos (test/docker/standin) on FerretDB v1.24.2, with the real mongosh from npm; not MongoDB\"" "$ctx"
}

build_exporter() {
  local hash ctx
  hash=$(on_base "$(inputs_hash "$LAB_ROOT/.tools/bin/lab-exporter" "$LAB_ROOT/.tools/bin/mongodb_exporter")")
  image_current lab-mongodb-exporter:0.43.1 "$hash" && return 0
  ctx=$SUITE_IMAGE_DIR/exporter
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp "$LAB_ROOT/.tools/bin/lab-exporter" "$LAB_ROOT/.tools/bin/mongodb_exporter" "$ctx/"
  build_from lab-mongodb-exporter:0.43.1 "$hash" "FROM lab-suite/base:1
COPY lab-exporter /lab-exporter
COPY mongodb_exporter /mongodb_exporter
EXPOSE 9216
ENTRYPOINT [\"/lab-exporter\"]
LABEL lab.suite.stands-in=\"the lab's exporter entrypoint and percona/mongodb_exporter v0.43.1, built from Go source\"" "$ctx"
}

# build_debian_binary TAG BINARY IMAGE_PATH LABEL: a Debian package's binary in the base image, at
# the path the original image has it, which is also its entrypoint (compose gives arguments only).
build_debian_binary() {
  local tag=$1 bin=$2 at=$3 label=$4 hash ctx
  hash=$(on_base "$(inputs_hash "$bin")")
  image_current "$tag" "$hash" && return 0
  ctx=$SUITE_IMAGE_DIR/$(echo "$tag" | tr '/:' '__')
  rm -rf "$ctx" && mkdir -p "$ctx/root"
  rootfs_add "$ctx/root" "$bin"
  mkdir -p "$ctx/root$(dirname "$at")"
  [[ $bin == "$at" ]] || cp "$bin" "$ctx/root$at"
  build_from "$tag" "$hash" "FROM lab-suite/base:1
COPY root /
ENTRYPOINT [\"$at\"]
LABEL lab.suite.stands-in=\"$label\"" "$ctx"
}

# suite_images: every image, built or found current. Prints what each tag holds.
suite_images() {
  build_base
  build_standin
  build_exporter
  build_debian_binary prom/prometheus:v3.5.0 /usr/bin/prometheus /bin/prometheus "Debian's prometheus $(prometheus --version 2>&1 | awk 'NR==1{ print $3 }')"
  build_debian_binary prom/node-exporter:v1.9.1 /usr/bin/prometheus-node-exporter /bin/node_exporter "Debian's prometheus-node-exporter $(prometheus-node-exporter --version 2>&1 | awk 'NR==1{ print $3 }')"
  local t
  for t in "${SUITE_IMAGE_TAGS[@]}"; do
    printf '# %-30s %s\n' "$t" "$(docker image inspect -f '{{index .Config.Labels "lab.suite.stands-in"}}' "$t" 2>/dev/null)"
  done
}
