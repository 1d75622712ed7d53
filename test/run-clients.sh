#!/bin/sh
# The clients stage: real clients (weston, sway, kmscube, modetest) on
# atomkms in the clients image, at 1024x768 (vkms's default mode, which
# weston's own tests expect). The guest side is qemu/jobs/clients.sh; its
# screenshots, dumps and logs stay in build/guest/clients.
#
# Usage: test/run-clients.sh
# Prints the guest's "ok"/"not ok" lines and "clients: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
name=clients
qemu/run-guest.sh --image clients --name $name \
	--params "pref_width=1024 pref_height=768" --timeout 600 -- \
	sh qemu/jobs/clients.sh "/host/build/guest/$name"
rc=$?
log=build/guest/$name/job.log
grep -E '^(ok|not ok|#|clients:)' "$log" 2> /dev/null
echo "clients: guest wall time $(cat build/guest/$name/wall 2> /dev/null) s"
if [ $rc -gt 1 ] || ! grep -q '^clients: [0-9]* passed' "$log" 2> /dev/null; then
	# The guest failed before the summary: count it as one failure.
	echo "clients: the guest run failed (exit $rc): 0 passed, 1 failed"
	exit 1
fi
exit $rc
