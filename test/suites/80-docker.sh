# shellcheck shell=bash
# The main job on a real Docker engine (test/docker.sh): its own dockerd, images built here, the
# lab's Compose path end to end with stand-ins for the mongod images. Needs root (dockerd);
# test/install.d/80-docker.sh installs Debian's docker.io and busybox-static.
run_suite docker bash "$LAB_ROOT/test/docker.sh"
