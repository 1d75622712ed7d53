#!/bin/sh
# make check-dkms: the atomkms-dkms package end to end, as root on the
# host. Builds it (make deb) and installs it, so that dkms builds
# atomkms.ko for the 6.12 headers (never loading it here), boots the guest,
# which mounts this host's /lib/modules and loads that module with
# modprobe, then purges the package and checks that nothing of atomkms is
# left under /lib/modules/$KVER. Ends with "dkms: N passed, N failed".
#
# Every guest mounts /lib/modules: the guest lock is held from the
# installation to the purge, so that no other guest sees the package's
# module, nor shares the two cores with dkms's build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kver=${KVER:-$(ls -1d /usr/src/linux-headers-6.12*-amd64 2>/dev/null |
	sed 's|.*/linux-headers-||' | sort -V | tail -n 1)}
lock=/tmp/atomkms-guest.lock
log=build/dkms
passed=0 failed=0
start=$(date +%s)

pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() {
	what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
finish() {
	echo "dkms: wall time $(($(date +%s) - start)) s (waited ${waited:-0} s for the guest lock)"
	echo "dkms: $passed passed, $failed failed"
	[ "$failed" = 0 ] && exit 0
	exit 1
}
installed() {
	dpkg-query -W -f='${Status}' atomkms-dkms 2>/dev/null | grep -q 'ok installed'
}
# Purge the package if it is there; the prerm runs dkms remove --all.
purge() {
	dpkg-query -W atomkms-dkms > /dev/null 2>&1 || return 0
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q atomkms-dkms \
		>> "$log/purge.log" 2>&1
}

[ "$(id -u)" = 0 ] || { echo "dkms: needs root (apt-get install, dkms)" >&2; exit 2; }
[ -n "$kver" ] && [ -d "/lib/modules/$kver/build" ] ||
	{ echo "dkms: no 6.12 headers for /lib/modules/${kver:-?}: run make setup" >&2; exit 2; }
rm -rf "$log"
mkdir -p "$log"
ver=$(dpkg-parsechangelog -S Version)
deb=build/deb/atomkms-dkms_${ver}_all.deb
moddir=/lib/modules/$kver/updates/dkms

echo "== make deb"
if make --no-print-directory deb > "$log/deb.log" 2>&1 && [ -f "$deb" ]; then
	pass "make deb: $deb"
else
	tail -n 20 "$log/deb.log"
	fail "make deb"
	finish
fi
# The package ships the module's source and its docs, nothing else.
extra=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | grep -v '/$' | grep -vE \
	"^\./usr/src/atomkms-$ver/(Kbuild|dkms\.conf|dkms-recompress\.sh|module/[a-z_]+\.[ch]|module/core/([a-z_]+\.c|sources\.mk|simd/[a-z0-9_]+\.[ch])|include/[a-z_]+\.h)\$|^\./usr/share/doc/atomkms-dkms/(copyright|changelog\.gz)\$" ||
	true)
check "the package holds only Kbuild, dkms.conf, dkms-recompress.sh, module/*.[ch], module/core/ (simd/ too), include/*.h" \
	[ -z "$extra" ]
[ -z "$extra" ] || echo "$extra" | head -n 10

echo "== waiting for the guest lock ($lock)"
t0=$(date +%s)
exec 9>> "$lock"
flock 9
waited=$(($(date +%s) - t0))

# From here on the package comes off again whatever happens. An empty
# updates/ that dkms made goes too, and so does a package that an
# interrupted run left behind.
[ -d "/lib/modules/$kver/updates" ] && had_updates=1 || had_updates=0
[ -f /var/lib/dkms/mok.key ] && had_key=1 || had_key=0
cleanup() {
	purge || true
	if [ "$had_updates" = 0 ]; then
		rmdir "$moddir" "/lib/modules/$kver/updates" 2>/dev/null || true
	fi
}
trap cleanup EXIT
trap 'echo "dkms: interrupted"; exit 130' INT TERM
purge

# dkms's postinst (/usr/lib/dkms/common.postinst) builds for the running
# kernel and the newest one when the running kernel is in /lib/modules;
# when it is not (this host runs another kernel, with no modules there) it
# builds for every kernel in /lib/modules whose headers are installed.
# dkms.conf's BUILD_EXCLUSIVE_KERNEL makes dkms skip any but 6.12. Should
# the postinst not have built for $kver, dkms builds for it by hand.
echo "== apt-get install ./$deb (dkms builds atomkms for $kver)"
t0=$(date +%s)
if DEBIAN_FRONTEND=noninteractive nice apt-get install -y -q \
	--no-install-recommends "./$deb" > "$log/install.log" 2>&1; then
	pass "apt-get install ./$deb ($(($(date +%s) - t0)) s)"
else
	fail "apt-get install ./$deb"
fi
grep -E 'chroot|Building for|Building initial|Skipped|Done\.|Signing|Installing|depmod|Error' \
	"$log/install.log" | sed 's/^/  /' || true
# (dkms status: readelf warns that the headers' vmlinux has no .comment.)
if installed && ! dkms status -m atomkms -v "$ver" -k "$kver" 2> /dev/null |
	grep -q ': installed'; then
	echo "  the postinst did not build for $kver: dkms install -k $kver"
	nice dkms install -m atomkms -v "$ver" -k "$kver" > "$log/dkms-install.log" 2>&1 ||
		tail -n 20 "$log/dkms-install.log"
fi
status=$(dkms status -m atomkms 2> /dev/null || true)
echo "$status" | sed 's/^/  dkms status: /'
case $status in
*"atomkms/$ver, $kver, "*": installed"*) pass "dkms status: atomkms/$ver installed for $kver" ;;
*) fail "dkms status: atomkms/$ver not installed for $kver" ;;
esac
cp /var/lib/dkms/atomkms/"$ver/$kver"/*/log/make.log "$log/" 2>/dev/null || true

mod=$(ls "$moddir"/atomkms.ko* 2>/dev/null | head -n 1 || true)
check "module file: ${mod:-none in $moddir}" [ -n "$mod" ]
buildid=
if [ -n "$mod" ]; then
	vermagic=$(modinfo -F vermagic "$mod" 2>/dev/null || true)
	case $vermagic in
	"$kver "*) pass "vermagic: $vermagic" ;;
	*) fail "vermagic: '$vermagic', not $kver's" ;;
	esac
	# The kernel decompresses a .ko.xz itself for kmod 31 and later,
	# and takes CRC32 only (dkms-recompress.sh).
	case $mod in
	*.xz)
		xzcheck=$(xz --robot --list "$mod" 2>&1 | awk '$1 == "file" { print $7 }')
		check "xz integrity check: ${xzcheck:-?} (the kernel's decoder takes CRC32)" \
			[ "$xzcheck" = CRC32 ]
		xz -dc "$mod" > "$log/atomkms.ko" || true
		;;
	*) cp "$mod" "$log/atomkms.ko" ;;
	esac
	buildid=$(readelf -n "$log/atomkms.ko" 2>/dev/null | sed -n 's/.*Build ID: //p')
	rel=${mod#"/lib/modules/$kver/"}
	check "depmod ran for $kver: modules.dep lists $rel" \
		grep -q "^$rel:" "/lib/modules/$kver/modules.dep"
fi
[ "$had_key" = 1 ] || [ ! -f /var/lib/dkms/mok.key ] ||
	echo "  note: dkms made its signing key /var/lib/dkms/mok.key (kept: dkms signs all it builds with it)"

# The guest loads the module with modprobe: no insmod of /host/atomkms.ko.
# The lock is ours already (fd 9).
echo "== guest: modprobe atomkms from /lib/modules/$kver"
t0=$(date +%s)
set +e
qemu/run-guest.sh --no-module --name dkms --timeout 300 -- \
	sh test/dkms-guest.sh "$buildid"
grc=$?
set -e
touch build/guest/dkms/job.log
grep -E '^(PASS|FAIL): ' build/guest/dkms/job.log || true
passed=$((passed + $(grep -c '^PASS: ' build/guest/dkms/job.log || true)))
failed=$((failed + $(grep -c '^FAIL: ' build/guest/dkms/job.log || true)))
check "guest run (exit $grc, $(($(date +%s) - t0)) s; clean kernel log)" [ "$grc" = 0 ]
# The guest's init unloads atomkms after the job (rmmod.log, empty when it went).
if [ -f build/guest/dkms/rmmod.log ] && [ ! -s build/guest/dkms/rmmod.log ]; then
	pass "guest: rmmod atomkms after the job"
else
	fail "guest: rmmod atomkms after the job: $(cat build/guest/dkms/rmmod.log 2>/dev/null)"
fi

echo "== apt-get purge atomkms-dkms"
if purge && ! dpkg-query -W atomkms-dkms > /dev/null 2>&1; then
	pass "apt-get purge atomkms-dkms"
else
	fail "apt-get purge atomkms-dkms"
fi
cleanup
check "depmod $kver" depmod "$kver"
left=$(find "/lib/modules/$kver" -name 'atomkms*' 2>/dev/null)
check "nothing named atomkms* under /lib/modules/$kver${left:+: $left}" [ -z "$left" ]
check "no atomkms in modules.dep after depmod $kver" \
	test -z "$(grep atomkms "/lib/modules/$kver/modules.dep")"
if [ ! -e /var/lib/dkms/atomkms ] && [ ! -e "/usr/src/atomkms-$ver" ]; then
	pass "dkms forgot atomkms (/var/lib/dkms/atomkms, /usr/src/atomkms-$ver gone)"
else
	fail "dkms still has /var/lib/dkms/atomkms or /usr/src/atomkms-$ver"
fi
finish
