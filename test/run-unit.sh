#!/bin/sh
# Run the userspace unit tests; each prints "NAME: N passed, N failed".
# Exit status: non-zero if any test binary fails.
rc=0
for t in "$@"; do
	"$t" || rc=1
done
exit $rc
