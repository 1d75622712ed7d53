# shellcheck shell=sh
# The kernels atomkms builds for and boots, by name: sourced by the
# scripts that build the module or boot a guest (never run).
#
#   6.12   Debian's 6.12 LTS (linux-headers-6.12-amd64 on the host): the
#          default; `make`, the host's DKMS and the debug kernel's base
#   7.3    Debian trixie-backports' 7.3 (image, headers, linux-source-7.3),
#          built in a trixie chroot (its kbuild tools need trixie's C
#          library) and booted
#   7.2    trixie-backports' 7.2 headers: built, not booted (the middle of
#          the range, past the atomic-state rename)
#   debug  the debug kernel (qemu/build-debug-kernel.sh), from 6.12's source
#
# kernel_select NAME sets:
#   k_name     NAME ("debian", the old name of 6.12, is taken as 6.12)
#   k_kver     the kernel release (uname -r)
#   k_root     the chroot kbuild runs in, or empty for the host
#   k_kdir     the headers, as a path inside k_root
#   k_ko       atomkms.ko for it, relative to the project
#   k_boot     1 if a guest can boot it
#   k_src      its linux-source tarball (sw_sync and vkmsref build from it),
#              or empty
#   k_vmlinuz k_initrd k_kmods   what the guest boots and mounts as /lib/modules
# and fails with the list of names for any other NAME. Nothing is checked
# for existence here: kernel_need says what is missing.

ATOMKMS_KERNELS="6.12 7.3 7.2 debug"
kcache=${CACHE:-/var/cache/atomkms}
# The trixie chroot with the 7.x headers, 7.3's kernel and its modules.
ktrixie=$kcache/kernels/trixie

kernel_select() {
	k_name=$1 k_root= k_boot=1 k_vmlinuz= k_initrd= k_kmods= k_src=
	case $k_name in
	6.12|debian)
		k_name=6.12
		k_kver=$(ls -1d /usr/src/linux-headers-6.12*-amd64 2>/dev/null |
			sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
		k_kdir=/usr/src/linux-headers-$k_kver
		k_ko=atomkms.ko
		k_vmlinuz=/boot/vmlinuz-$k_kver
		k_initrd=$kcache/initramfs-$k_kver.cpio.gz
		k_kmods=/lib/modules
		k_src=/usr/src/linux-source-6.12.tar.xz
		;;
	7.3|7.2)
		k_root=$ktrixie
		k_kver=$(ls -1d "$ktrixie/usr/src/linux-headers-$k_name".*-amd64 2>/dev/null |
			sed 's|.*/linux-headers-||' | sort -V | tail -n 1)
		k_kdir=/usr/src/linux-headers-$k_kver
		k_ko=build/kmod-$k_name/atomkms.ko
		if [ "$k_name" = 7.3 ]; then
			k_vmlinuz=$ktrixie/usr/lib/modules/$k_kver/vmlinuz
			k_initrd=$kcache/kernels/initramfs-$k_kver.cpio.gz
			k_kmods=$ktrixie/usr/lib/modules
			k_src=$kcache/kernels/linux-source-7.3.tar.xz
		else
			k_boot=0
		fi
		;;
	debug)
		k_kver=debug
		k_kdir=$kcache/debug-kernel/obj
		k_ko=build/debug-kmod/atomkms.ko
		k_vmlinuz=$kcache/debug-kernel/bzImage
		k_initrd=$kcache/debug-kernel/initramfs.cpio.gz
		k_kmods=$kcache/debug-kernel/mods/lib/modules
		;;
	*)
		echo "unknown kernel '$1': the supported kernels are $ATOMKMS_KERNELS" >&2
		return 2
		;;
	esac
}

# kernel_need: fail, saying what to run, if the selected kernel's headers
# (and, to boot it, its image) are not in place.
kernel_need() {
	if [ -z "$k_kver" ] || [ ! -d "$k_root$k_kdir" ]; then
		echo "no headers for kernel $k_name in ${k_root:-the host}: run make setup" >&2
		return 2
	fi
	if [ "${1:-}" = boot ]; then
		[ "$k_boot" = 1 ] || {
			echo "kernel $k_name is built, not booted: boot one of 6.12 7.3 debug" >&2
			return 2
		}
		for f in "$k_vmlinuz" "$k_initrd" "$k_kmods"; do
			[ -r "$f" ] || { echo "kernel $k_name: missing $f: run make setup" >&2; return 2; }
		done
	fi
	return 0
}

# kernel_kbuild DIR [TARGET...]: kbuild's TARGETs (default: modules) of
# the external module in DIR for the selected kernel. On the host it
# builds in DIR; for a chroot kernel it copies DIR, timestamps kept, to
# CHROOT/w/DIR (so that a rebuild is incremental), builds there with
# /proc mounted (objtool reads it), and copies the *.ko back into DIR.
kernel_kbuild() {
	kb_dir=$1
	shift
	[ $# -gt 0 ] || set -- modules
	if [ -z "$k_root" ]; then
		make -C "$k_kdir" M="$kb_dir" ${JOBS:+-j$JOBS} "$@"
		return
	fi
	kb_work=/w$kb_dir
	mkdir -p "$k_root$kb_work"
	(cd "$kb_dir" && find . ! -name '*.ko' ! -name '*.o' -print |
		cpio -pdmu --quiet "$k_root$kb_work") || return 1
	kb_mounted=
	mountpoint -q "$k_root/proc" || { mount -t proc proc "$k_root/proc" && kb_mounted=1; }
	chroot "$k_root" env LC_ALL=C.UTF-8 make -C "$k_kdir" M="$kb_work" \
		${JOBS:+-j$JOBS} "$@"
	kb_rc=$?
	[ -z "$kb_mounted" ] || umount "$k_root/proc"
	[ $kb_rc = 0 ] || return $kb_rc
	for kb_ko in "$k_root$kb_work"/*.ko; do
		[ ! -f "$kb_ko" ] || cp -p "$kb_ko" "$kb_dir/"
	done
}

# kernel_sh CMD: CMD through sh on the selected kernel's system: the host,
# or its chroot (non-interactive apt, C.UTF-8).
kernel_sh() {
	if [ -z "$k_root" ]; then
		env DEBIAN_FRONTEND=noninteractive sh -c "$1"
	else
		chroot "$k_root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -c "$1"
	fi
}
