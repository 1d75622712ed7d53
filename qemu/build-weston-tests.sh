#!/bin/sh
# Build weston's own DRM-backend tests (drm-smoke, drm-writeback-screenshot,
# written for vkms) for the clients image, in a Debian trixie build chroot
# of their own (CACHE/weston-build/root: never the clients image itself),
# and stage what the guest runs in build/weston-tests, which the guest
# sees as /w (qemu/jobs/weston-tests.sh links it there: the build's
# absolute paths, its module map and reference images, are /w/...).
#
# The source is the clients image's weston source package (apt-get source
# weston=14.0.2-1 from trixie). When the archive cannot serve it, set
# WESTON_GIT to a git clone of upstream weston: the script then builds its
# tag WESTON_GIT_REF (default 14.0.1), with trixie's build-dependencies of
# the package all the same, and says so.
#
# Only what the two tests need is built: the two test programs, the test
# plugin, the test desktop shell, the DRM backend and what they link
# (libweston, libexec_weston). The tests link the build's own libweston
# (meson's $ORIGIN rpaths), not the image's; everything else they need
# (pixman, cairo, libdrm, libinput, libseat, ...) the clients image has.
#
# Usage: qemu/build-weston-tests.sh CACHE_DIR
# Cached: does nothing but the staging copy once the stamp says the same
# source and targets were built.
set -eu

cache=$1
top=$(cd "$(dirname "$0")/.." && pwd)
suite=trixie
ver=${WESTON_VERSION:-14.0.2-1}
mirror=${ATOMKMS_MIRROR:-http://deb.debian.org/debian}
dir=$cache/weston-build
root=$dir/root
stage=$top/build/weston-tests
targets="tests/test-drm-smoke tests/test-drm-writeback-screenshot
	tests/test-plugin.so tests/weston-test-desktop-shell.so
	libweston/backend-drm/drm-backend.so"
targets=$(echo $targets)

# Two cores, shared with guest runs: stay behind them.
renice -n 10 $$ > /dev/null
t0=$(date +%s)
phase() {
	t=$(date +%s)
	echo "weston-tests[build]: $1 ($((t - t0)) s so far)"
}

stage_copy() {
	[ -f "$stage/stamp" ] && cmp -s "$stage/stamp" "$dir/stamp" && return 0
	rm -rf "$stage"
	mkdir -p "$stage"
	# The build tree without its object files, and the source files the
	# tests read at run time: data/ and the reference screenshots.
	tar -C "$root/w" --exclude='*.p' --exclude='*.o' --exclude='*.a' \
		-cf - build src/data src/tests/reference | tar -C "$stage" -xf -
	cp "$dir/stamp" "$stage/stamp"
	echo "weston-tests[build]: staged in $stage ($(du -sm "$stage" | cut -f1) MiB)"
}

if [ -f "$dir/stamp" ] && [ "$(sed -n 2p "$dir/stamp")" = "$targets" ] &&
	[ -x "$root/w/build/tests/test-drm-smoke" ]; then
	echo "weston-tests[build]: up to date ($(head -n 1 "$dir/stamp"))"
	stage_copy
	exit 0
fi

mkdir -p "$dir"
# --- the build chroot (trixie, as the clients image)
if [ ! -f "$root/.chroot-ok" ]; then
	phase "debootstrap $suite into $root"
	rm -rf "$root.tmp" "$root"
	debootstrap --variant=minbase --include=build-essential,dpkg-dev,ca-certificates \
		"$suite" "$root.tmp" "$mirror" > "$dir/debootstrap.log" 2>&1 || {
		tail -n 20 "$dir/debootstrap.log" >&2
		echo "weston-tests[build]: FAILED: debootstrap (log $dir/debootstrap.log)" >&2
		rm -rf "$root.tmp"
		exit 1
	}
	echo "deb-src $mirror $suite main" > "$root.tmp/etc/apt/sources.list.d/src.list"
	mv "$root.tmp" "$root"
	touch "$root/.chroot-ok"
fi

mounted=
cleanup() { [ -z "$mounted" ] || umount "$root/proc"; }
trap cleanup EXIT
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc"; mounted=1; }
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -c "$1"; }

# --- the source: the package's, or upstream's tag when the archive has none
if [ ! -f "$root/w/src/.source" ]; then
	phase "apt-get source weston=$ver"
	rm -rf "$root/w"
	mkdir -p "$root/w/pkg"
	in_root "apt-get update -q" > "$dir/apt.log" 2>&1
	if in_root "cd /w/pkg && apt-get source -q weston=$ver" >> "$dir/apt.log" 2>&1; then
		mv "$root/w/pkg/weston-${ver%-*}" "$root/w/src"
		echo "Debian source package weston $ver" > "$root/w/src/.source"
	elif [ -n "${WESTON_GIT:-}" ]; then
		ref=${WESTON_GIT_REF:-14.0.1}
		echo "weston-tests[build]: the archive does not serve weston $ver's source:" >&2
		grep -E '^(E|Err):' "$dir/apt.log" | head -n 5 | sed 's/^/  /' >&2
		echo "weston-tests[build]: building upstream weston $ref from $WESTON_GIT instead" >&2
		git -C "$WESTON_GIT" archive --prefix=src/ "$ref" | tar -x -C "$root/w"
		echo "upstream weston $ref ($(git -C "$WESTON_GIT" rev-parse "$ref^{commit}"))," \
			"Debian weston $ver source not available" > "$root/w/src/.source"
		# 14.0.1 wants neatvnc < 0.9; trixie has 0.9.1 (14.0.2 takes it).
		echo "-Dbackend-vnc=false" > "$root/w/src/.meson-options"
	else
		grep -E '^(E|Err):' "$dir/apt.log" | head -n 5 >&2
		echo "weston-tests[build]: FAILED: apt-get source weston=$ver (log $dir/apt.log);" \
			"set WESTON_GIT to a clone of upstream weston to build its tag" \
			"${WESTON_GIT_REF:-14.0.1} instead" >&2
		exit 1
	fi
fi

# --- the package's build-dependencies (from the Sources index)
if [ ! -f "$root/.build-dep-ok" ]; then
	phase "apt-get build-dep weston=$ver"
	in_root "apt-get update -q && apt-get build-dep -y -q weston=$ver" \
		> "$dir/build-dep.log" 2>&1 || {
		tail -n 20 "$dir/build-dep.log" >&2
		echo "weston-tests[build]: FAILED: build-dep (log $dir/build-dep.log)" >&2
		exit 1
	}
	touch "$root/.build-dep-ok"
fi

# --- configure as Debian does (dpkg-buildflags, plain build type, the
# default options, which the build-dependencies satisfy) with tests, and
# build only the tests' targets. (.meson-options: what upstream's tag
# needs beyond that.)
phase "meson setup and ninja $targets"
rm -rf "$root/w/build"
in_root 'cd /w && eval "$(dpkg-buildflags --export=sh)" &&
	meson setup --buildtype=plain --prefix=/usr -Dtests=true \
		-Dtest-junit-xml=false -Ddoc=false $(cat src/.meson-options 2>/dev/null) \
		build src' > "$dir/build.log" 2>&1 &&
	in_root "cd /w/build && nice -n 10 ninja $targets" >> "$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	echo "weston-tests[build]: FAILED: the build (log $dir/build.log)" >&2
	exit 1
}
{ cat "$root/w/src/.source"; echo "$targets"; } > "$dir/stamp"
phase "built $(head -n 1 "$dir/stamp")"
stage_copy
