#!/bin/sh
# Build upstream vkms, the reference, from a kernel's linux-source as the
# module vkmsref.ko (DRM driver name "vkmsref", so that it cannot be
# confused with a kernel's own vkms) into build/bench/vkms (6.12, the
# benchmark's) or build/bench/vkms-KERNEL (7.3: built in the kernel's
# trixie chroot, qemu/kernels.sh). None of its code is kept in the
# repository: it is extracted here at build time.
#
# Usage: bench/build-vkms.sh [KERNEL]   6.12 (default) or 7.3
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/qemu/kernels.sh"
kernel_select "${1:-6.12}"
kernel_need
src=$k_src
[ -n "$src" ] || { echo "build-vkms: vkms is built for 6.12 or 7.3, not $k_name" >&2; exit 2; }
dir=$top/build/bench/vkms
[ "$k_name" = 6.12 ] || dir=$dir-$k_name
[ -r "$src" ] || { echo "build-vkms: no $src: run make setup" >&2; exit 1; }

if [ ! -f "$dir/.extracted" ] || [ "$src" -nt "$dir/.extracted" ]; then
	echo "build-vkms: extracting drivers/gpu/drm/vkms from $src"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$src" -C "$dir" --strip-components=5 --wildcards \
		'linux-source-*/drivers/gpu/drm/vkms'
	rm -rf "$dir/tests"
	sed -i 's/^#define DRIVER_NAME\t"vkms"$/#define DRIVER_NAME\t"vkmsref"/' \
		"$dir/vkms_drv.c"
	grep -q '^#define DRIVER_NAME.*"vkmsref"' "$dir/vkms_drv.c" ||
		{ echo "build-vkms: DRIVER_NAME not renamed" >&2; exit 1; }
	# The object list of upstream's Makefile, as module vkmsref.
	objs=$(sed -n 's/^[[:space:]]*\(vkms_[a-z_]*\.o\).*/\1/p' "$dir/Makefile" | tr '\n' ' ')
	[ -n "$objs" ] || { echo "build-vkms: no objects in vkms's Makefile" >&2; exit 1; }
	printf 'obj-m += vkmsref.o\nvkmsref-y := %s\n' "$objs" > "$dir/Kbuild"
	rm -f "$dir/Makefile"
	touch "$dir/.extracted"
fi
echo "build-vkms: building vkmsref.ko for $k_kver"
kernel_kbuild "$dir" > "$dir/build.log" 2>&1 || { tail -n 30 "$dir/build.log" >&2; exit 1; }
[ -f "$dir/vkmsref.ko" ]
