# Sourced by the guest stages that print TAP-like lines (clients.sh,
# limits-clients.sh): result NAME RC [DETAIL] prints "ok - NAME: DETAIL"
# for RC 0, else "not ok - ...", and counts it in $passed or $failed.
passed=0 failed=0

result() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
		echo "ok - $1${3:+: $3}"
	else
		failed=$((failed + 1))
		echo "not ok - $1${3:+: $3}"
	fi
}
