#!/bin/sh
# Run one guest job of a test stage in the clients image at 1024x768
# (vkms's default mode, which weston's tests and reference screenshots
# expect), one guest at a time on this machine, and print its "ok"/"not
# ok", "#" and TAP lines and its "STAGE: N passed, N failed" summary. A
# guest that fails before its summary (a hang, an oops, a dirty kernel
# log) counts as one more failure.
#
# Usage: test/run-guest-stage.sh STAGE TIMEOUT JOB [ARGS...]
#   runs "sh JOB /host/build/guest/STAGE ARGS..." in the guest; the module
#   parameters in $STAGE_PARAMS are added to the mode's
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
stage=$1 timeout=$2 job=$3
shift 3
# GUEST_LOCK_HELD=1: the caller holds the guest lock (test/run-limits.sh
# takes it once for all its presets).
lock="flock /tmp/atomkms-guest.lock"
[ -z "${GUEST_LOCK_HELD:-}" ] || lock=
$lock \
	qemu/run-guest.sh --image clients --name "$stage" \
	--params "pref_width=1024 pref_height=768${STAGE_PARAMS:+ $STAGE_PARAMS}" --timeout "$timeout" -- \
	sh "$job" "/host/build/guest/$stage" "$@"
rc=$?
log=build/guest/$stage/job.log
grep -E "^(  )?(ok|not ok|#|1\\.\\.)|^$stage:" "$log" 2> /dev/null
echo "$stage: guest wall time $(cat "build/guest/$stage/wall" 2> /dev/null) s"
if [ $rc -gt 1 ] || ! grep -q "^$stage: [0-9]* passed" "$log" 2> /dev/null; then
	echo "$stage: the guest run failed (exit $rc): 0 passed, 1 failed"
	exit 1
fi
exit $rc
