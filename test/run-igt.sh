#!/bin/sh
# Run an igt list in the guest and compare the results with expectations.
#
# Usage: test/run-igt.sh LIST [NAME] [MODULE_PARAMS] [EXPECTATIONS...]
#   EXPECTATIONS default to test/igt/expected-1crtc.txt test/igt/expected.txt
# Env:   IGT_GUEST_TIMEOUT  seconds before the host kills the guest (2400)
#        IGT_TIMEOUT        igt_runner's per-test timeout (240)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=$1
name=${2:-igt}
params=${3:-}
shift $(($# < 3 ? $# : 3))
[ $# -gt 0 ] || set -- test/igt/expected-1crtc.txt test/igt/expected.txt
case "$list" in
/*) ;;
*) list=$top/$list ;;
esac
[ -r "$list" ] || { echo "run-igt: no list $list" >&2; exit 2; }
rel=${list#"$top"/}
out=build/guest/$name

"$top/qemu/run-guest.sh" --name "$name" --params "$params" \
	--timeout "${IGT_GUEST_TIMEOUT:-2400}" -- \
	env IGT_TIMEOUT="${IGT_TIMEOUT:-240}" sh qemu/jobs/igt.sh "/host/$rel" "/host/$out"
grc=$?
if [ ! -r "$top/$out/results.json" ]; then
	echo "run-igt[$name]: no results.json (guest exit $grc)"
	echo "igt: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
(cd "$top" && test/igt_compare.py "$out/results.json" "$list" "$@")
crc=$?
echo "run-igt[$name]: guest $(cat "$top/$out/wall")s, results in $out/results.json"
if [ $grc != 0 ]; then
	echo "run-igt[$name]: the guest run failed (exit $grc): see above"
	echo "igt: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
exit $crc
