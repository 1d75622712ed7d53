#!/bin/sh
# Build a guest root filesystem image, as an ext4 image that QEMU boots
# with snapshot=on (the guest never writes it back). Two images:
#
#   igt      rootfs.ext4: Debian sid minbase with igt's kms test binaries
#            (only sid ships them), kmod and libdrm's tests.
#   clients  rootfs-clients.ext4: Debian 13 "trixie" minbase with real
#            clients: weston and its demo clients, seatd, sway and grim
#            (wlroots with libliftoff), kmscube with Mesa's software GL,
#            drm_info and libdrm's modetest. From trixie, not sid, so that
#            a sid transition in progress cannot break it (on 2026-12-05
#            sid could not configure libonnxruntime1.23, which pipewire's
#            modules pull in beside weston).
#
# Usage: qemu/mkrootfs.sh CACHE_DIR [igt|clients]
# Rebuilds only when the suite or the package list changes (stamp file).
# A failed debootstrap fails the set-up: no image is half-built.
set -eu

cache=$1
kind=${2:-igt}
case $kind in
igt)
	suite=sid
	pkgs="igt-gpu-tools-tests,kmod,libdrm-tests,edid-decode,udev"
	img="$cache/rootfs.ext4"
	;;
clients)
	suite=trixie
	pkgs="weston,seatd,sway,grim,kmscube,drm-info,libdisplay-info-bin,libdrm-tests,libgl1-mesa-dri,libegl-mesa0,udev,kmod,procps"
	img="$cache/rootfs-clients.ext4"
	;;
*)
	echo "mkrootfs: unknown image $kind (igt or clients)" >&2
	exit 2
	;;
esac
mirror=${ATOMKMS_MIRROR:-http://deb.debian.org/debian}
stamp="${img%.ext4}.stamp"
log="${img%.ext4}.debootstrap.log"
want="$suite minbase $pkgs"

if [ -f "$img" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "rootfs[$kind]: up to date ($img)"
	exit 0
fi

mkdir -p "$cache"
dir="${img%.ext4}.tmp"
rm -rf "$dir"
echo "rootfs[$kind]: debootstrap $suite into $dir (a minute or two)"
debootstrap --variant=minbase --include="$pkgs" "$suite" "$dir" "$mirror" \
	> "$log" 2>&1 || {
	tail -n 30 "$log" >&2
	echo "rootfs[$kind]: FAILED: debootstrap of Debian $suite with $pkgs" \
		"did not complete (log: $log). No image was built." >&2
	[ "$suite" != sid ] || echo "rootfs[$kind]: sid moves; a package" \
		"caught in a transition is the usual cause: retry later." >&2
	rm -rf "$dir"
	exit 1
}
# Trim what a test guest never reads, to keep the image small.
rm -rf "$dir/usr/share/doc" "$dir/usr/share/man" "$dir/usr/share/locale" \
	"$dir/var/cache/apt/archives"/*.deb "$dir/var/lib/apt/lists"/*
mkdir -p "$dir/host" "$dir/results"
size_mb=$(( $(du -sm "$dir" | cut -f1) + 256 ))
rm -f "$img.tmp"
mke2fs -q -t ext4 -L atomroot -d "$dir" "$img.tmp" "${size_mb}M"
mv "$img.tmp" "$img"
rm -rf "$dir"
echo "$want" > "$stamp"
echo "rootfs[$kind]: built $img (${size_mb} MiB)"
