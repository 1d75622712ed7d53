# Sourced by guest jobs that run sway on atomkms (qemu/jobs/clients.sh,
# limits-clients.sh), after qemu/jobs/seat.sh and weston.sh (wait_for,
# stop), with $out the job's output directory:
#
#   sway_run NAME [VAR=VALUE...]
#                          run sway (DRM backend, pixman, the VARs in its
#                          environment, test/clients/sway.config: a still
#                          desktop of colour 0x204080 with weston-flower)
#                          and check it: grim's screenshot $out/NAME.png
#                          hashes to the live CRC and shows the client, and
#                          sway's log ($out/NAME.log) has no failed commit
#                          or DRM error; the reasons it failed in $detail
#                          (empty when it passed), the client's pixel count
#                          in $drawn
sway_run() {
	name=$1
	shift
	rm -f "$XDG_RUNTIME_DIR"/wayland-* "$XDG_RUNTIME_DIR"/sway-ipc.*
	# -V, not -d: wlroots 0.18 gives libliftoff 1 ms of its default
	# deadline to place planes, and libliftoff's debug log alone (40
	# lines a frame) can spend it under TCG; wlroots then commits with
	# no plane at all, and the CRTC shows black.
	env "$@" WLR_BACKENDS=drm WLR_RENDERER=pixman \
		sway -V -c /host/test/clients/sway.config > "/tmp/$name.log" 2>&1 &
	sp=$!
	detail=
	if wait_for "ls $XDG_RUNTIME_DIR/sway-ipc.*" 60; then
		SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.* | head -n 1)
		WAYLAND_DISPLAY=$(ls "$XDG_RUNTIME_DIR" | grep -m1 '^wayland-[0-9]*$')
		export SWAYSOCK WAYLAND_DISPLAY
		wait_for "swaymsg -t get_tree | grep -qi flower" 30 ||
			detail="weston-flower never mapped"
		sleep 1
		wait_for "/host/build/bin/frame-check live -n 3" 10
		if ! grim "$out/$name.png" > "$out/$name-grim.log" 2>&1; then
			detail="${detail:+$detail; }grim failed: $(cat "$out/$name-grim.log")"
		elif ! /host/build/bin/frame-check match "$out/$name.png" > "$out/$name-match.txt"; then
			detail="${detail:+$detail; }grim's screenshot is not a live frame: $(tr '\n' ' ' < "$out/$name-match.txt")"
		elif ! drawn=$(/host/build/bin/frame-check drawn "$out/$name.png" 204080); then
			detail="${detail:+$detail; }no client in the screenshot: $drawn"
		fi
		unset SWAYSOCK WAYLAND_DISPLAY
	else
		detail="sway did not start"
	fi
	stop $sp
	cp "/tmp/$name.log" "$out/$name.log"
	bad=$(grep -E '\[ERROR\] \[wlr\] \[backend/drm|[Aa]tomic commit failed|Failed to (commit|parse)' "$out/$name.log")
	[ -z "$bad" ] || detail="${detail:+$detail; }sway logged: $(echo "$bad" | head -n 3 | tr '\n' ' ')"
}
