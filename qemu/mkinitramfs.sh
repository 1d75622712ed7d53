#!/bin/sh
# Build the guest's small initramfs: a static busybox, the modules needed to
# reach the root filesystem (virtio-blk, ext4) and the host share (9p), and
# qemu/initramfs-init as /init.
#
# Usage: qemu/mkinitramfs.sh KVER OUT
# Env:   MODDIR  the modules tree's root (default /); a kernel with the
#                boot modules built in gets an initramfs without modules
set -eu

kver=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mods="virtio_blk ext4 9pnet_virtio 9p"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/proc" "$work/sys" "$work/dev" "$work/newroot" \
	"$work/lib/modules"
cp /bin/busybox "$work/bin/busybox"
cp "$here/initramfs-init" "$work/init"
chmod +x "$work/init"

# Dependencies first, each module once, in load order.
: > "$work/lib/modules/order"
for m in $mods; do
	modprobe -d "${MODDIR:-/}" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r path; do
	name=$(basename "$path")
	case "$name" in
	*.xz)  xz -dc "$path" > "$work/lib/modules/${name%.xz}"; name=${name%.xz} ;;
	*.zst) zstd -qdc "$path" > "$work/lib/modules/${name%.zst}"; name=${name%.zst} ;;
	*)     cp "$path" "$work/lib/modules/$name" ;;
	esac
	echo "$name" >> "$work/lib/modules/order"
done

(cd "$work" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: built $out ($(du -k "$out" | cut -f1) KiB)"
