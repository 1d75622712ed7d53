#!/bin/sh
# Build the guest root filesystem image: a Debian sid minbase with the igt
# kms test binaries, kmod and libdrm's tests, as an ext4 image that QEMU
# boots with snapshot=on (the guest never writes it back).
#
# Usage: qemu/mkrootfs.sh CACHE_DIR
# Rebuilds only when the package list below changes (stamp file).
set -eu

cache=$1
pkgs="igt-gpu-tools-tests,kmod,libdrm-tests,edid-decode,udev"
mirror=${ATOMKMS_MIRROR:-http://deb.debian.org/debian}
img="$cache/rootfs.ext4"
stamp="$cache/rootfs.stamp"
want="sid minbase $pkgs"

if [ -f "$img" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "rootfs: up to date ($img)"
	exit 0
fi

mkdir -p "$cache"
dir="$cache/rootfs.tmp"
rm -rf "$dir"
echo "rootfs: debootstrap sid into $dir (about a minute)"
debootstrap --variant=minbase --include="$pkgs" sid "$dir" "$mirror" \
	> "$cache/debootstrap.log" 2>&1 || {
	tail -n 30 "$cache/debootstrap.log" >&2
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
echo "rootfs: built $img (${size_mb} MiB)"
