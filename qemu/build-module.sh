#!/bin/sh
# Build atomkms.ko for a kernel of qemu/kernels.sh other than the host's
# (make KERNEL=7.3): the module's sources are copied, timestamps kept,
# into the kernel's chroot (CHROOT/w/NAME), where kbuild builds them, and
# atomkms.ko comes back to build/kmod-NAME. The objects of two kernels
# never mix.
#
# Usage: qemu/build-module.sh NAME [kbuild target]   (default: modules)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/kernels.sh"
kernel_select "$1"
target=${2:-modules}
kernel_need
[ -n "$k_root" ] || { echo "build-module: kernel $k_name builds on the host: make KERNEL=$k_name" >&2; exit 2; }

out=$top/build/kmod-$k_name
work=$k_root/w/$k_name
mkdir -p "$out" "$work"
# What Kbuild names: Kbuild, module/ (with core/, simd/, tests/), include/.
(cd "$top" && find Kbuild module include -type f \( -name '*.[ch]' -o -name '*.mk' \
	-o -name Kbuild \) -print | cpio -pdmu --quiet "$work")

mounted=
cleanup() { [ -z "$mounted" ] || umount "$k_root/proc"; }
trap cleanup EXIT
# objtool reads /proc.
mountpoint -q "$k_root/proc" || { mount -t proc proc "$k_root/proc"; mounted=1; }
chroot "$k_root" env LC_ALL=C.UTF-8 make -C "$k_kdir" M="/w/$k_name" \
	${JOBS:+-j$JOBS} "$target"
[ "$target" != modules ] || cp -p "$work/atomkms.ko" "$out/atomkms.ko"
