#!/bin/sh
# The 7.x kernels of qemu/kernels.sh, from Debian's trixie-backports: a
# trixie chroot (CACHE/kernels/trixie) with the newest 7.3 and 7.2 headers,
# whose kbuild tools need trixie's C library, 7.3's kernel and modules and
# dkms; an initramfs for the guest (CACHE/kernels/initramfs-KVER.cpio.gz);
# and linux-source-7.3 (CACHE/kernels/linux-source-7.3.tar.xz: sw_sync and
# the reference vkms build from it). Nothing is installed on the host.
#
# Usage: qemu/setup-kernels.sh   (fast when the stamp says it is done)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/kernels.sh"
mirror=${ATOMKMS_MIRROR:-http://deb.debian.org/debian}
dir=$kcache/kernels
log=$dir/setup.log
stamp=$dir/stamp
# The chroot's packages: kbuild's tools and what they need.
pkgs=build-essential,bc,flex,bison,libelf-dev,libssl-dev,kmod,xz-utils,ca-certificates

[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(cat "$0" "$here/kernels.sh" | cksum)" ] && {
	echo "kernels: up to date ($(ls -1d "$ktrixie"/usr/src/linux-headers-7.*-amd64 | sed 's|.*/linux-headers-||' | tr '\n' ' '))"
	exit 0
}
mkdir -p "$dir"
: > "$log"
fail() {
	echo "kernels: FAILED: $1 (log $log)" >&2
	tail -n 20 "$log" >&2
	exit 1
}

if [ ! -f "$ktrixie/.chroot-ok" ]; then
	echo "kernels: debootstrap trixie into $ktrixie (a minute)"
	rm -rf "$ktrixie.tmp" "$ktrixie"
	debootstrap --variant=minbase --include="$pkgs" trixie "$ktrixie.tmp" "$mirror" \
		>> "$log" 2>&1 || { rm -rf "$ktrixie.tmp"; fail "debootstrap of trixie"; }
	echo "deb $mirror trixie-backports main" > "$ktrixie.tmp/etc/apt/sources.list.d/backports.list"
	mv "$ktrixie.tmp" "$ktrixie"
	touch "$ktrixie/.chroot-ok"
fi
kernel_select 7.3
in_root() { kernel_sh "$1"; }

in_root "apt-get update -q" >> "$log" 2>&1 || fail "apt-get update in the chroot"
# The newest package of a series: linux-headers-7.3.N+deb13-amd64.
newest() {
	in_root "apt-cache search --names-only '^linux-$1-$2\\.[0-9]+\\+deb13-amd64\$'" |
		cut -d' ' -f1 | sort -V | tail -n 1
}
h73=$(newest headers 7.3) h72=$(newest headers 7.2)
[ -n "$h73" ] && [ -n "$h72" ] ||
	fail "trixie-backports offers no 7.3 or 7.2 headers (found '${h73}' '${h72}')"
kver73=${h73#linux-headers-}
# 7.3's kernel and modules too, as a trixie-backports user has them: the
# guest boots that vmlinuz and mounts the chroot's /usr/lib/modules, so
# that the chroot's DKMS builds what the guest loads (test/dkms.sh).
# (linux-image-* would add an initramfs generator the guest does not use.)
echo "kernels: installing $h73, $h72, linux-modules-$kver73 and dkms in the chroot"
in_root "apt-get install -y -q --no-install-recommends $h73 $h72 \
	linux-binary-$kver73 linux-modules-$kver73 dkms" >> "$log" 2>&1 ||
	fail "apt-get install $h73 $h72 linux-modules-$kver73 dkms"
[ -r "$ktrixie/usr/lib/modules/$kver73/vmlinuz" ] || fail "no vmlinuz in linux-binary-$kver73"
MODDIR=$ktrixie/usr "$here/mkinitramfs.sh" "$kver73" "$dir/initramfs-$kver73.cpio.gz"

echo "kernels: fetching linux-source-7.3"
rm -rf "$ktrixie/dl"
mkdir -p "$ktrixie/dl"
in_root "cd /dl && apt-get download -q linux-source-7.3" >> "$log" 2>&1 ||
	fail "apt-get download linux-source-7.3"
dpkg-deb --fsys-tarfile "$ktrixie"/dl/linux-source-7.3_*.deb |
	tar -xO --wildcards '*/linux-source-7.3.tar.xz' > "$k_src.tmp"
mv "$k_src.tmp" "$k_src"
rm -rf "$ktrixie/dl"

cat "$0" "$here/kernels.sh" | cksum > "$stamp"
echo "kernels: done ($kver73 booted, ${h72#linux-headers-} built; chroot $ktrixie)"
