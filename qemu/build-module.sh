#!/bin/sh
# Build atomkms.ko for a kernel of qemu/kernels.sh other than the host's
# (make KERNEL=7.3): the module's sources are copied, timestamps kept, to
# build/kmod-NAME and built there for that kernel (in its chroot:
# kernel_kbuild), and atomkms.ko lands there. The objects of two kernels
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
mkdir -p "$out"
# What Kbuild names: Kbuild, module/ (with core/, simd/, tests/), include/.
(cd "$top" && find Kbuild module include -type f \( -name '*.[ch]' -o -name '*.mk' \
	-o -name Kbuild \) -print | cpio -pdmu --quiet "$out")
kernel_kbuild "$out" "$target"
