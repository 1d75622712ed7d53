#!/bin/sh
# Build the guest's debug kernel from linux-source-6.12: lockdep, KASAN,
# UBSAN, kmemleak, DEBUG_OBJECTS, DEBUG_LIST, fault injection (failslab,
# fail_page_alloc, fail_function), KUnit with DRM's helpers, SW_SYNC and
# VGEM. Debian's kernel has none of them.
#
# The config is x86_64_defconfig and kvm_guest.config with what a QEMU
# guest never needs switched off (other DRM drivers, sound, USB, networking
# hardware, ...), and everything the guest boots with built in (virtio-blk,
# ext4, 9p, DRM and its helpers), so the debug guest needs no modules but
# atomkms itself. The result lands in $CACHE/debug-kernel:
#   bzImage          the kernel
#   obj/             the build tree: atomkms.ko is built against it
#   mods/            its modules tree (modules.builtin), the guest's
#                    /lib/modules
#   kver             its release string
#   build.log        the build's output
#
# Usage: qemu/build-debug-kernel.sh   (does nothing when up to date)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${CACHE:-/var/cache/atomkms}
dir=$cache/debug-kernel
src=/usr/src/linux-source-6.12.tar.xz
jobs=${JOBS:-$(nproc)}

[ -r "$src" ] || { echo "debug-kernel: no $src (apt install linux-source-6.12)" >&2; exit 1; }
if [ -f "$dir/stamp" ] && [ "$dir/stamp" -nt "$src" ] && [ "$dir/stamp" -nt "$0" ]; then
	echo "debug-kernel: up to date ($(cat "$dir/kver"))"
	exit 0
fi

start=$(date +%s)
mkdir -p "$dir"
rm -f "$dir/stamp"
if [ ! -f "$dir/linux/.unpacked" ] || [ "$src" -nt "$dir/linux/.unpacked" ]; then
	echo "debug-kernel: unpacking $src"
	rm -rf "$dir/linux" "$dir/obj"
	mkdir -p "$dir/linux"
	tar -xJf "$src" -C "$dir/linux" --strip-components=1
	touch "$dir/linux/.unpacked"
fi
obj=$dir/obj
mkdir -p "$obj"
k() { make -s -C "$dir/linux" O="$obj" "$@"; }

# fail STEP: the end of the log, and out.
fail() {
	tail -n 30 "$dir/build.log" >&2
	echo "debug-kernel: $1 failed (log: $dir/build.log)" >&2
	exit 1
}
k x86_64_defconfig kvm_guest.config > "$dir/build.log" 2>&1 || fail "make defconfig"
cfg() { "$dir/linux/scripts/config" --file "$obj/.config" "$@"; }
# What a TCG guest with virtio disks never uses: off, for build time.
cfg -d DRM_I915 -d DRM_AMDGPU -d DRM_RADEON -d DRM_NOUVEAU -d DRM_VIRTIO_GPU \
    -d SOUND -d USB_SUPPORT -d WLAN -d WIRELESS -d CFG80211 -d MAC80211 \
    -d ETHERNET -d NETDEVICES -d NET_VENDOR_INTEL -d ATA -d SCSI -d MD \
    -d HID -d INPUT_JOYSTICK -d INPUT_TABLET -d INPUT_TOUCHSCREEN \
    -d NFS_FS -d NETFILTER -d IPV6 -d AGP -d FB -d MACINTOSH_DRIVERS \
    -d HAMRADIO -d BT -d RFKILL -d NET_SCHED -d IP_MULTICAST -d XFRM \
    -d CPU_FREQ -d HIBERNATION -d SUSPEND -d KVM -d XEN \
    -d PERF_EVENTS_AMD_UNCORE -d PERF_EVENTS_INTEL_UNCORE \
    -d FTRACE -d FUNCTION_TRACER -d DEBUG_INFO -d DEBUG_INFO_DWARF5 \
    -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE \
    -d MODULE_SIG -d SECURITY_SELINUX -d AUDIT -d SECURITY -d INTEGRITY \
    -d INET -d EFI -d EFI_STUB -d X86_MCE -d MICROCODE -d X86_CPU_RESCTRL \
    -d BPF_SYSCALL -d KEXEC -d CRASH_DUMP -d HWMON -d THERMAL -d WATCHDOG \
    -d POWER_SUPPLY -d INPUT_MOUSE -d INPUT_KEYBOARD -d ISO9660_FS \
    -d MSDOS_FS -d VFAT_FS -d FAT_FS -d QUOTA -d AUTOFS_FS -d FUSE_FS \
    -d PCCARD -d BLK_DEV_LOOP -d CDROM -d NUMA -d AMD_MEM_ENCRYPT \
    -d X86_SGX -d HYPERV -d PARAVIRT_TIME_ACCOUNTING -d LOGO \
    -d NFSD -d CIFS -d EXT4_FS_SECURITY -d PROFILING -d KPROBE_EVENTS \
    -d UPROBE_EVENTS -d NET_VENDOR_AMD -d I2C_I801 -d INPUT_EVDEV
# The guest boots with these built in: no initramfs modules to match.
cfg -e VIRTIO -e VIRTIO_PCI -e VIRTIO_BLK -e HW_RANDOM_VIRTIO -e EXT4_FS \
    -e NET_9P -e NET_9P_VIRTIO -e 9P_FS -e 9P_FS_POSIX_ACL \
    -e DEVTMPFS -e TMPFS -e CONFIGFS_FS -e DEBUG_FS \
    -e MODULES -e MODULE_UNLOAD -e LOCALVERSION_AUTO \
    --set-str LOCALVERSION -atomkms-debug \
    -e DRM -e DRM_KMS_HELPER -e DRM_GEM_SHMEM_HELPER -e DRM_VGEM \
    -e DRM_FBDEV_EMULATION -e SYNC_FILE -e SW_SYNC -e DMABUF_HEAPS \
    -e BLK_DEV_INITRD -e RD_GZIP
# The debugging this kernel exists for.
cfg -e DEBUG_KERNEL -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e DEBUG_LOCKDEP \
    -e KASAN -e KASAN_GENERIC -e KASAN_INLINE -e KASAN_VMALLOC \
    -e UBSAN -e UBSAN_BOUNDS -e UBSAN_SHIFT -d UBSAN_ALIGNMENT \
    -e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF \
    -d DEBUG_KMEMLEAK_AUTO_SCAN --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 65536 \
    -e DEBUG_OBJECTS -e DEBUG_OBJECTS_FREE -e DEBUG_OBJECTS_TIMERS \
    -e DEBUG_OBJECTS_WORK -e DEBUG_OBJECTS_RCU_HEAD \
    -e DEBUG_OBJECTS_PERCPU_COUNTER --set-val DEBUG_OBJECTS_ENABLE_DEFAULT 1 \
    -e DEBUG_LIST -e FAULT_INJECTION -e FAILSLAB -e FAIL_PAGE_ALLOC \
    -e FAULT_INJECTION_DEBUG_FS -e KPROBES -e FUNCTION_ERROR_INJECTION \
    -e FAIL_FUNCTION -e FAULT_INJECTION_STACKTRACE_FILTER \
    -e KUNIT -e KUNIT_DEBUGFS -d KUNIT_ALL_TESTS -m DRM_KUNIT_TEST \
    -e PANIC_ON_OOPS -d RANDOMIZE_BASE
k olddefconfig >> "$dir/build.log" 2>&1 || fail "make olddefconfig"
# Fail loudly when olddefconfig dropped what we asked for (a dependency
# that this source does not satisfy).
missing=
for o in PROVE_LOCKING DEBUG_ATOMIC_SLEEP KASAN UBSAN DEBUG_KMEMLEAK \
	DEBUG_OBJECTS DEBUG_LIST FAILSLAB FAIL_PAGE_ALLOC FAIL_FUNCTION \
	FUNCTION_ERROR_INJECTION KUNIT SW_SYNC DRM_VGEM \
	DRM DRM_KMS_HELPER DRM_GEM_SHMEM_HELPER VIRTIO_BLK EXT4_FS 9P_FS; do
	grep -q "^CONFIG_$o=y" "$obj/.config" || missing="$missing $o"
done
grep -q "^CONFIG_DRM_KUNIT_TEST_HELPERS=[ym]" "$obj/.config" ||
	missing="$missing DRM_KUNIT_TEST_HELPERS"
[ -z "$missing" ] || {
	echo "debug-kernel: the config lost:$missing (see $obj/.config)" >&2
	exit 1
}

echo "debug-kernel: building with $jobs jobs (log: $dir/build.log)"
k -j"$jobs" bzImage modules >> "$dir/build.log" 2>&1 || fail "the build"
rm -rf "$dir/mods"
k INSTALL_MOD_PATH="$dir/mods" INSTALL_MOD_STRIP=1 modules_install \
	>> "$dir/build.log" 2>&1 || fail "modules_install"
kver=$(k -s kernelrelease)
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
echo "$kver" > "$dir/kver"
MODDIR=$dir/mods "$here/mkinitramfs.sh" "$kver" "$dir/initramfs.cpio.gz"
touch "$dir/stamp"
echo "debug-kernel: built $kver in $(( $(date +%s) - start )) s"
