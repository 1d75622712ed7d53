#!/bin/sh
# Guest side of the debug stage (test/run-debug.sh), under the debug
# kernel: our guest tests, atomkms's KUnit suites, the fuzzer, one pass of
# fault injection, the SIMD line loops forced (qemu/jobs/simd-levels.sh)
# and the lifecycle test, each followed by a kmemleak scan
# (qemu/jobs/kmemleak.sh). Each part prints its own "NAME: N passed, N
# failed" line; the lifecycle test runs last, as it unloads and reloads
# the module.
#
# Usage (in the guest): qemu/jobs/debug-stage.sh OUTDIR short|full [PART...]
#   PARTs (default: all, in this order): guest-tests kunit fuzz
#   fault-inject simd lifecycle
# Env: FUZZ_SEED (1), FUZZ_OPS and LIFECYCLE_CYCLES override the mode's.
set -u
out=$1
mode=$2
. /host/qemu/jobs/kmemleak.sh
. /host/qemu/jobs/sw-sync.sh
case $mode in
# short: the fault-injection probe passes try every 20th allocation, the
# configfs pass (two probes an N) every 150th; full: every one of the bind
# pass and of the insmod pass up to its probe, every 10th of the insmod
# pass's probe (the bind pass's calls again, 1.25 s an N), and every 5th
# of the configfs pass (about 6 s an N under KASAN).
short) ops=${FUZZ_OPS:-3000} cycles=${LIFECYCLE_CYCLES:-5}
	fi_args="--probe-stride 20 --configfs-stride 150" ;;
full) ops=${FUZZ_OPS:-100000} cycles=${LIFECYCLE_CYCLES:-100}
	fi_args="--configfs-stride 5 --insmod-probe-stride 10" ;;
*) echo "debug-stage: mode must be short or full, not $mode"; exit 2 ;;
esac
seed=${FUZZ_SEED:-1}

# part NAME COMMAND...: run one part, then scan for what it leaked.
part() {
	name=$1
	shift
	echo "=== $name ($(cut -d' ' -f1 /proc/uptime) s)"
	"$@"
	kmemleak_after "$name" "$out" || echo "$name-kmemleak: 0 passed, 1 failed"
}

# guest_tests: qemu/jobs/guest-tests.sh over every test-* program, counted.
guest_tests() {
	sh /host/qemu/jobs/guest-tests.sh "$out" /host/build/bin/test-*
	awk '{ if ($2 == 0) p++; else { f++; print $1 ": FAIL (exit " $2 ")" } }
		END { printf "guest-tests: %d passed, %d failed\n", p, f }' \
		"$out/guest-tests.txt"
}

# A legacy cursor that the fuzzer set stays on screen after it exits, as
# on any driver, and its framebuffer holds a GEM handle reference
# (Linux 6.12.y's drm_framebuffer_init()), which keeps the buffer's
# exported dma-buf, which holds atomkms (its exporter) in memory: rmmod
# then answers EBUSY until the device lets the framebuffer go. The parts
# after the fuzzer unload the module: unbind and bind the device first.
fuzz_rebind() {
	drv=/sys/bus/platform/drivers/atomkms
	[ -e $drv/atomkms ] || return 0
	echo atomkms > $drv/unbind && echo atomkms > $drv/bind ||
		echo "fuzz-rebind: 0 passed, 1 failed"
}

# fault_inject: the pass over every operation; then, at two CRTCs, every
# call under the DRM core's CRTC init, whose kstrdup() failing once left a
# freed CRTC on the mode config's list (Linux 6.12; the use-after-free in
# drm_mode_config_cleanup() that the full insmod pass hit at N=887, now
# handled by atomkms_crtc_drop_half_init()).
fault_inject() {
	# shellcheck disable=SC2086
	sh /host/qemu/jobs/fault-inject.sh "$out" $fi_args
	mkdir -p "$out/crtc-init"
	sh /host/qemu/jobs/fault-inject.sh "$out/crtc-init" --ops insmod \
		--within __drm_crtc_init_with_planes --params \
		"num_crtcs=2 num_overlays=1 pref_width=640 pref_height=480 max_width=1024 max_height=768"
}

[ $# -gt 2 ] && shift 2 || set -- guest-tests kunit fuzz fault-inject simd lifecycle
for p in "$@"; do
	case $p in
	guest-tests) part guest-tests guest_tests ;;
	kunit) part kunit sh /host/qemu/jobs/kunit.sh "$out" ;;
	fuzz) part fuzz sh /host/qemu/jobs/fuzz.sh "$out" "$seed" "$ops"
		fuzz_rebind ;;
	fault-inject) part fault-inject fault_inject ;;
	# The TCG guest's load-time choice is the scalar loops: the vector
	# ones, forced, under lockdep and preemption debugging.
	simd) part simd sh /host/qemu/jobs/simd-levels.sh ;;
	lifecycle) part lifecycle sh /host/qemu/jobs/lifecycle.sh "$out" "$cycles" ;;
	*) echo "$p: no such part: 0 passed, 1 failed" ;;
	esac
done
echo "=== end ($(cut -d' ' -f1 /proc/uptime) s)"
