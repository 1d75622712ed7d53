#!/bin/sh
# Build upstream vkms, the reference, from linux-source-6.12 as the module
# vkmsref.ko (DRM driver name "vkmsref", so that it cannot be confused with
# the guest kernel's own vkms) into build/bench/vkms. None of its code is
# kept in the repository: it is extracted here at bench time.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/bench/vkms
src=/usr/src/linux-source-6.12.tar.xz
kdir=${KDIR:-$(ls -1d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | sort -V | tail -n 1)}

[ -r "$src" ] || { echo "build-vkms: no $src: run make setup (linux-source-6.12)" >&2; exit 1; }
[ -d "$kdir" ] || { echo "build-vkms: no kernel headers: run make setup" >&2; exit 1; }

if [ ! -f "$dir/.extracted" ]; then
	echo "build-vkms: extracting drivers/gpu/drm/vkms from $src"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$src" -C "$dir" --strip-components=5 \
		linux-source-6.12/drivers/gpu/drm/vkms
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
echo "build-vkms: building vkmsref.ko against $kdir"
make -s -C "$kdir" M="$dir" modules > "$dir/build.log" 2>&1 ||
	{ tail -n 30 "$dir/build.log" >&2; exit 1; }
[ -f "$dir/vkmsref.ko" ]
