#!/bin/sh
# make check-dkms: the atomkms-dkms package end to end, as root, on both
# kernels users install it for: on this host, where dkms builds atomkms.ko
# for the 6.12 headers, and in the trixie chroot of qemu/kernels.sh, a
# trixie-backports system where dkms builds it for 7.3 and 7.2. For each:
# build the package (make deb) and install it (never loading the module
# here), boot the guest on that kernel, which mounts that system's
# /lib/modules and loads the module with modprobe, then purge the package
# and check that nothing of atomkms is left. In the chroot, a kernel
# outside the range (6.12 to 7.3) must be skipped by dkms with its
# message. Ends with "dkms: N passed, N failed".
#
# Every 6.12 guest mounts the host's /lib/modules and every 7.3 guest the
# chroot's: the guest lock is held from each installation to its purge,
# so that no other guest sees the package's module, nor shares the two
# cores with dkms's build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. qemu/kernels.sh
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
# On the system under test (dkms_system selects its kernel): the host or
# the chroot.
on_target() { kernel_sh "$1"; }
installed() {
	on_target "dpkg-query -W -f='\${Status}' atomkms-dkms 2>/dev/null" | grep -q 'ok installed'
}
# Purge the package if it is there; the prerm runs dkms remove --all.
purge() {
	on_target "dpkg-query -W atomkms-dkms" > /dev/null 2>&1 || return 0
	on_target "apt-get purge -y -q atomkms-dkms" \
		>> "$log/purge-$name.log" 2>&1
}

[ "$(id -u)" = 0 ] || { echo "dkms: needs root (apt-get install, dkms)" >&2; exit 2; }
kernel_select 6.12
kernel_need
kver612=$k_kver
kernel_select 7.3
kernel_need boot
kver73=$k_kver
kernel_select 7.2
kernel_need
kver72=$k_kver
rm -rf "$log"
mkdir -p "$log"
ver=$(dpkg-parsechangelog -S Version)
deb=build/deb/atomkms-dkms_${ver}_all.deb

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

# One system: NAME (6.12 or 7.3, the kernel its guest boots), ROOT (empty
# for the host, else the chroot), then every kernel of that system that
# dkms must build for. From the installation on, the package comes off
# again whatever happens; an empty updates/ that dkms made goes too, and
# so does a package that an interrupted run left behind.
mounted= name= root= kvers= had_updates=
cleanup() {
	purge || true
	for k in $kvers; do
		case " $had_updates " in
		*" $k "*) ;;
		*) rmdir "$root/lib/modules/$k/updates/dkms" "$root/lib/modules/$k/updates" 2>/dev/null || true ;;
		esac
	done
	[ -z "$mounted" ] || umount "$root/proc"
	mounted=
}
trap 'cleanup' EXIT
trap 'echo "dkms: interrupted"; exit 130' INT TERM

dkms_system() {
	name=$1
	shift
	kvers=$*
	kboot=$1
	kernel_select "$name"
	root=$k_root
	echo "== $name: ${root:-this host}"
	if [ -n "$root" ] && ! mountpoint -q "$root/proc"; then
		mount -t proc proc "$root/proc"
		mounted=1
	fi
	purge
	had_updates=
	for k in $kvers; do
		[ ! -d "$root/lib/modules/$k/updates" ] || had_updates="$had_updates $k"
	done
	[ -f "$root/var/lib/dkms/mok.key" ] && had_key=1 || had_key=0
	rm -f "$root/tmp/${deb##*/}"
	[ -z "$root" ] || cp "$deb" "$root/tmp/"
	pkg=./$deb
	[ -z "$root" ] || pkg=/tmp/${deb##*/}

	# dkms's postinst (/usr/lib/dkms/common.postinst) builds for the
	# running kernel and the newest one when the running kernel is in
	# /lib/modules; when it is not (the host and the chroot run another
	# kernel) it builds for every kernel in /lib/modules whose headers are
	# installed. dkms.conf's BUILD_EXCLUSIVE_KERNEL makes dkms skip any
	# outside 6.12 to 7.3. Should the postinst not have built for one of
	# $kvers, dkms builds for it by hand.
	echo "== $name: apt-get install $pkg (dkms builds atomkms for $kvers)"
	t0=$(date +%s)
	if on_target "nice apt-get install -y -q \
		--no-install-recommends $pkg" > "$log/install-$name.log" 2>&1; then
		pass "$name: apt-get install $pkg ($(($(date +%s) - t0)) s)"
	else
		fail "$name: apt-get install $pkg"
	fi
	grep -E 'chroot|Building for|Building initial|Skipped|Done\.|Signing|Installing|depmod|Error' \
		"$log/install-$name.log" | sed 's/^/  /' || true
	for k in $kvers; do
		# (dkms status: readelf warns that the headers' vmlinux has no .comment.)
		if installed && ! on_target "dkms status -m atomkms -v $ver -k $k" 2> /dev/null |
			grep -q ': installed'; then
			echo "  the postinst did not build for $k: dkms install -k $k"
			on_target "nice dkms install -m atomkms -v $ver -k $k" > "$log/dkms-install-$k.log" 2>&1 ||
				tail -n 20 "$log/dkms-install-$k.log"
		fi
	done
	status=$(on_target "dkms status -m atomkms" 2> /dev/null || true)
	echo "$status" | sed 's/^/  dkms status: /'
	for k in $kvers; do
		case $status in
		*"atomkms/$ver, $k, "*": installed"*) pass "$name: dkms status: atomkms/$ver installed for $k" ;;
		*) fail "$name: dkms status: atomkms/$ver not installed for $k" ;;
		esac
		cp "$root/var/lib/dkms/atomkms/$ver/$k"/*/log/make.log "$log/make-$k.log" 2>/dev/null || true
	done

	# The module of the kernel the guest boots.
	moddir=$root/lib/modules/$kboot/updates/dkms
	mod=$(ls "$moddir"/atomkms.ko* 2>/dev/null | head -n 1 || true)
	check "$name: module file: ${mod:-none in $moddir}" [ -n "$mod" ]
	buildid=
	if [ -n "$mod" ]; then
		vermagic=$(modinfo -F vermagic "$mod" 2>/dev/null || true)
		case $vermagic in
		"$kboot "*) pass "$name: vermagic: $vermagic" ;;
		*) fail "$name: vermagic: '$vermagic', not $kboot's" ;;
		esac
		# The kernel decompresses a .ko.xz itself for kmod 31 and later,
		# and takes CRC32 only (dkms-recompress.sh).
		case $mod in
		*.xz)
			xzcheck=$(xz --robot --list "$mod" 2>&1 | awk '$1 == "file" { print $7 }')
			check "$name: xz integrity check: ${xzcheck:-?} (the kernel's decoder takes CRC32)" \
				[ "$xzcheck" = CRC32 ]
			xz -dc "$mod" > "$log/atomkms-$name.ko" || true
			;;
		*) cp "$mod" "$log/atomkms-$name.ko" ;;
		esac
		buildid=$(readelf -n "$log/atomkms-$name.ko" 2>/dev/null | sed -n 's/.*Build ID: //p')
		rel=${mod#"$root/lib/modules/$kboot/"}
		check "$name: depmod ran for $kboot: modules.dep lists $rel" \
			grep -q "^$rel:" "$root/lib/modules/$kboot/modules.dep"
	fi
	[ "$had_key" = 1 ] || [ ! -f "$root/var/lib/dkms/mok.key" ] ||
		echo "  note: dkms made its signing key ${root}/var/lib/dkms/mok.key (kept: dkms signs all it builds with it)"

	# The guest loads the module with modprobe: no insmod of /host/atomkms.ko.
	# The lock is ours already (fd 9).
	echo "== $name: guest: modprobe atomkms from /lib/modules/$kboot"
	t0=$(date +%s)
	set +e
	qemu/run-guest.sh --kernel "$name" --no-module --name "dkms-$name" --timeout 300 -- \
		sh test/dkms-guest.sh "$buildid"
	grc=$?
	set -e
	glog=build/guest/dkms-$name
	touch "$glog/job.log"
	grep -E '^(PASS|FAIL): ' "$glog/job.log" | sed "s/: guest: /: $name: guest: /" || true
	passed=$((passed + $(grep -c '^PASS: ' "$glog/job.log" || true)))
	failed=$((failed + $(grep -c '^FAIL: ' "$glog/job.log" || true)))
	check "$name: guest run (exit $grc, $(($(date +%s) - t0)) s; clean kernel log)" [ "$grc" = 0 ]
	# The guest's init unloads atomkms after the job (rmmod.log, empty when it went).
	if [ -f "$glog/rmmod.log" ] && [ ! -s "$glog/rmmod.log" ]; then
		pass "$name: guest: rmmod atomkms after the job"
	else
		fail "$name: guest: rmmod atomkms after the job: $(cat "$glog/rmmod.log" 2>/dev/null)"
	fi

	# A kernel outside the range: dkms skips it and says why. (Its
	# headers stand in for an out-of-range kernel's: dkms reads the
	# version from the name.)
	if [ -n "$root" ]; then
		out=7.4.0-outofrange
		mkdir -p "$root/lib/modules/$out"
		ln -sfn "$(readlink "$root/lib/modules/$kboot/build")" "$root/lib/modules/$out/build"
		set +e
		on_target "dkms build -m atomkms -v $ver -k $out" > "$log/outofrange.log" 2>&1
		drc=$?
		set -e
		rm -rf "$root/lib/modules/$out" "$root/var/lib/dkms/atomkms/$ver/$out"
		if [ "$drc" = 77 ] && grep -q 'BUILD_EXCLUSIVE' "$log/outofrange.log"; then
			pass "$name: dkms skips $out (exit 77): $(grep -m1 BUILD_EXCLUSIVE "$log/outofrange.log" | cut -c1-100)"
		else
			fail "$name: dkms build for $out: exit $drc, not the BUILD_EXCLUSIVE skip (77)"
			tail -n 5 "$log/outofrange.log"
		fi
	fi

	echo "== $name: apt-get purge atomkms-dkms"
	if purge && ! on_target "dpkg-query -W atomkms-dkms" > /dev/null 2>&1; then
		pass "$name: apt-get purge atomkms-dkms"
	else
		fail "$name: apt-get purge atomkms-dkms"
	fi
	rm -f "$root/tmp/${deb##*/}"
	cleanup
	for k in $kvers; do
		check "$name: depmod $k" on_target "depmod $k"
		left=$(find "$root/lib/modules/$k" -name 'atomkms*' 2>/dev/null)
		check "$name: nothing named atomkms* under /lib/modules/$k${left:+: $left}" [ -z "$left" ]
		check "$name: no atomkms in modules.dep after depmod $k" \
			test -z "$(grep atomkms "$root/lib/modules/$k/modules.dep")"
	done
	if [ ! -e "$root/var/lib/dkms/atomkms" ] && [ ! -e "$root/usr/src/atomkms-$ver" ]; then
		pass "$name: dkms forgot atomkms (/var/lib/dkms/atomkms, /usr/src/atomkms-$ver gone)"
	else
		fail "$name: dkms still has /var/lib/dkms/atomkms or /usr/src/atomkms-$ver"
	fi
}

dkms_system 6.12 "$kver612"
dkms_system 7.3 "$kver73" "$kver72"
finish
