#!/usr/bin/env bash
# install-tools hook: what the Docker suite (test/docker.sh) runs on: Debian's docker.io (dockerd
# 20.10, containerd, runc: the engine Debian 12 ships, the oldest the lab supports) and
# busybox-static (the shell and tools of the images the suite builds, test/docker/images.sh).
# The suite starts its own dockerd; the package's own service is not used (and on a machine
# without systemd it is not started).
set -euo pipefail
missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
[[ -x /bin/busybox ]] || missing+=(busybox-static)
((${#missing[@]})) || exit 0
echo "80-docker: apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
