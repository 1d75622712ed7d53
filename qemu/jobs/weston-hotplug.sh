#!/bin/sh
# Guest side of the weston hotplug test (issue 13), in the clients image,
# a part of the clients stage (qemu/jobs/clients.sh) or alone:
#
#   qemu/run-guest.sh --image clients --name weston-hotplug \
#       --params "pref_width=1024 pref_height=768" -- \
#       sh qemu/jobs/weston-hotplug.sh /host/build/guest/weston-hotplug
#
# With systemd-udevd and seatd running (qemu/jobs/seat.sh: weston hears
# hotplug only through udev), userspace/atomkms-shape builds a configfs
# device "hotplug" of two Virtual connectors, each on a CRTC of its own,
# the second unplugged, and enables it: a new card beside the default
# device. Weston (qemu/jobs/weston.sh, --drm-device=that card) starts on
# it with one output. Then:
#
#   plug     connector 2 is plugged (status 1), with an injected EDID whose
#            preferred mode is 1280x1024 (test/clients/make-edid.pl) when
#            the running atomkms has connectors/N/edid, else with its
#            generated EDID: weston's log names the new output with the
#            connector's preferred mode, and weston-screenshooter's
#            screenshot (all outputs side by side) grows by its width
#   unplug   status 2: weston's log says the output is gone, and the
#            screenshot shrinks back to the first output alone
#   log      weston is still running, and its log holds nothing after
#            its start-up but the hotplug messages; no error or warning
#            anywhere in it
#
# Then the device is destroyed (atomkms-shape destroy). Prints "# " lines
# (the EDID path taken, sizes, latencies) and one "ok"/"not ok -
# weston-hotplug" line; exit status 0 on success. Logs, screenshots and
# udevadm monitor's output stay in OUTDIR (weston-hotplug*).
#
# HOTPLUG_BREAK=plug skips the plug write (the test must then fail);
# HOTPLUG_EDID=0 plugs with the generated EDID even where edid exists.
set -u
out=$1
shape=/host/userspace/atomkms-shape
mkedid=/host/test/clients/make-edid.pl
cfs=/sys/kernel/config/atomkms
dev=hotplug
edid_mode=1280x1024
t_start=$(date +%s.%N)
why=
bad() {
	why="${why:+$why; }$1"
	echo "# $1"
}

if [ ! -S /run/seatd.sock ]; then
	. /host/qemu/jobs/seat.sh
fi
. /host/qemu/jobs/weston.sh
modprobe configfs
grep -q ' /sys/kernel/config configfs' /proc/mounts ||
	mount -t configfs none /sys/kernel/config

# sub A B: A - B, in seconds to the millisecond.
sub() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'
}

# The width and height of a PNG, from its IHDR chunk: "W H".
png_size() {
	od -An -tu1 -j16 -N8 "$1" 2> /dev/null |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# shot N: a weston-screenshooter screenshot as OUTDIR/weston-hotplug-N.png;
# its size in $size.
shot() {
	rm -rf /tmp/hp-shot
	mkdir -p /tmp/hp-shot
	(cd /tmp/hp-shot && WAYLAND_DISPLAY=wayland-weston weston-screenshooter) \
		> "$out/weston-hotplug-shot-$1.log" 2>&1
	size=
	for f in /tmp/hp-shot/*.png; do
		[ -s "$f" ] || continue
		mv "$f" "$out/weston-hotplug-$1.png"
		size=$(png_size "$out/weston-hotplug-$1.png")
	done
	echo "# screenshot $1: ${size:-none} $(tr '\n' ' ' < "$out/weston-hotplug-shot-$1.log")"
}

# wait_shot N W: screenshots until one is W pixels wide (weston paints a
# new output a few frames after it enables it), up to 20 s.
wait_shot() {
	ws_end=$(($(date +%s) + 20))
	while :; do
		shot "$1"
		[ "${size%% *}" != "$2" ] || return 0
		[ "$(date +%s)" -lt $ws_end ] || return 1
		sleep 0.5
	done
}

# Lines of weston's log after line $1.
log_after() {
	tail -n +"$(($1 + 1))" "$out/weston-hotplug.log"
}

lines() {
	wc -l < "$out/weston-hotplug.log"
}

# wts MARK ERE: the time of day (s) of weston's first log line after line
# MARK that matches ERE (weston stamps lines [HH:MM:SS.mmm], UTC here).
wts() {
	log_after "$1" | grep -m 1 -E "$2" |
		sed -n 's/^.\([0-9]*\):\([0-9]*\):\([0-9.]*\)].*/\1 \2 \3/p' |
		awk '{ printf "%.3f", $1 * 3600 + $2 * 60 + $3 }'
}

# uevent UPTIME: "TIME CONNECTOR" of the first drm change uevent after
# UPTIME (udevadm monitor's KERNEL[uptime] stamps).
uevent() {
	awk -v t="$1" '
		/^KERNEL/ { ts = $1; sub(/^KERNEL./, "", ts); sub(/.$/, "", ts); ev = ($2 == "change" && ts + 0 > t + 0) }
		ev && /^CONNECTOR=/ { sub(/CONNECTOR=/, ""); print ts, $0; exit }
	' "$out/weston-hotplug-uevents.txt"
}

# latency WHAT MARK ERE UPTIME WALL TOOL: atomkms-shape's start (UPTIME,
# WALL; it ran TOOL s) -> the uevent -> weston's log line.
latency() {
	ue=$(uevent "$4")
	wl=$(wts "$2" "$3")
	day=$(awk -v w="$5" 'BEGIN { printf "%.3f", w % 86400 }')
	[ -n "$ue" ] && [ -n "$wl" ] || return 0
	echo "# $1: atomkms-shape (ran $6 s) -> uevent (CONNECTOR=${ue#* }) $(sub "${ue% *}" "$4") s -> weston's log $(sub "$wl" "$day") s: uevent -> weston $(sub "$(sub "$wl" "$day")" "$(sub "${ue% *}" "$4")") s"
}

# The card's connector directory in sysfs for configfs connector index $1
# (0-based, in the order they were made): the card's connectors sorted by
# their DRM object id.
sysfs_conn() {
	for s in /sys/class/drm/"$card"-*/connector_id; do
		echo "$(cat "$s") ${s%/connector_id}"
	done | sort -n | sed -n "$(($1 + 1))s/^[0-9]* //p"
}

udevadm monitor --kernel --property --subsystem-match=drm > "$out/weston-hotplug-uevents.txt" 2>&1 &
mon=$!

card=
if ! "$shape" -n virtual $dev 2 > "$out/weston-hotplug-shape.txt" 2>&1 ||
	! "$shape" unplug $dev virtual2 >> "$out/weston-hotplug-shape.txt" 2>&1 ||
	! "$shape" enable $dev >> "$out/weston-hotplug-shape.txt" 2>&1; then
	bad "atomkms-shape failed: $(tr '\n' ' ' < "$out/weston-hotplug-shape.txt")"
else
	card=$(sed -n "s|^$dev: enabled, /dev/dri/||p" "$out/weston-hotplug-shape.txt")
	[ -n "$card" ] || bad "no new card: $(tr '\n' ' ' < "$out/weston-hotplug-shape.txt")"
fi
udevadm settle
"$shape" list | sed 's/^/# /'

if [ -n "$card" ] && weston_start "$out" weston-hotplug --drm-device="$card"; then
	wait_for "grep -q 'enabled with head' $out/weston-hotplug.log" 30 ||
		bad "weston enabled no output"
	c1=$(sysfs_conn 0)
	m1=$(head -n 1 "$c1/modes")
	w1=${m1%x*}
	h1=${m1#*x}
	echo "# $card: connector 1 ${c1##*/}, $m1; weston started in $(sub $(date +%s.%N) $t_start) s"
	wait_shot 1 "$w1" || bad "first screenshot ${size:-missing}, want ${w1}x$h1"
	size1=$size

	# --- plug
	c2=$(sysfs_conn 1)
	n2=${c2##*/}
	n2=${n2#"$card"-}
	edid=$cfs/$dev/connectors/virtual2/edid
	if [ -e "$edid" ] && [ "${HOTPLUG_EDID:-1}" = 1 ]; then
		path="injected EDID ($edid_mode)"
		perl "$mkedid" "$edid_mode" > /tmp/hotplug.edid
		set -- /tmp/hotplug.edid
	else
		path="generated EDID ($([ -e "$edid" ] && echo HOTPLUG_EDID=0 || echo "this atomkms has no connectors/N/edid"))"
		set --
	fi
	echo "# plug: $n2 with the $path"
	mark=$(lines)
	# The EDID first (set-edid), so that the plug's own uevent is timed.
	if [ $# = 1 ]; then
		"$shape" set-edid $dev virtual2 "$1" > /tmp/plug.txt 2>&1 ||
			bad "atomkms-shape set-edid: $(tr '\n' ' ' < /tmp/plug.txt)"
		sleep 1
	fi
	# The two clocks sampled together (read: no fork in between).
	wall_plug=$(date +%s.%N)
	read -r up_plug _ < /proc/uptime
	if [ "${HOTPLUG_BREAK:-}" != plug ]; then
		"$shape" plug $dev virtual2 > /tmp/plug.txt 2>&1 ||
			bad "atomkms-shape plug: $(tr '\n' ' ' < /tmp/plug.txt)"
	fi
	tool_plug=$(sub "$(cut -d' ' -f1 /proc/uptime)" "$up_plug")
	# The connector's modes, as the kernel now has them.
	m2=$(head -n 1 "$c2/modes" 2> /dev/null)
	[ $# = 0 ] || [ "$m2" = "$edid_mode" ] ||
		bad "the connector's preferred mode is '$m2' after the EDID, want $edid_mode"
	if [ -z "$m2" ]; then
		bad "$n2 has no modes after the plug"
		m2=0x0
	fi
	w2=${m2%x*}
	h2=${m2#*x}
	if wait_for "log_after $mark | grep -q \"Output '$n2' enabled\"" 30; then
		wall_out=$(date +%s.%N)
		echo "# weston's output $n2 enabled $(sub $wall_out $wall_plug) s after the write (polled every 0.2 s)"
	else
		bad "weston's log names no new output $n2"
	fi
	# "Output Virtual-3 (crtc 73) video modes:", then its current mode.
	cur=$(log_after "$mark" | awk -v o="Output $n2 (crtc" '
		index($0, o) && /video modes:/ { on = 1; next }
		on && /^[[]/ { on = 0 }
		on && /current/ { sub(/^ */, ""); sub(/,.*/, ""); print; exit }')
	case $cur in
	"$m2"@*) ;;
	*) bad "weston's log gives $n2 the current mode '$cur', want $m2" ;;
	esac
	wh=$((h1 > h2 ? h1 : h2))
	[ "$w2" = 0 ] || wait_shot 2 $((w1 + w2)) ||
		bad "screenshot after plug ${size:-missing}, want $((w1 + w2))x$wh"
	[ "$size" = "$((w1 + w2)) $wh" ] || [ "${size%% *}" != $((w1 + w2)) ] ||
		bad "screenshot after plug $size, want $((w1 + w2))x$wh"
	size2=$size

	# --- unplug
	latency plug "$mark" "Output '$n2' enabled" "$up_plug" "$wall_plug" "$tool_plug"
	mark2=$(lines)
	# The two clocks sampled together (read: no fork in between).
	wall_unplug=$(date +%s.%N)
	read -r up_unplug _ < /proc/uptime
	"$shape" unplug $dev virtual2 > /tmp/unplug.txt 2>&1 ||
		bad "atomkms-shape unplug: $(tr '\n' ' ' < /tmp/unplug.txt)"
	tool_unplug=$(sub "$(cut -d' ' -f1 /proc/uptime)" "$up_unplug")
	if wait_for "log_after $mark2 | grep -qi \"$n2.*\\(disabled\\|disconnected\\|removed\\)\\|\\(disabled\\|disconnected\\|removed\\).*$n2\"" 30; then
		echo "# weston dropped $n2 $(sub $(date +%s.%N) $wall_unplug) s after the write"
	else
		bad "weston's log does not say $n2 is gone"
	fi
	latency unplug "$mark2" "Disabling output $n2" "$up_unplug" "$wall_unplug" "$tool_unplug"
	wait_shot 3 "$w1" || bad "screenshot after unplug ${size:-missing}, want ${w1}x$h1"
	size3=$size

	# --- weston lives on, its log clean
	sleep 1
	kill -0 $wp 2> /dev/null || bad "weston died"
	mark3=$(lines)
	stop $wp
	[ "$stop_rc" = 0 ] || bad "weston exited $stop_rc at SIGTERM"
	# After its start-up (line $mark), weston may log only the hotplug
	# messages: the head updated, the output's colour set-up, modes and
	# enabling, its disabling; and its exit at SIGTERM.
	extra=$(log_after "$mark" | head -n $((mark3 - mark)) | grep -v -E \
		-e "^\[[0-9:.]*\] DRM: head '$n2' updated, connector [0-9]* is (dis)?connected" \
		-e '^ +Supported (EOTF|colorimetry) modes:' \
		-e "^\[[0-9:.]*\] Output '$n2' (attempts EOTF mode|using color profile|enabled with head\(s\) $n2\$|no heads left, disabling\.\$)" \
		-e "^\[[0-9:.]*\] DRM: output $n2 uses shadow framebuffer\.\$" \
		-e "^\[[0-9:.]*\] Output $n2 \(crtc [0-9]*\) video modes:\$" \
		-e '^ +[0-9]+x[0-9]+@[0-9.]+( [0-9:]+)?(, preferred)?(, current)?, [0-9.]+ MHz$' \
		-e "^\[[0-9:.]*\] Disabling output $n2\$")
	[ -z "$extra" ] ||
		bad "weston logged beyond the hotplug messages: $(echo "$extra" | head -n 5 | tr '\n' '|')"
	tail -n +$((mark3 + 1)) "$out/weston-hotplug.log" | grep -v -q -E '^\[[0-9:.]*\] caught signal 15$' &&
		bad "weston logged after the test: $(tail -n +$((mark3 + 1)) "$out/weston-hotplug.log" | tr '\n' '|')"
	# Anywhere, errors and warnings but the one of --continue-without-input.
	errs=$(grep -i -E 'error|warn|fail|couldn.t|cannot|unable' "$out/weston-hotplug.log" |
		grep -v -x -E '\[[0-9:.]*\] warning: no input devices found, but none required as per configuration\.')
	[ -z "$errs" ] || bad "weston logged: $(echo "$errs" | head -n 5 | tr '\n' '|')"
else
	[ -z "$card" ] || bad "weston did not start on $card: $(tail -n 5 "$out/weston-hotplug.log" 2> /dev/null | tr '\n' ' ')"
	mark=0
fi
kill $mon 2> /dev/null
wait $mon 2> /dev/null
"$shape" destroy $dev > /tmp/destroy.txt 2>&1 || bad "atomkms-shape destroy: $(tr '\n' ' ' < /tmp/destroy.txt)"
[ ! -e "$cfs/$dev" ] || bad "$cfs/$dev is still there"

echo "# uevents: $(grep -c 'change' "$out/weston-hotplug-uevents.txt")"
t=$(sub $(date +%s.%N) $t_start)
if [ -z "$why" ]; then
	echo "ok - weston-hotplug: plug ($path): screenshot ${size1% *}x${size1#* } -> ${size2% *}x${size2#* }, weston output $n2 at $m2; unplug: -> ${size3% *}x${size3#* }; weston lives, log clean; ${t} s"
else
	echo "not ok - weston-hotplug: $why"
	exit 1
fi
