#!/bin/sh
# Guest side of the lifecycle test (issue 16, item 6): CYCLES cycles of
# unbind/bind of the atomkms device, then CYCLES cycles of module
# unload/load, then CYCLES cycles of disable/enable of a configfs device
# (the module loaded with create_default_dev=0), each under a load of several client processes (the DRM
# master flipping with events, out-fences and writeback jobs on every
# CRTC, a CRC reader per CRTC, mapped dumb buffers written all the time,
# pending vblank events), which are killed mid-flight; each new device
# must pass a smoke test (a mode set, flips with events, a CRC) and the
# kernel log must stay clean (build/bin/lifecycle, test/debug/lifecycle.c).
# Run with --no-module: the test loads atomkms itself. Weston, which lives
# in the clients image (this runs in the igt one), has a guest of its own:
# qemu/jobs/lifecycle-weston.sh runs such cycles with weston holding the
# device (unbind under it, bind while it holds the old device, rmmod
# refused while it lives).
#
# Usage (in the guest): qemu/jobs/lifecycle.sh OUTDIR [CYCLES [PARAMS]]
#   CYCLES defaults to 10; KO=path overrides the module (default: the
#   debug kernel's); LIFECYCLE_MODES chooses the modes (default: bind
#   module configfs).
# Output: "ok"/"not ok" per mode with the time a cycle took, then
# "lifecycle: N passed, N failed". One line per cycle goes to
# OUTDIR/lifecycle.log.
set -u
out=$1
cycles=${2:-10}
params=${3:-num_crtcs=2 num_overlays=1 pref_width=640 pref_height=480 max_width=1024 max_height=768}
ko=${KO:-/host/build/debug-kmod/atomkms.ko}
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
# The test unloads atomkms and loads it with its own parameters; a module
# that was loaded before is loaded again at the end, with the defaults.
was_loaded=0
grep -q '^atomkms ' /proc/modules && was_loaded=1
: > "$out/lifecycle.out"
for mode in ${LIFECYCLE_MODES:-bind module configfs}; do
	{ /host/build/bin/lifecycle $mode --cycles "$cycles" --ko "$ko" \
		--params "$params" --log "$out/lifecycle.log" 2>&1
	  echo $? > /tmp/lifecycle.rc; } | tee -a "$out/lifecycle.out"
	rc=$(cat /tmp/lifecycle.rc)
	if [ "$rc" -gt 1 ] || ! grep -q "^\(not \)\{0,1\}ok - $mode:" "$out/lifecycle.out"; then
		echo "not ok - lifecycle $mode exited with $rc before its end" |
			tee -a "$out/lifecycle.out"
	fi
done
if [ $was_loaded = 1 ] && ! grep -q '^atomkms ' /proc/modules &&
	! insmod "$ko"; then
	echo "not ok - atomkms does not load again after the test" | tee -a "$out/lifecycle.out"
fi
passed=$(grep -c '^ok' "$out/lifecycle.out")
failed=$(grep -c '^not ok' "$out/lifecycle.out")
echo "lifecycle: $passed passed, $failed failed"
[ "$failed" = 0 ]
