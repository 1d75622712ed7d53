#!/bin/sh
# atomkms's KUnit suites, in the debug guest (qemu/run-guest.sh --kernel
# debug): loads DRM's KUnit helpers and build/debug-kmod/atomkms_test.ko
# (make module-debug), whose suites run as it loads, prints each suite's
# KTAP results from debugfs and ends with "kunit: N passed, N failed",
# counting test cases. A suite that is missing, or that reported fewer
# cases than its plan, counts its missing cases (at least one) as failed;
# a skipped case counts as failed.
#
# Usage: sh qemu/jobs/kunit.sh [OUTDIR]   (OUTDIR keeps SUITE.ktap files)
set -u

out=${1:-}
ko=/host/build/debug-kmod
debugfs=/sys/kernel/debug/kunit
# The suites atomkms_test.ko holds (module/tests/*.c).
suites="atomkms-topology atomkms-timing atomkms-plane atomkms-crtc atomkms-limits"

passed=0 failed=0 results=
[ -z "$out" ] || mkdir -p "$out"

if [ ! -d "$debugfs" ]; then
	echo "kunit: no $debugfs: not the debug kernel (CONFIG_KUNIT_DEBUGFS)?"
	echo "kunit: 0 passed, 1 failed"
	exit 1
fi

# atomkms_test.ko calls into atomkms.ko: run-guest.sh loaded it, unless
# told not to.
grep -q '^atomkms ' /proc/modules || insmod "$ko/atomkms.ko" ||
	echo "kunit: atomkms.ko did not load"
modprobe drm_kunit_helpers || echo "kunit: drm_kunit_helpers did not load"
start=$(cut -d' ' -f1 /proc/uptime)
insmod "$ko/atomkms_test.ko" || echo "kunit: atomkms_test.ko did not load"
end=$(cut -d' ' -f1 /proc/uptime)
echo "kunit: atomkms_test.ko loaded and ran its suites in $(echo "$start $end" |
	awk '{ printf "%.1f", $2 - $1 }') s"

# Every atomkms suite debugfs knows, the expected ones first.
found=$(ls "$debugfs" 2>/dev/null | grep '^atomkms-' | sort)
for s in $found; do
	case " $suites " in
	*" $s "*) ;;
	*) suites="$suites $s" ;;
	esac
done

for s in $suites; do
	res=$debugfs/$s/results
	echo
	if [ ! -r "$res" ]; then
		echo "kunit: suite $s: MISSING (counted as 1 failed)"
		failed=$((failed + 1))
		continue
	fi
	cat "$res"
	[ -z "$out" ] || cat "$res" > "$out/$s.ktap"
	# Test cases are the lines indented once (4 spaces); a parametrised
	# case's parameters (8 spaces) roll up into its line.
	set -- $(awk '
		/^    1\.\.[0-9]+$/ { plan = substr($1, 4) }
		/^    ok [0-9]+ / && !/# SKIP/ { ok++ }
		/^    ok [0-9]+ .*# SKIP/ { skip++ }
		/^    not ok [0-9]+ / { bad++ }
		END { printf "%d %d %d %d\n", plan, ok, bad, skip }' "$res")
	plan=$1 ok=$2 bad=$3 skip=$4
	missing=$((plan - ok - bad - skip))
	[ "$missing" -ge 0 ] || missing=0
	[ "$plan" -gt 0 ] || missing=1
	passed=$((passed + ok))
	failed=$((failed + bad + skip + missing))
	echo "kunit: suite $s: $ok passed, $bad failed, $skip skipped, $missing missing of $plan"
	results="$results $(sed -n 's/^# Totals: pass:\([0-9]*\) fail:\([0-9]*\) skip:\([0-9]*\).*/\1 \2 \3/p' "$res")"
done

# Let atomkms.ko go (guest-main.sh unloads it after the job).
rmmod atomkms_test 2>/dev/null || echo "kunit: atomkms_test.ko did not unload"

# Parametrised cases' parameters, each a result of its own: for reading.
echo "$results" | awk '{ for (i = 1; i + 2 <= NF; i += 3) { p += $i; f += $(i + 1); s += $(i + 2) } }
	END { printf "\nkunit: %d results with parameters: %d passed, %d failed, %d skipped\n", p + f + s, p, f, s }'
echo "kunit: $passed passed, $failed failed"
[ "$failed" = 0 ]
