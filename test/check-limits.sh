#!/bin/sh
# make check-limits: igt's kms_atomic, kms_plane_multiple and kms_bw whole
# (test/igt/limits.list) under each preset of simulated limits, soc,
# laptop and desktop, at three CRTCs; each preset's non-passes are in
# test/igt/expected-limits-PRESET.txt. Then weston and sway under each of
# $PRESETS (test/run-limits.sh; default soc:reject laptop:reject
# desktop:accept). `make check` runs a part of the igt list
# (test/igt/ci-limits.list) and the compositors under soc:reject. Prints
# a closing "N passed, N failed" line; exits 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=build/check
mkdir -p "$log"
passed=0 failed=0
for preset in soc laptop desktop; do
	name=igt-limits-full-$preset
	echo "== igt (test/igt/limits.list, limits=$preset)"
	test/run-igt.sh test/igt/limits.list "$name" \
		"num_crtcs=3 refresh=60,75,120 crossbar=1 limits=$preset" \
		"test/igt/expected-limits-$preset.txt" \
		test/igt/expected-3crtc.txt test/igt/expected.txt \
		> "$log/$name.log" 2>&1
	cat "$log/$name.log"
	line=$(sed -n 's/^igt: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$log/$name.log" | tail -n 1)
	[ -n "$line" ] || line="0 1"
	passed=$((passed + ${line%% *}))
	failed=$((failed + ${line##* }))
done
# shellcheck disable=SC2086
test/run-limits.sh ${PRESETS:-soc:reject laptop:reject desktop:accept} \
	> "$log/limits-clients.log" 2>&1
cat "$log/limits-clients.log"
line=$(sed -n 's/^limits: in all, \([0-9]*\) passed and \([0-9]*\) failed.*/\1 \2/p' \
	"$log/limits-clients.log" | tail -n 1)
[ -n "$line" ] || line="0 1"
passed=$((passed + ${line%% *}))
failed=$((failed + ${line##* }))
echo "check-limits: $passed passed, $failed failed"
[ "$failed" = 0 ]
