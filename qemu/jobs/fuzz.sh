#!/bin/sh
# Guest side of the fuzzer stage: run atomkms-fuzz for each seed given,
# keep its output in OUTDIR/fuzz-SEED.log (and on stdout), and end with
# "fuzz: N passed, N failed": one pass or failure per seed.
# Usage (in the guest): qemu/jobs/fuzz.sh OUTDIR SEED[,SEED...] OPS [ARGS...]
#   ARGS go to atomkms-fuzz as they are (--threads T --clients C ...).
set -u
. /host/qemu/jobs/sw-sync.sh
out=$1 seeds=$2 ops=$3
shift 3
bin=/host/build/bin/atomkms-fuzz
mkdir -p "$out"
# Debug-level DRM logging would cost more than the fuzzing.
[ -w /sys/module/drm/parameters/debug ] && echo 0 > /sys/module/drm/parameters/debug
passed=0 failed=0
for seed in $(echo "$seeds" | tr ',' ' '); do
	log=$out/fuzz-$seed.log
	echo "=== atomkms-fuzz --seed $seed --ops $ops $*"
	start=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 10 "${FUZZ_TIMEOUT:-5400}" "$bin" --seed "$seed" --ops "$ops" "$@" > "$log" 2>&1
	rc=$?
	end=$(cut -d' ' -f1 /proc/uptime)
	cat "$log"
	echo "fuzz: seed $seed exit $rc, $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s in the guest"
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		[ $rc = 124 ] && echo "fuzz: seed $seed timed out after ${FUZZ_TIMEOUT:-5400} s"
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed = 0 ]
