#!/bin/sh
# Run an igt list in the guest and compare the results with expectations.
#
# Usage: test/run-igt.sh LIST [NAME] [MODULE_PARAMS] [EXPECTATIONS...]
#   EXPECTATIONS default to test/igt/expected-1crtc.txt test/igt/expected.txt;
#   test/igt/expected-kernel-KERNEL.txt, where it exists, comes before them
# Env:   IGT_GUEST_TIMEOUT  seconds before the host kills the guest (3600)
#        IGT_TIMEOUT        igt_runner's per-test timeout (600; kms_plane's
#                           pixel-format subtests take about 250 s each)
#        IGT_SETUP          a guest script (path from the top), run as root
#                           once atomkms is loaded and before igt_runner,
#                           e.g. qemu/jobs/igt-second-card.sh: a second
#                           atomkms card made through configfs; igt does
#                           not run if it fails
#
# When the only unexpected results are subtests named in
# test/igt/timing.txt (they assert that userspace meets a vblank deadline,
# which a TCG stall of the guest can make it miss), those subtests run
# once more in a fresh guest and their second result counts; the output
# names every such rerun.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=$1
name=${2:-igt}
params=${3:-}
shift $(($# < 3 ? $# : 3))
[ $# -gt 0 ] || set -- test/igt/expected-1crtc.txt test/igt/expected.txt
# What igt does differently on one kernel (GUEST_KERNEL, qemu/kernels.sh),
# each line with its reason, comes first.
kexp=test/igt/expected-kernel-${GUEST_KERNEL:-6.12}.txt
[ ! -r "$top/$kexp" ] || set -- "$kexp" "$@"
case "$list" in
/*) ;;
*) list=$top/$list ;;
esac
[ -r "$list" ] || { echo "run-igt: no list $list" >&2; exit 2; }
rel=${list#"$top"/}
out=build/guest/$name
timing=test/igt/timing.txt

# guest NAME LIST: run LIST (relative to the top) in a guest, results in
# build/guest/NAME.
guest() {
	"$top/qemu/run-guest.sh" --name "$1" --params "$params" \
		--timeout "${IGT_GUEST_TIMEOUT:-3600}" -- \
		env IGT_TIMEOUT="${IGT_TIMEOUT:-600}" IGT_SETUP="${IGT_SETUP:-}" \
		sh qemu/jobs/igt.sh \
		"/host/$2" "/host/build/guest/$1"
}

guest "$name" "$rel"
grc=$?
if [ ! -r "$top/$out/results.json" ]; then
	echo "run-igt[$name]: no results.json (guest exit $grc)"
	echo "igt: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
again=build/lists/$name-rerun.list
mkdir -p "$top/build/lists"
(cd "$top" && test/igt_compare.py --timing "$timing" --rerun-list "$again" \
	"$out/results.json" "$list" "$@" > "$out/compare.txt")
crc=$?
if [ $crc != 0 ] && [ $grc = 0 ] && [ -s "$top/$again" ]; then
	echo "run-igt[$name]: rerunning $(wc -l < "$top/$again") timing subtest(s) in a fresh guest:" \
		$(cat "$top/$again")
	guest "$name-rerun" "$again"
	grc=$?
	if [ -r "$top/$out-rerun/results.json" ]; then
		(cd "$top" && test/igt_compare.py --timing "$timing" \
			--rerun "$out-rerun/results.json" \
			"$out/results.json" "$list" "$@" > "$out/compare.txt")
		crc=$?
	fi
fi
cat "$top/$out/compare.txt"
echo "run-igt[$name]: guest $(cat "$top/$out/wall")s, results in $out/results.json"
if [ $grc != 0 ]; then
	echo "run-igt[$name]: the guest run failed (exit $grc): see above"
	echo "igt: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
exit $crc
