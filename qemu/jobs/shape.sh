#!/bin/sh
# Guest side of atomkms-shape's test (userspace/atomkms-shape), a part of
# the clients stage (qemu/jobs/clients.sh) or alone:
#
#   qemu/run-guest.sh --image clients --name shape -- \
#       sh qemu/jobs/shape.sh /host/build/guest/shape
#
# Builds each preset and checks the new card's connectors in sysfs (kind,
# status, preferred mode), plugs laptop's HDMI-A with an EDID and unplugs it,
# checks the refusals (a name taken, a truncated and a malformed
# EDID, usage) and their exit codes, and destroys everything: the configfs
# root and the cards are as before. Prints "# " lines and one "ok"/"not ok
# - shape" line; exit status 0 on success.
set -u
out=$1
shape=/host/userspace/atomkms-shape
mkedid=/host/test/clients/make-edid.pl
cfs=/sys/kernel/config/atomkms
why=
n=0
bad() {
	why="${why:+$why; }$1"
	echo "# $1"
}
modprobe configfs
grep -q ' /sys/kernel/config configfs' /proc/mounts ||
	mount -t configfs none /sys/kernel/config
mkdir -p "$out"

# run WANT ARGS...: atomkms-shape ARGS must exit WANT; its output in $o.
run() {
	want=$1
	shift
	n=$((n + 1))
	o=$("$shape" "$@" 2>&1)
	got=$?
	echo "\$ atomkms-shape $* -> $got" >> "$out/shape.txt"
	echo "$o" | sed 's/^/  /' >> "$out/shape.txt"
	[ "$got" = "$want" ] || bad "atomkms-shape $*: exit $got, want $want: $(echo "$o" | tr '\n' ' ')"
}

# card_of NAME: the card atomkms-shape's "enabled" line named.
card_of() {
	echo "$o" | sed -n "s|^$1: enabled, /dev/dri/||p"
}

# conn CARD TYPE STATUS [MODE]: CARD has a TYPE connector in STATUS whose
# first (preferred) mode is MODE.
conn() {
	c=$(ls -d /sys/class/drm/"$1-$2"-[0-9]* 2> /dev/null | head -n 1)
	if [ -z "$c" ]; then
		bad "$1 has no $2 connector ($(ls -d /sys/class/drm/"$1"-* | sed 's|.*/||' | tr '\n' ' '))"
		return
	fi
	s=$(cat "$c/status")
	[ "$s" = "$3" ] || bad "${c##*/}: $s, want $3"
	[ $# -lt 4 ] || [ "$(head -n 1 "$c/modes")" = "$4" ] ||
		bad "${c##*/}: preferred mode '$(head -n 1 "$c/modes")', want $4"
}

cards0=$(ls /sys/class/drm | grep -c '^card[0-9]*$')

# laptop, and its HDMI-A plugged with an EDID and unplugged. (One plug:
# under TCG a card at 4K or 120 Hz keeps the guest's CPUs busy.)
run 0 laptop
card=$(card_of laptop)
conn "$card" eDP connected 2880x1800
conn "$card" HDMI-A disconnected
perl "$mkedid" 1600x900 "user's monitor" > /tmp/monitor.edid
run 0 plug laptop hdmi /tmp/monitor.edid
conn "$card" HDMI-A connected 1600x900
hdmi=$(ls -d /sys/class/drm/"$card"-HDMI-A-* | head -n 1)
# sysfs files have no size, and cmp compares sizes first: copy it.
cat "$hdmi/edid" > /tmp/hdmi.edid
cmp -s /tmp/hdmi.edid /tmp/monitor.edid || bad "hdmi's EDID in sysfs is not the one written"
run 0 list
echo "$o" | grep -q 'hdmi: status 1, type HDMI-A.*edid_enabled 1' ||
	bad "list does not show hdmi plugged with its EDID: $(echo "$o" | tr '\n' '|')"
# Refusals: a truncated EDID, a malformed one (the kernel's EINVAL).
head -c 100 /tmp/monitor.edid > /tmp/short.edid
run 1 set-edid laptop hdmi /tmp/short.edid
head -c 128 /dev/zero > /tmp/zero.edid
run 1 set-edid laptop hdmi /tmp/zero.edid
echo "$o" | grep -q 'Invalid argument' || bad "no errno for a malformed EDID: $o"
conn "$card" HDMI-A connected 1600x900
run 0 unplug laptop hdmi
conn "$card" HDMI-A disconnected
run 1 laptop
run 1 plug laptop nosuch
run 1 plug nosuch hdmi
run 2 plug laptop
run 2 phone 'bad/name'
run 2 frobnicate
run 0 destroy laptop

run 0 dual-4k
card=$(card_of dual-4k)
conn "$card" DP connected 3840x2160
[ "$(ls -d /sys/class/drm/"$card"-DP-* | wc -l)" = 2 ] || bad "dual-4k: not two DP connectors"
run 0 destroy dual-4k

# tiled-8k: four DP tiles of 3840x2160, each with TILE (a blob id; the
# value itself is test-tiles's to check).
run 0 tiled-8k
card=$(card_of tiled-8k)
conn "$card" DP connected 3840x2160
[ "$(ls -d /sys/class/drm/"$card"-DP-* | wc -l)" = 4 ] || bad "tiled-8k: not four DP connectors"
for c in 1 2 3 4; do
	[ "$(cat "$cfs/tiled-8k/connectors/tile$c/tile_group")" = 1 ] ||
		bad "tiled-8k: tile$c not in tile group 1"
done
[ "$(cat "$cfs/tiled-8k/connectors/tile4/tile_h_loc")$(cat "$cfs/tiled-8k/connectors/tile4/tile_v_loc")" = 11 ] ||
	bad "tiled-8k: tile4 not at column 1, row 1"
run 0 destroy tiled-8k

run 0 phone
card=$(card_of phone)
conn "$card" DSI connected 1080x2400

run 0 -n virtual off 1
[ "$(cat "$cfs/off/enabled")" = 0 ] || bad "-n enabled the device"
run 0 list
echo "$o" | sed 's/^/# /'

for d in phone off; do
	run 0 destroy $d
done
run 1 destroy laptop
[ -z "$(ls "$cfs")" ] || bad "left in $cfs: $(ls "$cfs" | tr '\n' ' ')"
cards=$(ls /sys/class/drm | grep -c '^card[0-9]*$')
[ "$cards" = "$cards0" ] || bad "$cards cards at the end, $cards0 at the start"

if [ -z "$why" ]; then
	echo "ok - shape: $n atomkms-shape commands gave their exit codes and shapes (laptop, dual-4k, tiled-8k, phone, virtual, plug with an EDID, unplug, refusals)"
else
	echo "not ok - shape: $why"
	exit 1
fi
