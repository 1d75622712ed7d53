#!/bin/sh
# One-time set-up of a fresh Debian 12 machine for atomkms: packages, then
# the guest's rootfs image and initramfs in $CACHE. Idempotent; fast when
# nothing changed.
#
# Usage: qemu/setup.sh            everything
#        qemu/setup.sh checkpatch  only unpack checkpatch.pl from linux-source
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${CACHE:-/var/cache/atomkms}

# Build tools, Debian's 6.12 LTS headers and the matching kernel image (it
# boots the guest), QEMU, debootstrap for the sid rootfs, libdrm for the
# tools, sparse, linux-source-6.12 (checkpatch; upstream vkms for the
# benchmark), hwdata (the PNP ID list test_edid checks our EDIDs'
# manufacturer against), and what make deb builds the atomkms-dkms package
# with and make check-dkms installs it with (dkms, dh-dkms, debhelper,
# dpkg-dev, fakeroot), and what the debug kernel builds with (flex, bison,
# bc, libelf-dev, libssl-dev), and what the limits stage's Wayland client
# builds with (libwayland-dev, wayland-protocols), and the benchmark's
# references (libpixman-1-dev; libswscale-dev, scene (c)'s).
packages="build-essential pkg-config kmod cpio xz-utils zstd e2fsprogs
	busybox-static python3 linux-headers-6.12-amd64 linux-image-6.12-amd64
	linux-source-6.12 qemu-system-x86 debootstrap libdrm-dev sparse
	libpng-dev libpixman-1-dev edid-decode hwdata
	dkms dh-dkms debhelper dpkg-dev fakeroot
	flex bison bc libelf-dev libssl-dev libwayland-dev wayland-protocols
	libswscale-dev"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing > "${TMPDIR:-/tmp}/atomkms-apt.log" 2>&1 || {
		tail -n 30 "${TMPDIR:-/tmp}/atomkms-apt.log" >&2
		exit 1
	}
fi

kver=$(ls -1d /usr/src/linux-headers-6.12*-amd64 | sed 's|.*/linux-headers-||' |
	sort -V | tail -n 1)
[ -r "/boot/vmlinuz-$kver" ] || {
	echo "setup: headers are $kver but /boot/vmlinuz-$kver is missing" >&2
	exit 1
}
mkdir -p "$cache"

checkpatch() {
	dst="$cache/checkpatch"
	[ -x "$dst/scripts/checkpatch.pl" ] && return 0
	echo "setup: unpacking checkpatch.pl from linux-source-6.12"
	rm -rf "$dst.tmp"
	mkdir -p "$dst.tmp"
	tar -xf /usr/src/linux-source-6.12.tar.xz -C "$dst.tmp" --strip-components=1 \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
	rm -rf "$dst"
	mv "$dst.tmp" "$dst"
}

if [ "${1:-}" = checkpatch ]; then
	checkpatch
	exit 0
fi

# The debug kernel (lockdep, KASAN, kmemleak, ...: make check's debug
# stage and make check-debug boot it) builds meanwhile: the images wait
# on the archive and the disk, the kernel on the CPUs.
"$here/build-debug-kernel.sh" > "$cache/debug-kernel.log" 2>&1 &
kpid=$!
trap 'kill $kpid 2>/dev/null' EXIT
"$here/mkrootfs.sh" "$cache" igt
"$here/mkrootfs.sh" "$cache" clients
# Debian's 7.3 and 7.2 (trixie-backports) in a trixie chroot.
"$here/setup-kernels.sh"

initrd="$cache/initramfs-$kver.cpio.gz"
if [ ! -f "$initrd" ] || [ "$here/initramfs-init" -nt "$initrd" ] ||
   [ "$here/mkinitramfs.sh" -nt "$initrd" ]; then
	"$here/mkinitramfs.sh" "$kver" "$initrd"
else
	echo "initramfs: up to date ($initrd)"
fi
checkpatch
krc=0
wait $kpid || krc=$?
trap - EXIT
cat "$cache/debug-kernel.log"
[ $krc = 0 ] || exit 1
echo "setup: done (kernel $kver, cache $cache)"
