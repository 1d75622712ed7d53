#!/bin/sh
# Guest side of the limits stage (test/run-limits.sh): real compositors on
# an atomkms whose display engine has limits (module parameter limits=,
# issue 15), in the clients image at 1024x768.
#
#   weston-planes  weston with the GL renderer (llvmpipe through GBM on
#                  atomkms's card: the DRM backend puts client buffers on
#                  planes only with GBM, which the pixman renderer lacks),
#                  its drm-backend debug scope in its log, runs
#                  test/clients/dmabuf-tiles: udmabuf buffers, two of them
#                  scaled. It passes when
#                  - the log shows the planes at work: views placed on
#                    overlay planes, and, where EXPECT is "reject", at least
#                    one view whose TEST_ONLY commit failed ("atomic test
#                    failed") and which the same repaint then composed
#                    ("using renderer composition"), in mixed composition;
#                    where EXPECT is "accept", no failed test at all;
#                  - the kernel log (drm.debug=0x10) holds a "limits:"
#                    line for each refusal, and as many failed atomic
#                    checks as weston's log has failed tests: no real
#                    commit was refused; weston logs no failed commit;
#                  - frames kept coming: the client saw FRAMES frames while
#                    its subsurface moved, and the CRTC showed at least
#                    FRAMES/2 distinct frames meanwhile (frame-check count);
#                  - the writeback screenshot (planes, composed by atomkms)
#                    equals weston's framebuffer screenshot (for which
#                    weston composes every view itself), hashes to the
#                    live CRC and shows the client
#   sway-liftoff   sway (pixman) with WLR_DRM_FORCE_LIBLIFTOFF=1 and
#                  weston-flower: grim's screenshot hashes to the live CRC
#                  and shows the client; sway logs no failed commit
#
# Usage (in the guest): qemu/jobs/limits-clients.sh OUTDIR EXPECT
#   EXPECT: reject (the preset must refuse one of the client's states) or
#   accept (it must refuse none)
# Prints "#" lines (counts), "ok"/"not ok" lines and "STAGE: N passed, N
# failed", STAGE being OUTDIR's name.
set -u
out=$1
expect=$2
fc=/host/build/bin/frame-check
tiles=/host/build/bin/dmabuf-tiles
frames=${TILES_FRAMES:-60}
bg=204080
mkdir -p "$out"
. /host/qemu/jobs/result.sh

. /host/qemu/jobs/seat.sh
. /host/qemu/jobs/weston.sh
. /host/qemu/jobs/sway.sh

echo "# limits=$(cat /sys/module/atomkms/parameters/limits 2> /dev/null)," \
	"expect $expect"
lim=$(grep -l '^atomkms ' /sys/kernel/debug/dri/[0-9]*/name | head -n 1)
cp "${lim%/name}/atomkms_limits" "$out/atomkms_limits.txt"
lim=${lim%/name}
card=/dev/dri/card${lim##*/}
/host/build/bin/atomkms-info > "$out/atomkms-info.txt"

# Every atomic check's refusal, as the driver and DRM's core say it.
echo 0x10 > /sys/module/drm/parameters/debug
dmesg -w > "$out/kmsg.txt" 2>&1 &
dp=$!

# --- weston-planes
detail=
WESTON_RENDERER=gl weston_start "$out" weston-planes --logger-scopes=log,drm-backend
if [ $? = 0 ]; then
	export WAYLAND_DISPLAY=wayland-weston
	$tiles -d "$card" -f "$frames" > "$out/dmabuf-tiles.out" 2> "$out/dmabuf-tiles.log" &
	tp=$!
	if wait_for "grep -q mapped $out/dmabuf-tiles.out" 30; then
		# The CRTC's frames while the mover moves: until the client
		# says it is still (the waiter ends), 90 s at most.
		sh -c "while ! grep -q still $out/dmabuf-tiles.out; do sleep 0.2; done" &
		sw=$!
		$fc count -t 90 -p $sw > "$out/weston-planes-count.txt" &
		cp=$!
		wait_for "grep -q still $out/dmabuf-tiles.out" 90 ||
			detail="the client saw $(grep -c . "$out/dmabuf-tiles.out") lines, no 'still' in 90 s"
		kill $sw 2> /dev/null
		wait $cp
		sleep 1
		wait_for "$fc live -n 3" 10
		weston_shots "$out" weston-planes
		if [ -n "$detail" ]; then :
		elif [ ! -s "$out/weston-planes-writeback.png" ] || [ ! -s "$out/weston-planes-framebuffer.png" ]; then
			detail="a screenshot failed: $(cat "$out"/weston-planes-screenshooter-*.log | tr '\n' ' ')"
		elif ! same=$($fc cmp "$out/weston-planes-writeback.png" "$out/weston-planes-framebuffer.png"); then
			detail="writeback and framebuffer screenshots $same"
		elif ! $fc match "$out/weston-planes-writeback.png" > "$out/weston-planes-match.txt"; then
			detail="the writeback screenshot is not a live frame: $(tr '\n' ' ' < "$out/weston-planes-match.txt")"
		elif ! drawn=$($fc drawn "$out/weston-planes-writeback.png" $bg); then
			detail="no client in the screenshot: $drawn"
		fi
	else
		detail="the client did not map: $(tail -n 3 "$out/dmabuf-tiles.log" | tr '\n' ' ')"
	fi
	kill $tp 2> /dev/null
	wait $tp 2> /dev/null
	unset WAYLAND_DISPLAY
else
	detail="weston did not start: $(tail -n 3 "$out/weston-planes.log" | tr '\n' ' ')"
fi
stop $wp
sleep 1
echo "limits-clients: weston-planes done" > /dev/kmsg
sleep 1
sed '/limits-clients: weston-planes done/q' "$out/kmsg.txt" > "$out/kmsg-weston.txt"

wlog=$out/weston-planes.log
n() {
	grep -c -E "$1" "$2"
}
placed=$(n 'has been placed to overlay plane' "$wlog")
tests_failed=$(n 'atomic test failed|atomic test not OK' "$wlog")
mixed=$(n 'Using mixed state composition' "$wlog")
bad=$(n "couldn't commit|commit failed|couldn't compile" "$wlog")
klimits=$(n '\] limits: ' "$out/kmsg-weston.txt")
kfailed=$(n 'atomic driver check for .* failed' "$out/kmsg-weston.txt")
why=$(sed -n 's/.*\] limits: \([a-z_]*\):.*/\1/p' "$out/kmsg-weston.txt" | sort | uniq -c |
	awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')
frames_seen=$(sed -n 's/^still after \([0-9]*\) frames/\1/p' "$out/dmabuf-tiles.out")
count=$(sed -n 's/^count: //p' "$out/weston-planes-count.txt" 2> /dev/null)
distinct=$(echo "$count" | sed -n 's/.* frames, \([0-9]*\) distinct.*/\1/p')
echo "# weston: $placed views placed on overlays, $tests_failed failed TEST_ONLY," \
	"$mixed mixed repaints; kernel: $kfailed refused checks, $klimits limits lines (${why:-none})"
# A view refused by TEST_ONLY and composed in the same repaint: the first
# refused view's next placement in the log.
fallback=
v=$(sed -n 's/.*not placing view \(0x[0-9a-f]*\) on plane [0-9]*: atomic test failed.*/\1/p' "$wlog" | head -n 1)
if [ -n "$v" ]; then
	fallback=$(awk -v v="$v" '
		index($0, "view " v " on plane") && index($0, "atomic test failed") { t = 1 }
		t && index($0, "view " v " using renderer composition") { print "composed"; exit }
		t && index($0, "view " v " on ") && index($0, " plane ") && !index($0, "atomic test") { print "on a plane"; exit }' "$wlog")
	echo "# the first refused view $v: then $fallback"
fi
if [ -z "$detail" ]; then
	if [ "$placed" = 0 ]; then
		detail="weston placed no view on an overlay plane"
	elif [ "$expect" = reject ] && [ "$tests_failed" = 0 ]; then
		detail="no TEST_ONLY commit of weston's failed"
	elif [ "$expect" = reject ] && [ "$fallback" != composed ]; then
		detail="the refused view $v was not composed next (${fallback:-nothing})"
	elif [ "$expect" = reject ] && [ "$klimits" = 0 ]; then
		detail="no limits line in the kernel log"
	elif [ "$expect" = reject ] && [ "$mixed" = 0 ]; then
		detail="weston never used mixed composition"
	elif [ "$expect" = accept ] && [ "$tests_failed$kfailed" != 00 ]; then
		detail="$tests_failed TEST_ONLY commits failed, $kfailed checks refused"
	elif [ "$kfailed" != "$tests_failed" ]; then
		detail="the kernel refused $kfailed checks, weston's tests failed $tests_failed times: a real commit was refused"
	elif [ "$bad" != 0 ]; then
		detail="$bad failed commits in weston's log"
	elif [ "${frames_seen:-0}" -lt "$frames" ] || [ "${distinct:-0}" -lt $((frames / 2)) ]; then
		detail="frames stopped: the client saw ${frames_seen:-0} of $frames frames, the CRTC ${distinct:-0} distinct frames"
	fi
fi
result weston-planes "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-$placed views placed on overlays, $([ "$tests_failed" = 0 ] && echo "no TEST_ONLY refused" || echo "$tests_failed TEST_ONLY refused (kernel: $why), each view composed instead"); $frames_seen frames, $count; writeback = framebuffer = live frame ($(sed -n 's/^match: //p' "$out/weston-planes-match.txt"))}"

# --- sway-liftoff
echo "limits-clients: sway-liftoff" > /dev/kmsg
sway_run sway-liftoff WLR_DRM_FORCE_LIBLIFTOFF=1
sleep 1
kill $dp
wait $dp 2> /dev/null
echo 0 > /sys/module/drm/parameters/debug
sed '1,/limits-clients: sway-liftoff/d' "$out/kmsg.txt" > "$out/kmsg-sway.txt"
echo "# sway-liftoff: kernel: $(n 'atomic driver check for .* failed' "$out/kmsg-sway.txt") refused checks, $(n '\] limits: ' "$out/kmsg-sway.txt") limits lines"
if [ -z "$detail" ] && ! grep -q 'forcing libliftoff interface' "$out/sway-liftoff.log"; then
	detail="wlroots did not use libliftoff"
fi
result sway-liftoff "$([ -z "$detail" ] && echo 0 || echo 1)" \
	"${detail:-grim's screenshot = live frame ($(sed -n 's/^match: //p' "$out/sway-liftoff-match.txt")), ${drawn#drawn: }, planes through libliftoff}"

echo "$(basename "$out"): $passed passed, $failed failed"
[ $failed = 0 ]
