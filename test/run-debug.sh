#!/bin/sh
# The debug stage: atomkms under the debug kernel (qemu/build-debug-kernel.sh:
# lockdep, KASAN, UBSAN, kmemleak, DEBUG_OBJECTS, fault injection, KUnit),
# where any report fails the guest run (qemu/run-guest.sh).
#
# Usage: test/run-debug.sh short   make check's debug stage: one guest boot
#                                  with our guest tests, the KUnit suites, a
#                                  short fuzzer run, one pass of fault
#                                  injection and a short lifecycle run; a
#                                  second one (the clients image) with 3
#                                  lifecycle cycles under weston
#        test/run-debug.sh full    make check-debug: the unit tests under
#                                  ASan and UBSan, the same guest parts at
#                                  full length (fuzzer 100,000 operations,
#                                  lifecycle 100 cycles, 10 under weston),
#                                  the SIMD levels, the guest tests at 3
#                                  CRTCs, and
#                                  test/igt/debug.list
# Prints each part's "NAME: N passed, N failed" line; guest logs stay in
# build/guest/debug-*.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mode=${1:-short}
log=build/check
mkdir -p "$log"

# guest NAME TIMEOUT PARAMS [OPTION...] -- COMMAND...: one debug-kernel
# guest (OPTIONs: qemu/run-guest.sh's), its output's count lines, and one
# failure more when the run itself failed (a hang, an oops, a dirty kernel
# log: exit 124-126) or printed no count line.
guest() {
	name=$1 timeout=$2 params=$3 opts=
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	flock /tmp/atomkms-guest.lock qemu/run-guest.sh --kernel debug $opts \
		--name "$name" --params "$params" --timeout "$timeout" -- "$@"
	rc=$?
	grep -E '^(=== |not ok|kmemleak after)|: FAIL|: [0-9]+ passed, [0-9]+ failed' \
		"build/guest/$name/job.log" 2>/dev/null
	echo "$name: guest wall time $(cat "build/guest/$name/wall" 2>/dev/null) s"
	if [ $rc -gt 1 ] || ! grep -qE ': [0-9]+ passed' "build/guest/$name/job.log" 2>/dev/null; then
		[ ! -s "build/guest/$name/kernel-bad.txt" ] || head -n 20 "build/guest/$name/kernel-bad.txt"
		echo "$name: the guest run failed (exit $rc): 0 passed, 1 failed"
	fi
}

run() {
case $mode in
short)
	guest debug 1500 "" -- sh qemu/jobs/debug-stage.sh /host/build/guest/debug short
	guest debug-weston 900 "" --image clients --no-module -- \
		sh qemu/jobs/lifecycle-weston.sh /host/build/guest/debug-weston 3 3
	;;
full)
	echo "== unit tests under ASan and UBSan"
	make -s B=build/sanitize CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
		unit 2>&1 | tail -n 30
	# One guest a part: a hang costs only its part, and the guest lock is
	# free between parts. Timeouts: about twice each part's measured time.
	for p in fuzz:4200 lifecycle:3000 fault-inject:6600 guest-tests:900 kunit:600 simd:600; do
		guest "debug-full-${p%%:*}" "${p#*:}" "" -- sh qemu/jobs/debug-stage.sh \
			"/host/build/guest/debug-full-${p%%:*}" full "${p%%:*}"
	done
	guest debug-full-weston 3000 "" --image clients --no-module -- \
		sh qemu/jobs/lifecycle-weston.sh /host/build/guest/debug-full-weston 10
	guest debug-3crtc 1800 "num_crtcs=3 refresh=60,75,120 crossbar=1" -- \
		sh qemu/jobs/debug-stage.sh /host/build/guest/debug-3crtc full guest-tests
	echo "== igt (test/igt/debug.list, debug kernel)"
	GUEST_KERNEL=debug IGT_GUEST_TIMEOUT=5400 test/run-igt.sh test/igt/debug.list igt-debug ""
	;;
esac
}

case $mode in
short|full) ;;
*) echo "run-debug: mode must be short or full, not $mode" >&2; exit 2 ;;
esac
run 2>&1 | tee "$log/debug-$mode.log"
# make check-debug's closing line: the sum of every count line above
# (make check sums the short mode's lines with its own).
sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$log/debug-$mode.log" |
	awk -v m="$mode" '{ p += $1; f += $2 }
		END { if (m == "full") printf "check-debug: %d passed, %d failed\n", p, f; exit f > 0 }'
