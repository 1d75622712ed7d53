#!/bin/sh
# Guest side of the clients stage (test/run-clients.sh): real clients on
# atomkms, in the clients image, each proved from pixels or CRCs.
#
#   edid          libdisplay-info (what weston and wlroots parse EDIDs
#                 with) accepts every connector's EDID
#   weston        weston (DRM backend, pixman) with weston-flower: its
#                 writeback screenshot equals its framebuffer screenshot
#                 pixel for pixel, and hashes to the live CRC; its log
#                 lists ST2084 among Virtual-1's EOTF modes (HDR)
#   sway          sway with weston-flower: grim's screenshot (sway's own
#                 rendering) hashes to the live CRC; no failed commit
#   sway-liftoff  the same, with wlroots placing planes through libliftoff
#   kmscube       kmscube -A (atomic, in- and out-fences, Mesa's software
#                 GL): every frame it presents is a new frame on the CRTC
#   modetest      an atomic mode set with an overlay plane and a cloned
#                 writeback connector: the dump shows the SMPTE bars and
#                 the overlay, and hashes to the live CRC
#   weston-hotplug  weston on a configfs device (userspace/atomkms-shape)
#                 gains an output when its second connector is plugged
#                 (with an injected EDID's mode when atomkms has
#                 connectors/N/edid) and loses it when unplugged, from its
#                 screenshots' width and its log; nothing else in the log
#   shape         userspace/atomkms-shape's presets, plug, unplug and
#                 set-edid by name, and its refusals with their exit codes
#
# "Hashes to the live CRC" means: frame-check (test/clients/frame-check.c)
# computes atomkms's frame CRC of the image with the module's own code and
# finds that value among the CRCs the CRTC reports for the frames it scans
# out, so the image is, pixel for pixel, the frame atomkms composed.
#
# Usage (in the guest): qemu/jobs/clients.sh OUTDIR
# Prints "ok"/"not ok" lines and "clients: N passed, N failed".
set -u
out=$1
fc=/host/build/bin/frame-check
cfg=/host/test/clients
kmscube_frames=${KMSCUBE_FRAMES:-60}
# The background colour of test/clients/weston.ini and sway.config.
bg=204080
. /host/qemu/jobs/result.sh

# Compositors hear about outputs and seats through udev and libseat;
# weston.sh: wait_for, weston_start, stop.
. /host/qemu/jobs/seat.sh
. /host/qemu/jobs/weston.sh

info=$(/host/build/bin/atomkms-info)
crtc=$(echo "$info" | sed -n 's/^  crtc \([0-9]*\) (index 0).*/\1/p')
conn=$(echo "$info" | sed -n 's/^  connector \([0-9]*\): Virtual-1,.*/\1/p')
wb=$(echo "$info" | sed -n 's/^  connector \([0-9]*\): Writeback-1,.*/\1/p')
plane_of() {
	echo "$info" |
		sed -n "s/^  plane \([0-9]*\): $1, possible_crtcs 0x[0-9a-f]*[13579bdf],.*/\1/p" |
		head -n 1
}
primary=$(plane_of '[Pp]rimary')
overlay=$(plane_of '[Oo]verlay')
echo "# crtc $crtc, connector $conn, writeback $wb, planes $primary (primary), $overlay (overlay)"

# --- edid
rc=0 n=0
for e in /sys/class/drm/card*-*/edid; do
	name=$(basename "$(dirname "$e")")
	# sysfs files have no size: copy first.
	cat "$e" > "/tmp/edid-$name.bin"
	[ -s "/tmp/edid-$name.bin" ] || continue
	n=$((n + 1))
	if ! di-edid-decode < "/tmp/edid-$name.bin" > "$out/edid-$name.txt" 2>&1; then
		rc=1
		echo "# $name: libdisplay-info rejects the EDID:"
		tail -n 5 "$out/edid-$name.txt" | sed 's/^/#   /'
	fi
done
[ $n -gt 0 ] || rc=1
result edid $rc "$n EDIDs parsed by libdisplay-info ($(grep -h -E '^ *(Manufacturer|Model|Serial Number|Display Product Name):' "$out"/edid-*.txt 2> /dev/null |
	sed 's/^ *//' | tr '\n' ',' | sed 's/,$//; s/,/, /g'))"

# --- weston
detail=
if weston_start "$out" weston; then
	export WAYLAND_DISPLAY=wayland-weston
	weston-flower > "$out/weston-flower.log" 2>&1 &
	# The flower's first frame, then two identical frames in a row.
	sleep 3
	wait_for "$fc live -n 3" 10
	weston_shots "$out" weston
	if [ ! -s "$out/weston-writeback.png" ] || [ ! -s "$out/weston-framebuffer.png" ]; then
		detail="a screenshot failed: $(cat "$out"/weston-screenshooter-*.log | tr '\n' ' ')"
	elif ! same=$($fc cmp "$out/weston-writeback.png" "$out/weston-framebuffer.png"); then
		detail="writeback and framebuffer screenshots $same"
	elif ! $fc match "$out/weston-writeback.png" > "$out/weston-match.txt"; then
		detail="the writeback screenshot is not a live frame: $(tr '\n' ' ' < "$out/weston-match.txt")"
	elif ! drawn=$($fc drawn "$out/weston-writeback.png" $bg); then
		detail="no client in the screenshot: $drawn"
	fi
	unset WAYLAND_DISPLAY
else
	detail="weston did not start"
fi
stop $wp
bad=$(grep -ciE "couldn't commit|commit failed|atomic.*(failed|error)" "$out/weston.log")
[ "$bad" = 0 ] || detail="${detail:+$detail; }$bad failed commits in weston.log"
make=$(sed -n "s/.*EDID make '\([^']*\)', model '\([^']*\)'.*/\1 \2/p" "$out/weston.log" | head -n 1)
# The default load's monitor does HDR: weston lists the EOTF modes of the
# head's EDID HDR static metadata block (SDR alone without the block, or
# without HDR_OUTPUT_METADATA) on the line after "DRM: head ... found".
eotf=$(awk '/DRM: head .Virtual-1. / { h = 1; next }
	h && /^\[/ { exit }
	h && /Supported EOTF modes: / { sub(/.*Supported EOTF modes: /, ""); print; exit }' \
	"$out/weston.log")
case ", $eotf," in
*", ST2084,"*) ;;
*) detail="${detail:+$detail; }weston lists Virtual-1's EOTF modes as '${eotf:-nothing}', without ST2084" ;;
esac
result weston "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-writeback screenshot = framebuffer screenshot = live frame ($(sed -n 's/^match: //p' "$out/weston-match.txt")), ${drawn#drawn: }; EDID: $make; EOTF modes: $eotf}"

# --- sway, plain and with libliftoff (qemu/jobs/sway.sh: sway_run)
. /host/qemu/jobs/sway.sh
sway_run sway
result sway "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-grim's screenshot = live frame ($(sed -n 's/^match: //p' "$out/sway-match.txt")), ${drawn#drawn: }}"
sway_run sway-liftoff WLR_DRM_FORCE_LIBLIFTOFF=1
if [ -z "$detail" ] && ! grep -q 'forcing libliftoff interface' "$out/sway-liftoff.log"; then
	detail="wlroots did not use libliftoff"
fi
result sway-liftoff "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-grim's screenshot = live frame ($(sed -n 's/^match: //p' "$out/sway-liftoff-match.txt")), ${drawn#drawn: }, planes through libliftoff}"

# --- kmscube
# kmscube stops at a key on stdin, or at its end: give it a silent pipe.
mkfifo /tmp/kmscube.in
exec 4<> /tmp/kmscube.in
kmscube -A -c "$kmscube_frames" < /tmp/kmscube.in > "$out/kmscube.log" 2>&1 &
kp=$!
$fc count -p $kp -t 300 > "$out/kmscube-count.txt"
wait $kp
krc=$?
exec 4>&-
distinct=$(sed -n 's/.* frames, \([0-9]*\) distinct.*/\1/p' "$out/kmscube-count.txt")
detail=
if [ $krc != 0 ]; then
	detail="kmscube exited $krc: $(tail -n 3 "$out/kmscube.log" | tr '\n' ' ')"
elif ! grep -q 'EGL_ANDROID_native_fence_sync' "$out/kmscube.log"; then
	# kmscube -A passes fences both ways through this extension.
	detail="no EGL_ANDROID_native_fence_sync: kmscube -A cannot fence"
elif [ "${distinct:-0}" -lt "$kmscube_frames" ]; then
	detail="only ${distinct:-0} distinct frames for $kmscube_frames presented"
fi
result kmscube "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-$kmscube_frames frames presented with in- and out-fences, $(sed -n 's/^count: //p' "$out/kmscube-count.txt"), $(grep -o '[0-9.]* fps' "$out/kmscube.log" | tail -n 1)}"

# --- modetest
rect=128,96,256,192
mkfifo /tmp/modetest.in
modetest -M atomkms -a -s "$conn,$wb@$crtc:1024x768" \
	-P "$primary@$crtc:1024x768" -P "$overlay@$crtc:256x192+128+96" \
	-F smpte,plain \
	-o "$out/modetest-wb.raw" < /tmp/modetest.in > "$out/modetest.log" 2>&1 &
mp=$!
exec 3> /tmp/modetest.in
detail=
if wait_for "test -s $out/modetest-wb.raw" 30; then
	sleep 1
	raw=raw:1024x768:4096:$out/modetest-wb.raw
	if ! $fc bars "$raw" "$rect,777777" > "$out/modetest-bars.txt"; then
		detail="the writeback dump is not the picture: $(tr '\n' ' ' < "$out/modetest-bars.txt")"
	elif ! $fc match "$raw" > "$out/modetest-match.txt"; then
		detail="the writeback dump is not a live frame: $(tr '\n' ' ' < "$out/modetest-match.txt")"
	fi
else
	detail="no writeback dump: $(tail -n 3 "$out/modetest.log" | tr '\n' ' ')"
fi
echo >&3
exec 3>&-
wait $mp
[ $? = 0 ] || detail="${detail:+$detail; }modetest failed: $(tail -n 3 "$out/modetest.log" | tr '\n' ' ')"
result modetest "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-$(sed -n 's/^bars: //p' "$out/modetest-bars.txt"); dump = live frame}"

# --- weston-hotplug: weston on a configfs device gains and loses an
# output as a connector is plugged and unplugged (qemu/jobs/weston-hotplug.sh)
sh /host/qemu/jobs/weston-hotplug.sh "$out" > /tmp/weston-hotplug.txt 2>&1
hrc=$?
grep '^# ' /tmp/weston-hotplug.txt
detail=$(sed -n 's/^\(not \)\{0,1\}ok - weston-hotplug: //p' /tmp/weston-hotplug.txt)
[ -n "$detail" ] || detail="the job ended early: $(tail -n 3 /tmp/weston-hotplug.txt | tr '\n' ' ')"
result weston-hotplug $hrc "$detail"

# --- shape: atomkms-shape's presets, plug/unplug/set-edid and refusals
# (qemu/jobs/shape.sh)
sh /host/qemu/jobs/shape.sh "$out" > /tmp/shape.txt 2>&1
hrc=$?
grep '^# ' /tmp/shape.txt
detail=$(sed -n 's/^\(not \)\{0,1\}ok - shape: //p' /tmp/shape.txt)
[ -n "$detail" ] || detail="the job ended early: $(tail -n 3 /tmp/shape.txt | tr '\n' ' ')"
result shape $hrc "$detail"

echo "clients: $passed passed, $failed failed"
[ $failed = 0 ]
