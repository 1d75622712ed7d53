#!/bin/sh
# Guest side of `make check`'s guest tests: run every test binary given,
# each in turn, recording "NAME RC" lines in OUTDIR/guest-tests.txt.
# Usage (in the guest): qemu/jobs/guest-tests.sh OUTDIR TEST...
set -u
. /host/qemu/jobs/sw-sync.sh
out=$1
shift
: > "$out/guest-tests.txt"
for t in "$@"; do
	name=$(basename "$t")
	echo "=== $name"
	timeout 300 "$t"
	echo "$name $?" >> "$out/guest-tests.txt"
done
