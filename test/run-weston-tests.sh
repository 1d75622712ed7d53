#!/bin/sh
# make check-weston: weston's own DRM-backend tests (drm-smoke,
# drm-writeback-screenshot; written for vkms) on atomkms, in the clients
# image at 1024x768, vkms's default mode, which their reference
# screenshots have. qemu/build-weston-tests.sh builds them once in a
# trixie chroot (CACHE/weston-build) and stages them in build/weston-tests;
# the guest side is qemu/jobs/weston-tests.sh. Logs, TAP streams and
# screenshots stay in build/guest/weston-tests.
#
# Usage: test/run-weston-tests.sh [TEST...]
# Prints the subtests' TAP lines and "weston-tests: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cache=${CACHE:-/var/cache/atomkms}
name=weston-tests
qemu/build-weston-tests.sh "$cache" ||
	{ echo "weston-tests: the build failed: 0 passed, 1 failed"; exit 1; }
exec test/run-guest-stage.sh $name 900 qemu/jobs/weston-tests.sh "$@"
