#!/bin/sh
# The benchmark (`make bench`; not part of `make check`):
#  1. native: bench/bench_compose.c, built from module/core/'s compositor core
#     unchanged, against pixman and memcpy; then instructions per frame
#     under valgrind's callgrind;
#  2. in the guest: atomkms against upstream vkms (bench/guest.sh), unless
#     BENCH_GUEST=0 or the guest is not set up.
#
# Environment: BENCH_QUICK=1 fewer samples; BENCH_GUEST=0 skip part 2;
# BENCH_K frames per callgrind run (default 5).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/bench
mkdir -p "$out"
K=${BENCH_K:-5}

need() {
	command -v "$1" > /dev/null 2>&1 ||
		{ echo "bench: $1 not found: $2" >&2; exit 1; }
}
need cc "install build-essential (make setup)"
need pkg-config "install pkg-config (make setup)"
pkg-config --exists pixman-1 ||
	{ echo "bench: pixman-1 not found: install libpixman-1-dev (make setup)" >&2; exit 1; }

# The compositor core, exactly the files the module builds.
core=$(make -s --no-print-directory -C "$top" core-srcs)
echo "bench: building $out/bench_compose (-O2)"
# shellcheck disable=SC2046,SC2086
cc -O2 -g -Wall -Wextra -Iinclude $(pkg-config --cflags pixman-1) \
	-o "$out/bench_compose" bench/bench_compose.c $core \
	$(pkg-config --libs pixman-1)

echo "bench: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > 0.5 * n) }'; then
	echo "bench: WARNING: the machine is busy (load $load on $(nproc) CPUs): timings will be noisy"
fi

echo
echo "== Part 1: compositor core, native userspace"
q=
[ "${BENCH_QUICK:-0}" = 1 ] && q=-q
"$out/bench_compose" $q

echo
echo "== Instructions per frame (valgrind --tool=callgrind, 1920x1080, (Ir(K=$K) - Ir(K=0)) / $K)"
if ! command -v valgrind > /dev/null 2>&1; then
	echo "bench: valgrind not found: install it (apt-get install valgrind); instruction counts skipped"
else
	ir() {	# NAME ARGS...: total Ir of one run
		f=$out/callgrind.$1.out
		shift
		valgrind --tool=callgrind --callgrind-out-file="$f" \
			"$out/bench_compose" --count "$@" > /dev/null 2>&1 || {
			echo "bench: callgrind run failed: $*" >&2; echo 0; return; }
		sed -n 's/^summary: *//p' "$f"
	}
	printf '%-34s %16s %16s %16s\n' scene "fast" "fast+crc" "general"
	for s in a b; do
		base=$(ir "$s-0" $s 1920 1080 0)
		fast=$(ir "$s-fast" $s 1920 1080 "$K")
		crc=$(ir "$s-crc" $s 1920 1080 "$K" crc)
		gen=$(ir "$s-gen" $s 1920 1080 "$K" general)
		case $s in
		a) d="(a) primary XRGB8888 alone" ;;
		b) d="(b) primary + 2 ARGB ovl + cursor" ;;
		esac
		awk -v d="$d" -v b="$base" -v f="$fast" -v c="$crc" -v g="$gen" -v k="$K" \
			'BEGIN { printf "%-34s %16.0f %16.0f %16.0f\n", d,
				(f - b) / k, (c - b) / k, (g - b) / k;
				printf "%-34s %16.2f %16.2f %16.2f\n", "  per output pixel",
				(f - b) / k / 2073600, (c - b) / k / 2073600,
				(g - b) / k / 2073600 }'
	done
	echo "(setup, K=0: Ir of a run that composes no frame, subtracted)"
fi

if [ "${BENCH_GUEST:-1}" = 0 ]; then
	echo
	echo "== Part 2: skipped (BENCH_GUEST=0)"
	exit 0
fi
echo
echo "== Part 2: in the guest, atomkms against upstream vkms"
bench/guest.sh
