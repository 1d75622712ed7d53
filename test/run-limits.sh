#!/bin/sh
# The limits stage (issue 15, item 4): weston, with client buffers on
# planes, and sway through libliftoff, on atomkms under a preset of
# display-engine limits (qemu/jobs/limits-clients.sh), one guest boot per
# preset. Under soc (the tightest) weston's TEST_ONLY commits must be
# refused and weston must compose instead; under the others, whatever the
# preset does is reported, and checked as EXPECT says.
#
# Usage: test/run-limits.sh [PRESET[:EXPECT]...]     (default: soc:reject)
#   EXPECT: reject or accept (see qemu/jobs/limits-clients.sh)
# Prints each preset's "ok"/"not ok" and "#" lines, and a closing
# "limits: in all, N passed and N failed" (each preset's own "limits-PRESET:
# N passed, N failed" line is the count make check adds). Everything stays in
# build/guest/limits-PRESET/.
set -u
cd "$(dirname "$0")/.."
# One guest after the other, holding the guest lock once for them all.
if [ -z "${GUEST_LOCK_HELD:-}" ]; then
	export GUEST_LOCK_HELD=1
	exec flock /tmp/atomkms-guest.lock "$0" "$@"
fi
[ $# -gt 0 ] || set -- soc:reject
passed=0 failed=0 rc=0
for p in "$@"; do
	preset=${p%%:*}
	expect=${p#*:}
	[ "$expect" != "$p" ] || expect=reject
	echo "== limits=$preset (expect $expect)"
	STAGE_PARAMS="limits=$preset" test/run-guest-stage.sh "limits-$preset" 300 \
		qemu/jobs/limits-clients.sh "$expect" > "build/limits-$preset.txt" 2>&1 || rc=1
	cat "build/limits-$preset.txt"
	# run-guest-stage.sh adds "0 passed, 1 failed" for a failed guest.
	np=$(sed -n "s/^limits-$preset: \([0-9]*\) passed.*/\1/p" "build/limits-$preset.txt" |
		awk '{ s += $1 } END { print s + 0 }')
	nf=$(sed -n "s/^limits-$preset: .* \([0-9]*\) failed.*/\1/p" "build/limits-$preset.txt" |
		awk '{ s += $1 } END { print s + 0 }')
	passed=$((passed + np))
	failed=$((failed + nf))
done
echo "limits: in all, $passed passed and $failed failed"
[ $rc = 0 ] && [ $failed = 0 ]
