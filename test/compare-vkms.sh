#!/bin/sh
# make compare-vkms [KERNEL=7.3] [LIST=test/igt/ci.list]: one igt list on
# upstream vkms of that kernel (vkmsref.ko from its linux-source, with its
# defaults: bench/build-vkms.sh) and on atomkms with its defaults, each in
# a guest booted on that kernel, then the two side by side, a row a
# subtest (test/compare_vkms.py), in build/compare-vkms-KERNEL.md. Fails
# if atomkms does not pass a subtest that vkms passes.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kernel=${1:-7.3}
list=${2:-test/igt/ci.list}
case $kernel in
6.12) ko=build/bench/vkms/vkmsref.ko ;;
7.3) ko=build/bench/vkms-7.3/vkmsref.ko ;;
*) echo "compare-vkms: KERNEL must be 6.12 or 7.3, not $kernel" >&2; exit 2 ;;
esac
[ -r "$list" ] || { echo "compare-vkms: no list $list" >&2; exit 2; }
bench/build-vkms.sh "$kernel" || exit 1

run() {
	name=$1
	shift
	qemu/run-guest.sh --kernel "$kernel" --name "$name" --timeout 3600 "$@" -- \
		env IGT_TIMEOUT=600 VKMSREF=$ko ${setup:+IGT_SETUP=$setup} \
		sh qemu/jobs/igt.sh "/host/$list" "/host/build/guest/$name"
	echo "compare-vkms: $name: guest exit $?, $(cat "build/guest/$name/wall" 2>/dev/null) s"
}
setup=qemu/jobs/vkmsref.sh run "vkms-$kernel" --no-module
setup= run "atomkms-$kernel"
out=build/compare-vkms-$kernel.md
for r in vkms atomkms; do
	[ -r "build/guest/$r-$kernel/results.json" ] ||
		{ echo "compare-vkms: no results from $r"; echo "compare-vkms: 0 passed, 1 failed"; exit 1; }
done
test/compare_vkms.py --kernel "$kernel" "build/guest/vkms-$kernel/results.json" \
	"build/guest/atomkms-$kernel/results.json" > "$out"
rc=$?
grep -E '\*\*lost\*\*' "$out"
tail -n 2 "$out"
echo "compare-vkms: table in $out"
exit $rc
