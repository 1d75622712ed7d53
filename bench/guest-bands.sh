#!/bin/sh
# Inside the guest (booted by bench/guest.sh through qemu/run-guest.sh:
# TCG thread=multi, one host thread a vCPU, 2 vCPUs, atomkms loaded):
# banded composition against one worker, in the same boot. For each
# compose_workers setting, scene b through KMS (bench/kms_scene.c) with
# CRCs read for a few seconds, the composition times from the CRTC's
# debugfs atomkms_compose_time (ktime around each composition, in the
# module: ftrace's function_graph oopses a thread=multi guest); then scene
# b with the cursor moving every frame, at 1080p and 4K, counting the
# frames really composed (distinct CRCs); last, upstream vkms (vkmsref.ko,
# bench/build-vkms.sh) on the same 4K scene: a driver reports a CRC every
# vblank, repeating the last one for frames it did not compose, so the
# frames really composed are counted there too. Prints
# "RESULT label key=value..." lines.
set -u
cd /host || exit 1
KMS=/host/build/bench/kms_scene
SECS=${BENCH_SECONDS:-5}
P=/sys/module/atomkms/parameters
fail=0

echo "guest-bands: $(nproc) CPUs online"

# LABEL WORKERS MODE MOVE
run() {
	echo "$2" > $P/compose_workers || { fail=1; return; }
	for f in /sys/kernel/debug/dri/*/crtc-*/atomkms_compose_time; do
		echo 0 > "$f"
	done
	if ! $KMS --scene b --mode "$3" --seconds "$SECS" --move-cursor "$4" \
		> /tmp/kms.out; then
		echo "guest-bands: kms_scene failed for $1" >&2
		fail=1
	fi
	# The CRTC that composed: the one whose counts moved.
	t=
	for f in /sys/kernel/debug/dri/*/crtc-*/atomkms_compose_time; do
		case $(cat "$f") in
		frames=0\ *) ;;
		*) t=$(sed 's/\([a-z_]*\)=/compose_\1=/g' "$f") ;;
		esac
	done
	echo "RESULT $1 workers=$2 $(tr '\n' ' ' < /tmp/kms.out) $t"
}

for i in 1 2; do	# alternated, twice: drift in the host's load shows
	run "bands-w1-2160-$i" 1 3840x2160 0
	run "bands-w2-2160-$i" 2 3840x2160 0
done
run bands-w1-1080 1 1920x1080 0
run bands-w2-1080 2 1920x1080 0
run bands-auto-1080-move 0 1920x1080 1
run bands-auto-2160-move 0 3840x2160 1
run bands-w1-2160-move 1 3840x2160 1

ko=build/bench/vkms/vkmsref.ko
if [ -f $ko ]; then
	deps=$(modinfo -F depends $ko | tr ',' ' ')
	# shellcheck disable=SC2086 # a list
	[ -z "$deps" ] || modprobe -a $deps
	if insmod $ko enable_overlay=1 enable_cursor=1; then
		if ATOMKMS_DRIVER=vkmsref $KMS --scene b --mode 3840x2160 \
			--seconds "$SECS" --move-cursor 1 > /tmp/kms.out; then
			echo "RESULT vkms-b-2160-move $(tr '\n' ' ' < /tmp/kms.out)"
		else
			echo "guest-bands: kms_scene failed on vkms" >&2
			fail=1
		fi
		sleep 1
		rmmod vkmsref || fail=1
	else
		fail=1
	fi
fi
exit $fail
