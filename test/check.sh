#!/bin/sh
# make check: the userspace unit tests, our guest tests, and the CI igt
# list. Prints a closing "N passed, N failed" line; exits 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=build/check
mkdir -p "$log"
passed=0 failed=0

# Add the counts from every "...: N passed, N failed" line of a log.
tally() {
	p=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$1" |
		awk '{ s += $1 } END { print s + 0 }')
	f=$(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$1" |
		awk '{ s += $1 } END { print s + 0 }')
	passed=$((passed + p))
	failed=$((failed + f))
}

echo "== unit tests"
if test/run-unit.sh build/unit/test_* > "$log/unit.log" 2>&1; then :; else
	failed=$((failed + 1))
	echo "unit tests: a test binary failed"
fi
cat "$log/unit.log"
tally "$log/unit.log"

echo "== guest tests"
tests=$(ls build/bin/test-* 2>/dev/null | sed 's|^|/host/|')
qemu/run-guest.sh --name guest-tests --timeout 900 -- \
	sh qemu/jobs/guest-tests.sh /host/build/guest/guest-tests $tests
grc=$?
grep '^not ok' build/guest/guest-tests/job.log 2>/dev/null || true
if [ $grc -ne 0 ] && [ $grc -ne 1 ]; then
	echo "guest tests: the guest run failed (exit $grc)"
	failed=$((failed + 1))
fi
while read -r name rc; do
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		echo "$name: PASS"
	else
		failed=$((failed + 1))
		echo "$name: FAIL (exit $rc)"
	fi
done < build/guest/guest-tests/guest-tests.txt
for t in $tests; do
	grep -q "^$(basename "$t") " build/guest/guest-tests/guest-tests.txt 2>/dev/null ||
		{ failed=$((failed + 1)); echo "$(basename "$t"): did not run"; }
done

echo "== igt (test/igt/ci.list)"
test/run-igt.sh test/igt/ci.list igt-ci > "$log/igt.log" 2>&1
cat "$log/igt.log"
tally "$log/igt.log"

echo
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
