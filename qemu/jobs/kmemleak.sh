#!/bin/sh
# Sourced by guest jobs that run several stages under the debug kernel:
# kmemleak_after STAGE OUTDIR scans for leaks now, keeps the reports in
# OUTDIR/kmemleak-STAGE.txt (qemu/run-guest.sh fails the run on any), says
# how many there were, and forgets them so that the next stage's scan
# names only its own. Does nothing on a kernel without kmemleak.
kmemleak_after() {
	kml=/sys/kernel/debug/kmemleak
	[ -w "$kml" ] || return 0
	# kmemleak reports objects older than 5 s only.
	sleep 5
	echo scan > "$kml"
	cat "$kml" > "$2/kmemleak-$1.txt"
	n=$(grep -c 'unreferenced object' "$2/kmemleak-$1.txt")
	echo "kmemleak after $1: $n unreferenced object(s)"
	echo clear > "$kml"
	[ "$n" = 0 ]
}
