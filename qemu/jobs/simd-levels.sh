#!/bin/sh
# In the guest: test-writeback and test-crc on each forced SIMD level
# (the line loops and the CRC both on it, as debugfs must say), the
# module's FPU figures after each; then simd= values that must fail.
# Usage (in the guest): qemu/jobs/simd-levels.sh [KO], where KO is the
# module (default /host/build/debug-kmod/atomkms.ko, the debug kernel's;
# /host/atomkms.ko for Debian's). It reloads the module itself, so it
# runs as a part of the debug stage (qemu/jobs/debug-stage.sh) or alone.
ko=${1:-/host/build/debug-kmod/atomkms.ko}
rc=0
passed=0 failed=0
# count OK|FAIL: one result of this script's closing count line.
count() {
	if [ "$1" = OK ]; then passed=$((passed + 1)); else failed=$((failed + 1)); rc=1; fi
}
mount -t debugfs none /sys/kernel/debug 2>/dev/null
run() {
	for t in test-writeback test-crc; do
		echo "=== $1 $t"
		if timeout 300 /host/build/bin/$t; then count OK; else echo "FAIL $1 $t"; count FAIL; fi
	done
	for f in /sys/kernel/debug/dri/*/atomkms_simd; do
		echo "== $1 $f"
		cat "$f"
		# simd= forces the CRC's level with the line loops'.
		if grep -qx "line loops: $1 (simd= parameter)" "$f" &&
			grep -qx "crc: $1 (simd= parameter)" "$f"; then
			count OK
		else
			echo "FAIL $1: $f does not show $1 for both"; count FAIL
		fi
	done
}
# The level this script forces first.
rmmod atomkms 2>/dev/null
if insmod "$ko" simd=sse2; then count OK; else echo "FAIL insmod simd=sse2"; count FAIL; fi
sleep 2
run sse2
rmmod atomkms || count FAIL
if insmod "$ko" simd=avx2; then count OK; else echo "FAIL insmod simd=avx2"; count FAIL; fi
sleep 2
run avx2
rmmod atomkms || count FAIL
for bad in bogus SSE2; do
	if insmod "$ko" simd=$bad 2> /tmp/err; then
		echo "FAIL simd=$bad loaded"; count FAIL; rmmod atomkms
	else
		echo "simd=$bad refused: $(cat /tmp/err)"; count OK
	fi
done
insmod "$ko" || count FAIL
sleep 2
dmesg | grep "atomkms: .*simd\|line loops"
echo "simd-levels: $passed passed, $failed failed"
exit $rc
