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
# One guest at a time on this machine.
flock /tmp/atomkms-guest.lock \
	qemu/run-guest.sh --image clients --name $name \
	--params "pref_width=1024 pref_height=768" --timeout 900 -- \
	sh qemu/jobs/weston-tests.sh "/host/build/guest/$name" "$@"
rc=$?
log=build/guest/$name/job.log
grep -E '^(  )?(ok|not ok|#|1\.\.)|^weston-tests:' "$log" 2> /dev/null
echo "weston-tests: guest wall time $(cat build/guest/$name/wall 2> /dev/null) s"
if [ $rc -gt 1 ] || ! grep -q '^weston-tests: [0-9]* passed' "$log" 2> /dev/null; then
	# The guest failed before the summary: count it as one failure.
	echo "weston-tests: the guest run failed (exit $rc): 0 passed, 1 failed"
	exit 1
fi
exit $rc
