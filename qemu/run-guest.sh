#!/bin/bash
# Boot the QEMU guest (TCG, Debian's 6.12 or 7.3 kernel, the sid rootfs image),
# load atomkms with the given parameters and run one command in it. The
# project directory is the guest's /host; results land in build/guest/NAME.
#
# Usage: qemu/run-guest.sh [--name NAME] [--timeout SECONDS]
#          [--params "num_crtcs=2 ..."] [--no-module] [--interactive] [--show]
#          [--icount] [--image igt|clients] [--kernel 6.12|7.3|debug]
#          -- COMMAND [ARGS...]
#
# --image clients boots the clients image (weston, sway, kmscube, modetest:
# qemu/mkrootfs.sh) instead of the igt one.
#
# --kernel NAME (or GUEST_KERNEL=NAME) boots one of qemu/kernels.sh's
# kernels with the atomkms.ko built for it: 6.12 (the default, make),
# 7.3 (make KERNEL=7.3: build/kmod-7.3/atomkms.ko) or debug. Any other
# name fails at once with the list.
#
# --kernel debug boots the debug kernel
# (qemu/build-debug-kernel.sh: lockdep, KASAN, UBSAN, kmemleak,
# DEBUG_OBJECTS, fault injection, KUnit) with the atomkms.ko built against
# it (make module-debug: build/debug-kmod/atomkms.ko). Its kernel-log check
# also fails on kmemleak's "unreferenced object" reports (guest-main.sh
# scans after the job) and ODEBUG reports, and lets KUnit's test taint by.
#
# --icount (or GUEST_CLOCK=icount): the guest's clock counts the
# instructions it executes (QEMU -icount shift=0,sleep=off: one
# nanosecond each, idle time skipped) instead of following the host's.
# Under plain TCG the host's scheduling of QEMU's threads shows up in the
# guest as stalls of a millisecond or more, which fail igt's sub-frame
# budgets without any fault of the driver; with -icount the guest sees
# only the time its own code takes. The cost: a guest CPU of 10^9
# instructions a second of its time (a 1080p composition with CRC is
# about 16 million). One vCPU: icount runs every vCPU in turn on one host
# thread, and with two a task spinning on a mutex whose owner sits on the
# other vCPU spins until QEMU switches vCPUs (milliseconds).
#
# Exit status: the command's, or 124 when the guest did not finish in time,
# or 125 when the guest died, or 126 when its kernel log shows a warning,
# oops, BUG, lockdep report or new taint.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-/var/cache/atomkms}
name=guest timeout=600 params= module=1 interactive=0 show=0 mem=${GUEST_MEM:-3072}
clock=${GUEST_CLOCK:-host} image=igt kernel_kind=${GUEST_KERNEL:-6.12}
while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--params) params=$2; shift 2 ;;
	--no-module) module=0; shift ;;
	--interactive) interactive=1; shift ;;
	--show) show=1; shift ;;
	--icount) clock=icount; shift ;;
	--image) image=$2; shift 2 ;;
	--kernel) kernel_kind=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "run-guest: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "run-guest: no command" >&2; exit 2; }

. "$top/qemu/kernels.sh"
kernel_select "$kernel_kind" || exit 2
kernel_need boot || exit 2
kernel=$k_vmlinuz initrd=$k_initrd kmods=$k_kmods ko=$k_ko kargs=
if [ "$k_name" = debug ]; then
	# Its ACPI interpreter runs QEMU's PCI interrupt routing method
	# (_PRT, a While loop) so slowly that ACPICA aborts it after 30 s,
	# four times a boot (2 minutes): route interrupts without ACPI.
	# no5lvl: QEMU's "max" CPU has LA57, and while identify_cpu() clears
	# and refills the boot CPU's feature bits (before alternatives are
	# patched), pgtable_l5_enabled() reads false; an interrupt taken
	# then makes KASAN see the 5-level direct map as a wild access
	# ("wild-memory-access in do_raw_spin_lock", one boot in ten).
	# 4-level paging has no such window.
	kargs="pci=noacpi no5lvl"
fi
case $image in
igt) rootfs=$cache/rootfs.ext4 ;;
clients) rootfs=$cache/rootfs-clients.ext4 ;;
*) echo "run-guest: --image must be igt or clients, not $image" >&2; exit 2 ;;
esac
[ -r "$rootfs" ] || { echo "run-guest: missing $rootfs: run make setup" >&2; exit 2; }
case $k_name in
6.12) make_ko="make" ;;
debug) make_ko="make module-debug" ;;
*) make_ko="make KERNEL=$k_name" ;;
esac
[ $module = 0 ] || [ -r "$top/$ko" ] ||
	{ echo "run-guest: no $ko: run $make_ko" >&2; exit 2; }

rel=build/guest/$name
out=$top/$rel
rm -rf "$out"
mkdir -p "$out"
{
	echo "set -e"
	if [ $module = 1 ]; then
		# The debug kernel has DRM built in: no dependencies to load.
		deps=$(modinfo -F depends "$top/$ko" | tr ',' ' ')
		[ -z "$deps" ] || echo "modprobe -a $deps"
		echo "insmod /host/$ko $params"
	fi
	echo "cd /host"
	printf 'exec'
	printf ' %q' "$@"
	echo
} > "$out/job.sh"
[ $interactive = 0 ] || touch "$out/interactive"

case $clock in
host) accel=(-accel tcg,thread=multi -smp 2) ;;
icount) accel=(-accel tcg,thread=single -icount shift=0,sleep=off -smp 1) ;;
*) echo "run-guest: GUEST_CLOCK must be host or icount, not $clock" >&2; exit 2 ;;
esac
qemu=(qemu-system-x86_64 "${accel[@]}" -m "$mem"
	-cpu max -nodefaults -no-user-config -nographic -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 loglevel=4 atomkms_guest.out=$rel $kargs"
	-drive "file=$rootfs,if=virtio,format=raw,snapshot=on"
	-virtfs "local,path=$top,mount_tag=host,security_model=none,id=host"
	-virtfs "local,path=$kmods,mount_tag=kmods,security_model=none,readonly=on,id=kmods"
	-global PIIX4_PM.disable_s3=1 -global PIIX4_PM.disable_s4=1
	-device virtio-rng-pci)

start=$(date +%s.%N)
if [ $interactive = 1 ]; then
	timeout -k 5 "$timeout" "${qemu[@]}" -serial mon:stdio
	qrc=$?
else
	# Under TCG the guest kernel now and then reports a problem while it
	# boots, long before atomkms is loaded: with thread=multi an int3
	# oops while patching its own text (init never starts: no
	# tainted.before), or in the debug kernel a KASAN report on a stray
	# early interrupt (guest-main.sh then runs no job: boot-dirty.txt).
	# Boot again, up to twice, keeping the console. (The serial console
	# ends its lines in CR LF.)
	for attempt in 1 2 3; do
		timeout -k 5 "$timeout" "${qemu[@]}" -serial "file:$out/console.log" \
			< /dev/null > "$out/qemu.log" 2>&1
		qrc=$?
		[ $qrc = 124 ] || [ $qrc = 137 ] || [ $attempt = 3 ] ||
			{ [ ! -f "$out/boot-dirty.txt" ] &&
			  { [ -f "$out/tainted.before" ] ||
			    ! grep -q 'Modules linked in:[[:space:]]*$' "$out/console.log"; }; } ||
			{
				echo "run-guest[$name]: boot $attempt reported a kernel problem before the job started: booting again" >&2
				mv "$out/console.log" "$out/console-boot$attempt.log"
				[ ! -f "$out/boot-dirty.txt" ] ||
					mv "$out/boot-dirty.txt" "$out/boot-dirty$attempt.txt"
				continue
			}
		break
	done
fi
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f\n", e - s }' > "$out/wall"

if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	echo "run-guest[$name]: TIMEOUT after ${timeout}s (guest hung); console: $rel/console.log" >&2
	exit 124
fi
if [ ! -f "$out/rc" ]; then
	echo "run-guest[$name]: guest died before the job finished (qemu rc $qrc); console: $rel/console.log" >&2
	tail -n 40 "$out/console.log" >&2 2>/dev/null
	exit 125
fi
rc=$(cat "$out/rc")
[ $show = 0 ] || cat "$out/job.log"

# Kernel health: the known lines about our unsigned out-of-tree module are
# expected; anything else that looks like a warning fails the run. The
# debug kernel says more, by design: kmemleak's banner (its reports,
# "unreferenced object", fail the run: guest-main.sh scans after the job
# and keeps them in kmemleak.txt; its "Cannot allocate a scan area" is
# a fault injected into kmemleak itself, which then scans the whole
# object, while a kmemleak that switched itself off fails the run),
# fault injection's "forcing a failure"
# (the jobs set verbose=1: one line, no stack), and KUnit's test taint
# (T, 262144; failed KUnit cases fail the job that ran them). A commit
# whose state was never latched ("flip_done timed out", the DRM core's
# 10 s wait) is a lost event: a driver bug, though only an *ERROR* line.
bad=$(grep -E 'WARNING:|BUG[: ]|Oops|general protection|Call Trace|lockdep|circular locking|possible recursive locking|soft lockup|hard LOCKUP|rcu_sched self-detected|rcu: INFO|blocked for more than|tainting kernel|taints kernel|UBSAN|ODEBUG: .*object type|ODEBUG: Out of memory|unreferenced object|kmemleak: .*disabled|kmemleak: Cannot allocate a kmemleak_object|turning off the locking correctness validator|debug_locks|flip_done timed out|hw_done timed out|commit wait timed out' \
	"$out/dmesg.txt" "$out/console.log" "$out"/kmemleak*.txt 2>/dev/null |
	grep -vE 'RCU lockdep checking is enabled|loading out-of-tree module taints kernel|loading test module taints kernel|module verification failed: signature and/or required key missing - tainting kernel')
# Taint bits other than O (4096, out-of-tree), E (8192, unsigned), L
# (16384: 7.x's sw_sync, which igt's and our fence tests load, sets it on
# every fence it makes, "inherently unsafe"; a real soft lockup prints
# "soft lockup", which the log check above fails on) and, under the debug
# kernel, T (262144, a KUnit test ran).
allowed=$((4096 | 8192 | 16384))
[ "$k_name" != debug ] || allowed=$((allowed | 262144))
taint=$(( $(cat "$out/tainted") & ~allowed ))
taint0=$(( $(cat "$out/tainted.before") & ~allowed ))
if [ -n "$bad" ] || [ $taint != $taint0 ]; then
	echo "run-guest[$name]: kernel log is not clean (taint $taint0 -> $taint):" >&2
	echo "$bad" | head -n 20 >&2
	echo "$bad" > "$out/kernel-bad.txt"
	exit 126
fi
exit "$rc"
