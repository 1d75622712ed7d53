#!/bin/sh
# Inside the guest (booted by bench/guest.sh with --no-module, TCG
# thread=single: function_graph is not safe under thread=multi): for
# upstream vkms (vkmsref.ko) then atomkms, set scene b up at 1920x1080 with
# bench/kms_scene.c, read CRCs for a few seconds, and time every run of the
# driver's composer work with ftrace's function_graph; then scene a at
# 3840x2160 on atomkms; and, for each driver, what a client pays to paint
# a dumb buffer through a fresh mapping (bench/dumb_paint.c; atomkms also
# with fault_pages=1, the helper's one page a fault). Prints
# "RESULT label key=value..." lines.
set -u
cd /host
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
KMS=/host/build/bench/kms_scene
PAINT=/host/build/bench/dumb_paint
SECS=${BENCH_SECONDS:-5}
fail=0

load() {	# MODULE.ko PARAMS...
	ko=$1
	shift
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	[ -z "$deps" ] || modprobe -a $deps
	insmod "$ko" "$@"
}

trace_start() {	# FUNCTION
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/trace
	if ! grep -qx "$1\( \[.*\]\)\?" $T/available_filter_functions; then
		echo "guest-bench: $1 is not traceable" >&2
		return 1
	fi
	echo "$1" > $T/set_ftrace_filter
	echo 1 > $T/max_graph_depth
	echo function_graph > $T/current_tracer
	echo funcgraph-abstime > $T/trace_options
	echo funcgraph-duration > $T/trace_options
	echo funcgraph-tail > $T/trace_options
	echo 1 > $T/tracing_on
}

# Durations (us) of FUNCTION's runs. Runs under 1 ms are counted apart as
# no-ops (the work ran but found no frame to compose: tens of us, where a
# composition under TCG takes tens of ms at least); of the others: count,
# mean, median, min, max, and their rate per second from their timestamps.
trace_stop() {	# LABEL FUNCTION
	echo 0 > $T/tracing_on
	cp $T/trace "/host/build/bench/trace-$1.txt"
	grep "$2" $T/trace | awk -v label="$1" '
	function sort(a, m,    i, j, x) {	# insertion sort: a few hundred
		for (i = 1; i < m; i++) {
			x = a[i]
			for (j = i - 1; j >= 0 && a[j] > x; j--)
				a[j + 1] = a[j]
			a[j + 1] = x
		}
	}
	function median(a, m) {
		return m % 2 ? a[int(m / 2)] : (a[m / 2 - 1] + a[m / 2]) / 2
	}
	{
		d = -1
		for (i = 1; i < NF; i++)
			if ($(i + 1) == "us")
				d = $i
		if (d < 0)
			next
		t[n] = $1 + 0
		v[n] = d + 0
		n++
	}
	END {
		if (!n) {
			printf "RESULT %s compose_runs=0\n", label
			exit
		}
		cut = 1000
		for (i = 0; i < n; i++) {
			if (v[i] < cut) {
				noop++
				continue
			}
			if (!k)
				t0 = t[i]
			t1 = t[i]
			u[k++] = v[i]
			s += v[i]
		}
		if (!k) {
			printf "RESULT %s compose_runs=0 noop_runs=%d\n", label, noop
			exit
		}
		sort(u, k)
		rate = k > 1 && t1 > t0 ? (k - 1) / (t1 - t0) : 0
		printf "RESULT %s compose_runs=%d noop_runs=%d compose_mean_us=%.1f compose_median_us=%.1f compose_min_us=%.1f compose_max_us=%.1f compose_per_s=%.3f\n",
			label, k, noop, s / k, median(u, k), u[0], u[k - 1], rate
	}'
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
}

run() {	# LABEL DRIVER FUNCTION SCENE MODE
	trace_start "$3" || { fail=1; return; }
	if ! ATOMKMS_DRIVER=$2 $KMS --scene "$4" --mode "$5" --seconds "$SECS" > /tmp/kms.out; then
		echo "guest-bench: kms_scene failed for $1" >&2
		fail=1
	fi
	sed "s/^/RESULT $1 /" /tmp/kms.out
	trace_stop "$1" "$3"
}

echo "== vkmsref (upstream vkms)"
load build/bench/vkms/vkmsref.ko enable_overlay=1 enable_cursor=1 || exit 1
run vkms-b-1080 vkmsref vkms_composer_worker b 1920x1080
$PAINT vkms-paint 1920 1080 || fail=1
sleep 1
rmmod vkmsref || fail=1

echo "== atomkms"
load /host/atomkms.ko || exit 1
run atomkms-b-1080 atomkms atomkms_scanout_worker b 1920x1080
run atomkms-a-2160 atomkms atomkms_scanout_worker a 3840x2160
$PAINT atomkms-paint 1920 1080 || fail=1
echo 1 > /sys/module/atomkms/parameters/fault_pages
$PAINT atomkms-paint-1 1920 1080 || fail=1
exit $fail
