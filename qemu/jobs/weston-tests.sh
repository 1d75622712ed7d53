#!/bin/sh
# Guest side of make check-weston (test/run-weston-tests.sh): weston's own
# DRM-backend tests, written for vkms, on atomkms in the clients image,
# run as weston's CI runs them on vkms (.gitlab-ci/virtme-scripts/
# run-weston-tests.sh): seatd, XDG_RUNTIME_DIR, and
# WESTON_TEST_SUITE_DRM_DEVICE naming the driver's card. Each test
# program starts its own weston (DRM backend, pixman renderer, the test
# desktop shell) on that card and prints TAP, a line a subtest.
#
# The build (qemu/build-weston-tests.sh) is staged in /host/build/
# weston-tests and has absolute paths under /w: link it there.
#
# Usage (in the guest): qemu/jobs/weston-tests.sh OUTDIR [TEST...]
# Prints each subtest's TAP line and "weston-tests: N passed, N failed
# (N of them skipped)": a skipped subtest counts as a failure.
set -u
out=$1
shift
tests=${*:-drm-smoke drm-writeback-screenshot}
passed=0 failed=0 skipped=0

ln -sfn /host/build/weston-tests /w
[ -x /w/build/tests/test-drm-smoke ] ||
	{ echo "weston-tests: no build in /host/build/weston-tests: 0 passed, 1 failed (0 of them skipped)"; exit 1; }
echo "# $(head -n 1 /w/stamp)"

# libweston's DRM backend finds the card through udev; libseat opens it.
. /host/qemu/jobs/seat.sh

card=$(basename /sys/devices/platform/atomkms*/drm/card* 2> /dev/null | head -n 1)
export WESTON_TEST_SUITE_DRM_DEVICE=${card:-card0}
export WESTON_TEST_OUTPUT_PATH=$out
echo "# WESTON_TEST_SUITE_DRM_DEVICE=$WESTON_TEST_SUITE_DRM_DEVICE, $(cat /sys/class/drm/"$WESTON_TEST_SUITE_DRM_DEVICE"-Virtual-1/modes | head -n 1) on Virtual-1"

# Missing shared libraries show here, before any test runs.
missing=$(ldd /w/build/tests/test-drm-smoke /w/build/tests/test-plugin.so \
	/w/build/libweston/backend-drm/drm-backend.so 2>&1 | grep 'not found' | sort -u)
[ -z "$missing" ] || echo "# missing libraries: $(echo "$missing" | tr -s ' \t\n' ' ')"

# drm debug, as weston's CI keeps it (the kernel log lands in dmesg.txt).
echo 0x1f > /sys/module/drm/parameters/debug

# The fixture writes its weston.ini into the current directory: not /host.
mkdir -p /tmp/weston-tests
cd /tmp/weston-tests
for t in $tests; do
	start=$(date +%s)
	# meson's timeout for these tests is 120 s; CI multiplies it by 4.
	timeout -k 5 480 "/w/build/tests/test-$t" > "$out/$t.tap" 2> "$out/$t.log"
	rc=$?
	secs=$(($(date +%s) - start))
	p=$(grep '^ok ' "$out/$t.tap" | grep -vc '# SKIP')
	f=$(grep -c '^not ok ' "$out/$t.tap")
	s=$(grep -c '# SKIP' "$out/$t.tap")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out/$t.tap" | head -n 1)
	sed 's/^/  /' "$out/$t.tap" | grep -E '^  (ok|not ok|1\.\.)'
	# A crash, a timeout or a short TAP stream is a failure of its own.
	if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ "$f" = 0 ]; then
		f=1
		echo "  # test-$t exited $rc"
	fi
	if [ -n "$plan" ] && [ $((p + f + s)) -lt "$plan" ]; then
		f=$((f + plan - p - f - s))
		echo "  # test-$t ran $((p + f + s)) of $plan subtests"
	fi
	[ -n "$plan" ] || { [ "$f" != 0 ] || f=1; echo "  # test-$t printed no TAP plan"; }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" = 0 ] && [ "$s" = 0 ]; then
		echo "ok - $t: $p subtests passed (${secs} s)"
	else
		echo "not ok - $t: $p passed, $f failed, $s skipped (exit $rc, ${secs} s; log: $t.log)"
		grep -E 'Assert|assert|fail|error|Error|SKIP|Skipping|skipping' "$out/$t.log" |
			head -n 15 | sed 's/^/  # /'
	fi
done

echo 0 > /sys/module/drm/parameters/debug
kill %1 2> /dev/null
# A skip is no pass: it counts as a failure, and is named as a skip.
echo "weston-tests: $passed passed, $((failed + skipped)) failed ($skipped of them skipped)"
[ "$failed" = 0 ] && [ "$skipped" = 0 ]
