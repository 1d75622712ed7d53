#!/bin/sh
# PID 1 inside the guest's rootfs. Runs the job the host wrote into the
# share, saves its status, dmesg and taint next to it, and powers off.
#
# Kernel command line: atomkms_guest.out=<dir under /host> names that
# directory (not atomkms.out=, which modprobe would pass to the module);
# it holds job.sh. Everything the host reads back is written there.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
hostname atomkms-guest

# The guest cannot suspend: QEMU has S3/S4 off, and s2idle never wakes
# under TCG. Hide every sleep state so igt's suspend subtests skip rather
# than freeze the guest for good.
: > /run/no-sleep-states
for f in /sys/power/state /sys/power/mem_sleep /sys/power/disk; do
	[ -e "$f" ] && mount --bind /run/no-sleep-states "$f"
done

out=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	atomkms_guest.out=*) out=/host/${arg#atomkms_guest.out=} ;;
	esac
done

# The debug kernel's leak detector: what boot left unreferenced is not the
# job's (clear), and a scan after the job and the module's removal lists
# what they leaked (run-guest.sh fails the run on any report).
kmemleak=/sys/kernel/debug/kmemleak
[ -w "$kmemleak" ] || kmemleak=

if [ -n "$out" ] && [ -f "$out/job.sh" ] &&
	dmesg | grep -qE 'BUG:|WARNING:|Oops|Call Trace:'; then
	# A kernel that reported a problem while it booted, before atomkms
	# was loaded (under TCG, now and then: a stray early interrupt in
	# the debug kernel, an int3 while patching text), is no ground for
	# the job, and KASAN reports once a boot: run-guest.sh boots again.
	dmesg > "$out/boot-dirty.txt"
	echo "atomkms-guest: the kernel reported a problem while booting: no job"
elif [ -n "$out" ] && [ -f "$out/job.sh" ]; then
	[ -z "$kmemleak" ] || echo clear > "$kmemleak"
	cat /proc/sys/kernel/tainted > "$out/tainted.before"
	echo "atomkms-guest: job start $(cut -d' ' -f1 /proc/uptime)"
	if [ -e "$out/interactive" ]; then
		sh "$out/job.sh" < /dev/console > /dev/console 2>&1
	else
		sh "$out/job.sh" > "$out/job.log" 2>&1 < /dev/null
	fi
	echo $? > "$out/rc.tmp"
	echo "atomkms-guest: job end $(cut -d' ' -f1 /proc/uptime)"
	# Let the module go: its removal path is tested by every run.
	# The job's last out-fences are let go within a tenth of a second
	# of its exit (module/atomkms_out_fence.c): try for two seconds.
	if grep -q '^atomkms ' /proc/modules; then
		for try in 1 2 3 4 5 6 7 8 9 10 last; do
			rmmod atomkms > "$out/rmmod.log" 2>&1 && break
			[ $try = last ] && echo "rmmod failed" >> "$out/rmmod.log"
			sleep 0.2
		done
	fi
	if [ -n "$kmemleak" ]; then
		# Objects younger than 5 s are not reported yet.
		sleep 5
		echo scan > "$kmemleak"
		echo scan > "$kmemleak"
		cat "$kmemleak" > "$out/kmemleak.txt"
	fi
	dmesg > "$out/dmesg.txt"
	cat /proc/sys/kernel/tainted > "$out/tainted"
	mv "$out/rc.tmp" "$out/rc"
else
	echo "atomkms-guest: no job (atomkms_guest.out=$out)"
fi
sync
# PID 1 must outlive the power-off, and must not load a program from the
# disk it shuts down (an exec after the trigger once failed with an I/O
# error, and init's exit panicked the kernel): start the wait first. On a
# loaded host the power-off once outlasted the sleep itself (it was gone
# with the disk, and init's exit panicked the kernel again), so init then
# waits on shell builtins alone until the machine is off.
sleep 30 &
echo o > /proc/sysrq-trigger
while :; do
	wait
done
