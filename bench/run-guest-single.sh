#!/bin/sh
# qemu/run-guest.sh with QEMU's TCG in thread=single mode: ftrace's
# function_graph oopses the guest under thread=multi. Same options and
# results (build/guest/NAME/) as qemu/run-guest.sh, which it copies at run
# time into build/bench/ with only two lines changed: the -accel option and
# the project directory (the copy does not live in qemu/).
#
# The one-line alternative in qemu/run-guest.sh would be
#   qemu=(qemu-system-x86_64 -accel "tcg,thread=${GUEST_TCG_THREAD:-multi}" ...
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
copy=$top/build/bench/run-guest-single.bash
mkdir -p "$top/build/bench"
sed -e 's/-accel tcg,thread=multi/-accel tcg,thread=single/' \
	-e "s|^top=.*|top='$top'|" "$top/qemu/run-guest.sh" > "$copy"
grep -q 'thread=single' "$copy" && grep -q "^top='$top'" "$copy" || {
	echo "run-guest-single: qemu/run-guest.sh changed: cannot switch it to thread=single" >&2
	exit 2
}
exec bash "$copy" "$@"
