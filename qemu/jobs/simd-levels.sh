#!/bin/sh
# In the guest: test-writeback and test-crc on each forced SIMD level,
# the module's FPU figures after each; then simd= values that must fail.
# Usage (in the guest): qemu/jobs/simd-levels.sh KO, where KO is the module
# run-guest.sh loaded with --params simd=sse2: /host/atomkms.ko, or
# /host/build/debug-kmod/atomkms.ko under --kernel debug.
ko=$1
rc=0
mount -t debugfs none /sys/kernel/debug 2>/dev/null
run() {
	for t in test-writeback test-crc; do
		echo "=== $1 $t"
		timeout 300 /host/build/bin/$t || { echo "FAIL $1 $t"; rc=1; }
	done
	for f in /sys/kernel/debug/dri/*/atomkms_simd; do
		echo "== $1 $f"
		cat "$f"
	done
}
run sse2
rmmod atomkms || rc=1
insmod "$ko" simd=avx2 || { echo "FAIL insmod simd=avx2"; rc=1; }
sleep 2
run avx2
rmmod atomkms || rc=1
for bad in bogus SSE2; do
	if insmod "$ko" simd=$bad 2> /tmp/err; then
		echo "FAIL simd=$bad loaded"; rc=1; rmmod atomkms
	else
		echo "simd=$bad refused: $(cat /tmp/err)"
	fi
done
insmod "$ko" || rc=1
sleep 2
dmesg | grep "atomkms: .*simd\|line loops"
exit $rc
