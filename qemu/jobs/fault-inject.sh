#!/bin/sh
# Guest side of the fault-injection test (issue 16, item 5): under the
# debug kernel, build/bin/fault-inject fails each allocation of atomkms's
# paths once, in turn, with /proc/thread-self/fail-nth (probe by insmod
# and by sysfs bind, ADDFB2, blobs, dumb buffers and their mappings,
# atomic commits, writeback jobs, CRC capture), checking after each that
# the caller got an errno, the kernel log is clean and the driver works,
# then runs a smoke test and unloads the module (run-guest.sh's kmemleak
# scan then covers every failure path). Run with --no-module: the test
# loads atomkms itself.
#
# Usage (in the guest): qemu/jobs/fault-inject.sh OUTDIR [fault-inject options]
#   KO=path overrides the module (default: the debug kernel's).
# Output: one "ok"/"not ok" line per operation, with its sites and its
# result for each N, then "fault-inject: N passed, N failed". One line
# per N goes to OUTDIR/fault-inject.log.
set -u
out=$1
shift
ko=${KO:-/host/build/debug-kmod/atomkms.ko}
# Debian's kernel has DRM's helpers as modules; the debug kernel built in.
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
# The test unloads atomkms and loads it with its own parameters; a module
# that was loaded before is loaded again at the end, with the defaults.
was_loaded=0
grep -q '^atomkms ' /proc/modules && was_loaded=1
start=$(cut -d' ' -f1 /proc/uptime)
{ /host/build/bin/fault-inject --ko "$ko" --log "$out/fault-inject.log" "$@" 2>&1
  echo $? > /tmp/fault-inject.rc; } | tee "$out/fault-inject.out"
rc=$(cat /tmp/fault-inject.rc)
if [ $was_loaded = 1 ] && ! grep -q '^atomkms ' /proc/modules &&
	! insmod "$ko"; then
	echo "not ok - atomkms does not load again after the test" | tee -a "$out/fault-inject.out"
fi
passed=$(grep -c '^ok' "$out/fault-inject.out")
failed=$(grep -c '^not ok' "$out/fault-inject.out")
# Died before the end (a crash, a signal): one more failure.
if [ "$rc" -gt 1 ] || ! grep -q '^# fault-inject: done' "$out/fault-inject.out"; then
	echo "not ok - fault-inject exited with $rc before its end"
	failed=$((failed + 1))
fi
echo "# guest time $(awk -v s="$start" -v e="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", e - s }') s"
echo "fault-inject: $passed passed, $failed failed"
[ "$failed" = 0 ]
