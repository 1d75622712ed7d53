#!/bin/sh
# dkms.conf's POST_BUILD: compress the module dkms built again, as kbuild
# compresses the kernel's own (scripts/Makefile.modinst). dkms 3.0.10
# (Debian 12) runs a plain `xz`, whose CRC64 check and 8 MiB dictionary
# the kernel's xz decoder refuses ("decompression failed with status 6");
# kmod 31 and later have the kernel decompress a .ko.xz (dkms issue 386).
#
# Usage: dkms-recompress.sh DIR   (dkms's copy of the module: ../KVER/ARCH/module)
set -eu

for f in "$1"/*.ko.xz; do
	[ -f "$f" ] || continue
	ko=${f%.xz}
	xz -dc "$f" > "$ko"
	xz --check=crc32 --lzma2=dict=1MiB -f "$ko"
	echo "dkms-recompress: $f (xz, CRC32, 1 MiB dictionary)"
done
