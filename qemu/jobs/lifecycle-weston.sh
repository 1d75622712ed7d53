#!/bin/sh
# Guest side of the lifecycle test with weston as the client (issue 16,
# item 6), in the clients image under the debug kernel, with --no-module:
# the job loads build/debug-kmod/atomkms.ko itself (1024x768, as the
# clients stage). Each cycle starts weston (qemu/jobs/weston.sh: DRM
# backend, pixman, test/clients/weston.ini) on the device and proves that
# it drives the output: its log shows Virtual-N enabled, the live CRC is
# that of its background alone (a 1024x768 frame of 0x204080, computed by
# frame-check), then, once weston-flower runs, no longer is. Then, by
# cycle, in turn:
#
#   1 kill     unbind under weston; weston must live on, its next commits
#              failing with ENODEV (weston-flower is stopped to make it
#              repaint); stop weston, bind
#   2 held     the same unbind, then bind while weston still holds the
#              old device, smoke-test the new one, then stop weston
#   3 module   rmmod (delete_module(2), O_NONBLOCK, as rmmod calls it)
#              must fail with EAGAIN while weston holds the device, again
#              after an unbind under weston (weston lives on); stop weston,
#              then rmmod must succeed (within 5 s), and insmod
#
# The new device must pass a smoke test: modetest sets the mode and flips
# two framebuffers with events (60 flips, its "freq:" line) while the live
# CRC shows both. Then a kmemleak scan (qemu/jobs/kmemleak.sh); the guest
# runner fails the run on any kernel report.
#
# Usage (in the guest): qemu/jobs/lifecycle-weston.sh OUTDIR [CYCLES [SCAN]]
#   CYCLES defaults to 3; a kmemleak scan after every SCAN-th cycle (1)
#   and the last (one takes 20 s); KO=path overrides the module.
# Output: "ok"/"not ok" per cycle with what it saw and its time, then
# "lifecycle-weston: N passed, N failed". Weston's and modetest's logs of
# cycle C stay in OUTDIR/weston-C.log and OUTDIR/modetest-C.log.
set -u
out=$1
cycles=${2:-3}
scan_every=${3:-1}
ko=${KO:-/host/build/debug-kmod/atomkms.ko}
params="pref_width=1024 pref_height=768"
drv=/sys/bus/platform/drivers/atomkms
fc=/host/build/bin/frame-check
passed=0 failed=0
. /host/qemu/jobs/kmemleak.sh
now() { cut -d' ' -f1 /proc/uptime; }
# step WHAT: a line in OUTDIR/lifecycle-weston.log, with the guest's uptime.
step() { echo "$(now) cycle $c: $*" >> "$out/lifecycle-weston.log"; }
# seat.sh triggers udev events for every device: under the debug kernel
# udevd takes 100 s over them. Weston needs the DRM devices' alone.
udevadm() {
	if [ "$1" = trigger ]; then
		command udevadm trigger --subsystem-match=drm
	else
		command udevadm "$@"
	fi
}
c=0
step "setup"
. /host/qemu/jobs/seat.sh
unset -f udevadm
. /host/qemu/jobs/weston.sh
step "udevd and seatd are up"

# Weston's frame with no client: 1024x768 of its background, 0x204080, as
# an XRGB8888 dump for frame-check (bytes B, G, R, X).
perl -e 'print "\x80\x40\x20\x00" x (1024 * 768)' > /tmp/bg.raw
bg=raw:1024x768:4096:/tmp/bg.raw
step "background image made"

# delete_module(2) as rmmod calls it (O_NONBLOCK); exits with its errno.
# (kmod's rmmod refuses a module in use by its refcount alone, without
# asking the kernel.) 176: x86-64's __NR_delete_module; 2048: O_NONBLOCK.
unload() {
	perl -e 'my $n = "atomkms"; exit(syscall(176, $n, 2048) == 0 ? 0 : $! + 0)'
}

# Add "$1" to the cycle's failures.
bad() {
	why="${why:+$why; }$1"
}

# Start weston and weston-flower; fail unless weston drives the output.
weston_up() {
	if ! weston_start "$out" "weston-$c"; then
		bad "weston did not start: $(tail -n 3 "$out/weston-$c.log" | tr '\n' ' ')"
		return 1
	fi
	log=$out/weston-$c.log
	step "weston's socket is up"
	# The connector's name is Virtual-2 on a device bound while the old
	# one is still held: DRM numbers connectors of a type across devices.
	output=$(sed -n "s/.*Output '\(Virtual-[0-9]*\)' enabled.*/\1/p" "$log")
	[ -n "$output" ] || bad "weston enabled no Virtual output"
	# The desktop shell draws the background a moment after the socket.
	wait_for "$fc match $bg -n 3" 20 ||
		bad "the live frame never was weston's background: $($fc match $bg -n 1 | tr '\n' ' ')"
	step "the live frame is weston's background"
	WAYLAND_DISPLAY=wayland-weston weston-flower > "$out/weston-flower-$c.log" 2>&1 &
	flower=$!
	# $fc match exits 1 on another frame, 2 on an error.
	wait_for "$fc match $bg -n 3; [ \$? = 1 ]" 20 ||
		bad "weston-flower never showed on the live frame"
	step "weston-flower is on the live frame"
	[ -z "$why" ]
}

# Unbind under weston: weston must live on, its commits failing with
# ENODEV. Stopping weston-flower makes it repaint.
unbind_under_weston() {
	if ! echo atomkms > $drv/unbind; then
		bad "unbind failed"
		return 1
	fi
	step unbound
	stop $flower
	if wait_for "grep -q 'couldn.t commit new state: No such device' $log" 20; then
		enodev=$(grep -c 'couldn.t commit new state: No such device' "$log")
	else
		bad "weston made no commit after the unbind, or not one that failed with ENODEV"
	fi
	other=$(grep -iE "couldn.t commit|failed" "$log" | grep -v 'No such device')
	[ -z "$other" ] || bad "weston logged other failures: $(echo "$other" | head -n 3 | tr '\n' ' ')"
	kill -0 "$wp" 2> /dev/null || bad "weston died after the unbind: $(tail -n 3 "$log" | tr '\n' ' ')"
	step "weston's commits failed with ENODEV"
}

# Stop weston: SIGTERM must end it with status 0.
weston_down() {
	stop "$wp"
	step "weston stopped ($stop_rc)"
	[ "$stop_rc" = 0 ] || bad "weston exited with $stop_rc after SIGTERM: $(tail -n 3 "$log" | tr '\n' ' ')"
}

# A mode set on the new device, 60 page flips with events between two
# framebuffers, and the live CRC showing both.
smoke() {
	step "smoke test"
	conn=$(/host/build/bin/atomkms-info | sed -n 's/^  connector \([0-9]*\): Virtual-[0-9]*,.*/\1/p')
	rm -f /tmp/modetest.in
	mkfifo /tmp/modetest.in
	modetest -M atomkms -s "$conn:1024x768" -v < /tmp/modetest.in \
		> "$out/modetest-$c.log" 2>&1 &
	mp=$!
	exec 3> /tmp/modetest.in
	if ! wait_for "grep -q '^freq:' $out/modetest-$c.log" 30; then
		bad "smoke test: modetest flipped no 60 frames: $(tail -n 3 "$out/modetest-$c.log" | tr '\n' ' ')"
	else
		step "modetest flipped 60 frames"
		count=$($fc count -t 2)
		distinct=$(echo "$count" | sed -n 's/.* \([0-9]*\) distinct.*/\1/p')
		[ "${distinct:-0}" -ge 2 ] ||
			bad "smoke test: the live CRC does not show the flips: $count"
	fi
	echo >&3
	exec 3>&-
	wait $mp || bad "smoke test: modetest failed: $(tail -n 3 "$out/modetest-$c.log" | tr '\n' ' ')"
	step "smoke test done: $count"
}

if grep -q '^atomkms ' /proc/modules && ! rmmod atomkms; then
	echo "not ok - atomkms is loaded and will not unload"
	echo "lifecycle-weston: 0 passed, 1 failed"
	exit 1
fi
# What atomkms needs (drm_display_helper, ...), as qemu/run-guest.sh loads.
deps=$(modinfo -F depends "$ko" | tr ',' ' ')
[ -z "$deps" ] || modprobe -a $deps
insmod "$ko" $params || { echo "not ok - insmod $ko $params"; echo "lifecycle-weston: 0 passed, 1 failed"; exit 1; }
step "atomkms loaded"
t0=$(now)
c=1
while [ $c -le "$cycles" ]; do
	kind=$(echo "kill held module" | cut -d' ' -f$(((c - 1) % 3 + 1)))
	t=$(now)
	why= enodev=
	step "$kind"
	if weston_up; then
		case $kind in
		kill)
			unbind_under_weston
			weston_down
			echo atomkms > $drv/bind || bad "bind failed"
			what="stopped it, bound"
			;;
		held)
			unbind_under_weston
			echo atomkms > $drv/bind || bad "bind while weston holds the old device failed"
			what="bound while it held the old device"
			;;
		module)
			what="rmmod failed with EAGAIN under it (bound, then unbound), succeeded without it; insmod"
			unload
			rc=$?
			[ $rc = 11 ] || bad "rmmod under weston: errno $rc, not EAGAIN"
			unbind_under_weston
			unload
			rc=$?
			[ $rc = 11 ] || bad "rmmod under weston after the unbind: errno $rc, not EAGAIN"
			weston_down
			if ! wait_for unload 5; then
				unload
				bad "rmmod after weston is gone: errno $?"
			fi
			step "rmmod done"
			insmod "$ko" $params || bad "insmod failed"
			;;
		esac
		[ -n "$why" ] || smoke
		if [ $kind = held ]; then
			kill -0 "$wp" 2> /dev/null || bad "weston died after the bind"
			weston_down
		fi
	else
		stop $wp
	fi
	[ -z "${flower:-}" ] || kill $flower 2> /dev/null
	dt=$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		echo "ok - cycle $c ($kind): weston drove $output (background, then weston-flower, by CRC), lived on through the unbind ($enodev commits failed with ENODEV); $what; the new device passed the smoke test (${count#count: }); $dt s"
	else
		failed=$((failed + 1))
		echo "not ok - cycle $c ($kind): $why; $dt s"
	fi
	if [ $((c % scan_every)) = 0 ] || [ $c = "$cycles" ] || [ -n "$why" ]; then
		kmemleak_after "cycle-$c" "$out" || failed=$((failed + 1))
		step "kmemleak scanned"
	fi
	# A device may be gone for good: stop here.
	[ -z "$why" ] || break
	c=$((c + 1))
done
echo "# $((c > cycles ? cycles : c)) cycles in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s"
echo "lifecycle-weston: $passed passed, $failed failed"
[ $failed = 0 ]
