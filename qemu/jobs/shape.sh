#!/bin/sh
# Guest side of atomkms-shape's test (userspace/atomkms-shape), a part of
# the clients stage (qemu/jobs/clients.sh) or alone:
#
#   qemu/run-guest.sh --image clients --name shape -- \
#       sh qemu/jobs/shape.sh /host/build/guest/shape
#
# Builds each preset and checks the new card's connectors in sysfs (kind,
# status, preferred mode), unplugs dual-4k's dp2 and plugs it with an EDID,
# checks the refusals (tiled-8k, a name taken, a truncated and a malformed
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

# laptop: an eDP panel at 2880x1800@120 needs a 695 MHz pixel clock, above
# what the EDID's detailed timing holds (655.35 MHz): an atomkms that
# refuses that preferred mode must leave nothing behind.
laptop=built
n=$((n + 1))
if o=$("$shape" laptop 2>&1); then
	card=$(card_of laptop)
	conn "$card" eDP connected 2880x1800
	conn "$card" HDMI-A disconnected
	run 0 plug laptop hdmi
	conn "$card" HDMI-A connected 3840x2160
	run 0 unplug laptop hdmi
	conn "$card" HDMI-A disconnected
	run 1 laptop
	run 0 destroy laptop
elif echo "$o" | grep -q "writing '2880x1800@120' to laptop/connectors/edp/preferred_mode: Invalid argument"; then
	laptop="refused by this atomkms (eDP 2880x1800@120: EINVAL)"
	echo "# laptop: $o" | tr '\n' ' '
	echo
	[ ! -e "$cfs/laptop" ] || bad "the refused laptop left $cfs/laptop"
else
	bad "atomkms-shape laptop: $o"
fi

# dual-4k, and its dp2 unplugged and plugged again with an EDID.
run 0 dual-4k
card=$(card_of dual-4k)
conn "$card" DP connected 3840x2160
[ "$(ls -d /sys/class/drm/"$card"-DP-* | wc -l)" = 2 ] || bad "dual-4k: not two DP connectors"
# (One cycle: a 4K card keeps the guest's CPUs busy under TCG.)
run 0 unplug dual-4k dp2
[ "$(ls /sys/class/drm/"$card"-DP-*/status | xargs cat | sort | tr '\n' ' ')" = "connected disconnected " ] ||
	bad "dual-4k: dp2 not unplugged"
perl "$mkedid" 1600x900 "user's monitor" > /tmp/monitor.edid
run 0 plug dual-4k dp2 /tmp/monitor.edid
dp2=$(for f in /sys/class/drm/"$card"-DP-*/connector_id; do echo "$(cat "$f") ${f%/*}"; done | sort -n | sed -n '2s/^[0-9]* //p')
[ "$(head -n 1 "$dp2/modes")" = 1600x900 ] ||
	bad "dp2 with the EDID: preferred mode '$(head -n 1 "$dp2/modes")', want 1600x900"
# sysfs files have no size, and cmp compares sizes first: copy it.
cat "$dp2/edid" > /tmp/dp2.edid
cmp -s /tmp/dp2.edid /tmp/monitor.edid || bad "dp2's EDID in sysfs is not the one written"
run 0 list
echo "$o" | grep -q 'dp2: status 1, type DP.*edid_enabled 1' ||
	bad "list does not show dp2 plugged with its EDID: $(echo "$o" | tr '\n' '|')"
# Refusals: a truncated EDID, a malformed one (the kernel's EINVAL).
head -c 100 /tmp/monitor.edid > /tmp/short.edid
run 1 set-edid dual-4k dp2 /tmp/short.edid
head -c 128 /dev/zero > /tmp/zero.edid
run 1 set-edid dual-4k dp2 /tmp/zero.edid
echo "$o" | grep -q 'Invalid argument' || bad "no errno for a malformed EDID: $o"
[ "$(head -n 1 "$dp2/modes")" = 1600x900 ] || bad "a refused EDID changed dp2's modes"
run 1 dual-4k
run 1 plug dual-4k nosuch
run 1 plug nosuch dp2
run 2 plug dual-4k
run 2 phone 'bad/name'
run 2 frobnicate
run 3 tiled-8k
[ ! -e "$cfs/tiled-8k" ] || bad "tiled-8k left a device"

run 0 phone
card=$(card_of phone)
conn "$card" DSI connected 1080x2400

run 0 -n virtual off 1
[ "$(cat "$cfs/off/enabled")" = 0 ] || bad "-n enabled the device"
run 0 list
echo "$o" | sed 's/^/# /'

for d in dual-4k phone off; do
	run 0 destroy $d
done
run 1 destroy dual-4k
[ -z "$(ls "$cfs")" ] || bad "left in $cfs: $(ls "$cfs" | tr '\n' ' ')"
cards=$(ls /sys/class/drm | grep -c '^card[0-9]*$')
[ "$cards" = "$cards0" ] || bad "$cards cards at the end, $cards0 at the start"

if [ -z "$why" ]; then
	echo "ok - shape: $n atomkms-shape commands gave their exit codes and shapes (dual-4k, phone, virtual, unplug, plug with an EDID, refusals; laptop $laptop)"
else
	echo "not ok - shape: $why"
	exit 1
fi
