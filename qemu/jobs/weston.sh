# Sourced by guest jobs that run weston on atomkms (qemu/jobs/clients.sh,
# lifecycle-weston.sh), after qemu/jobs/seat.sh:
#
#   wait_for CMD SECONDS   wait up to SECONDS seconds for CMD to succeed
#   weston_start DIR NAME [ARGS...]
#                          start weston as the clients stage runs it (DRM
#                          backend, pixman or $WESTON_RENDERER (gl), --debug
#                          for weston-screenshooter,
#                          no input devices, test/clients/weston.ini: a still
#                          desktop of colour 0x204080) on the socket
#                          wayland-weston, log in DIR/NAME.log, its pid in
#                          $wp; fails if the socket is not there in 60 s;
#                          ARGS go to weston (--drm-device=cardN)
#   stop PID               stop a process (SIGTERM; SIGKILL after 20 s) and
#                          wait for it, and for its DRM master (held through
#                          seatd) to be gone: a client that is not master
#                          cannot commit; its exit status in $stop_rc
wait_for() {
	wf_end=$(($(date +%s) + $2))
	while ! eval "$1" > /dev/null 2>&1; do
		[ "$(date +%s)" -lt $wf_end ] || return 1
		sleep 0.2
	done
}

weston_start() {
	ws_log=$1/$2
	shift 2
	rm -f "$XDG_RUNTIME_DIR/wayland-weston" "$XDG_RUNTIME_DIR/wayland-weston.lock"
	weston --backend=drm --renderer=${WESTON_RENDERER:-pixman} --debug --continue-without-input \
		--socket=wayland-weston --config=/host/test/clients/weston.ini \
		--log="$ws_log.log" "$@" > "$ws_log.out" 2>&1 &
	wp=$!
	wait_for "test -S $XDG_RUNTIME_DIR/wayland-weston" 60
}

# The DRM masters of atomkms's devices, from their debugfs (under the
# debug kernel vgem's device is there too).
atomkms_masters() {
	for d in $(grep -l '^atomkms ' /sys/kernel/debug/dri/[0-9]*/name 2> /dev/null); do
		awk '$4 == "y"' "${d%/name}/clients"
	done | grep .
}

stop() {
	kill "$1" 2> /dev/null
	if ! wait_for "! kill -0 $1 || grep -q '^[^)]*) Z' /proc/$1/stat" 20; then
		echo "# pid $1 ($(cat "/proc/$1/comm")) ignored SIGTERM for 20 s: SIGKILL; its kernel stack:"
		sed 's/^/#   /' "/proc/$1/stack"
		kill -9 "$1"
	fi
	wait "$1" 2> /dev/null
	stop_rc=$?
	wait_for "! atomkms_masters" 10 ||
		echo "# a DRM master is still there: $(atomkms_masters | tr '\n' ' ')"
}

# weston_shots OUT NAME: weston-screenshooter's two sources (weston --debug
# only), OUT/NAME-writeback.png (the frame atomkms composed, from the
# writeback connector) and OUT/NAME-framebuffer.png (weston's own
# composition), each source's log in OUT/NAME-screenshooter-SOURCE.log.
weston_shots() {
	for src in writeback framebuffer; do
		rm -rf "/tmp/shot-$src"
		mkdir -p "/tmp/shot-$src"
		(cd "/tmp/shot-$src" && weston-screenshooter -s $src) \
			> "$1/$2-screenshooter-$src.log" 2>&1
		mv /tmp/shot-$src/*.png "$1/$2-$src.png" 2> /dev/null
	done
}
