#!/bin/sh
# Guest side of test/dkms.sh: modprobe the atomkms that dkms built into the
# host's /lib/modules (the guest's, read-only over 9p), then check that it
# is that module which drives a DRM device. $1: the module file's build ID. A "PASS: ..." or "FAIL: ..."
# line for each check; exits 1 when any failed.
set -u
kver=$(uname -r)
failed=0
pass() { echo "PASS: guest: $*"; }
fail() { echo "FAIL: guest: $*"; failed=1; }

if modprobe atomkms; then
	pass "modprobe atomkms"
else
	fail "modprobe atomkms"
fi

path=$(modinfo -n atomkms 2>&1)
case $path in
/lib/modules/$kver/updates/dkms/atomkms.ko*) pass "modinfo -n atomkms: $path" ;;
*) fail "modinfo -n atomkms: $path, not dkms's" ;;
esac

# The loaded module is that file: the build ID the host read from it ($1)
# is the one in the loaded module's ELF note (after the note's 16-byte
# header: name and ID sizes, type, "GNU\0").
want=${1:-}
got=$(od -An -tx1 -v /sys/module/atomkms/notes/.note.gnu.build-id 2>/dev/null |
	tr -d ' \n' | cut -c33-)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass "loaded atomkms has the file's build ID $got"
else
	fail "loaded atomkms's build ID '$got', the file's '$want'"
fi

# A card node whose device atomkms drives, and DRM's name for it.
card=
for c in /sys/class/drm/card[0-9]*; do
	case $c in *-*) continue ;; esac
	drv=$(readlink -f "$c/device/driver/module" 2>/dev/null)
	[ "$drv" = /sys/module/atomkms ] && card=${c##*/}
done
if [ -n "$card" ] && [ -c "/dev/dri/$card" ]; then
	pass "/dev/dri/$card is atomkms's"
else
	fail "no /dev/dri/card* driven by atomkms"
fi
minor=${card#card}
name=$(cat "/sys/kernel/debug/dri/$minor/name" 2>/dev/null)
case $name in
"atomkms "*) pass "debugfs dri/$minor/name: $name" ;;
*) fail "debugfs dri/$minor/name: '$name'" ;;
esac
exit $failed
