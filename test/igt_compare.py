#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare an igt results.json (made by igt_results) with the expectations.

Every subtest that ran must pass, unless an expectations file names it
(exactly or by a shell glob; the first match over the files in order wins)
with another result and a reason:

    igt@kms_vblank@*-suspend      skip   # guest has no S3: QEMU disables it

A listed binary that produced no result at all is a failure, and so is an
expected non-pass result without a reason. Prints one line per unexpected
result, followed by the lines of its output that say why, and a closing
"igt: N passed, N failed, N skipped" line; exits 1 on any unexpected result.
"""
import fnmatch
import json
import sys

RESULTS = {"pass", "skip", "fail", "warn", "dmesg-warn", "dmesg-fail",
           "crash", "timeout", "incomplete", "notrun", "abort"}


def load_expectations(path):
    rules = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line, _, reason = raw.partition("#")
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2 or fields[1] not in RESULTS:
                sys.exit(f"{path}:{lineno}: want 'igt@bin@subtest RESULT # reason'")
            if fields[1] != "pass" and not reason.strip():
                sys.exit(f"{path}:{lineno}: a {fields[1]} needs a reason")
            rules.append((fields[0], fields[1], reason.strip()))
    return rules


def expected_for(name, rules):
    for pattern, result, reason in rules:
        if fnmatch.fnmatchcase(name, pattern):
            return result, reason
    return "pass", ""


def why(test, limit=6):
    """The lines of a result that say why it failed: igt's CRITICAL
    assertions first, else the end of its stderr, else of its dmesg."""
    err = test.get("err", "").splitlines()
    lines = [l for l in err if "CRITICAL" in l]
    if not lines:
        lines = [l for l in err if l.strip()][-limit:]
    if not lines:
        lines = [l for l in test.get("dmesg", "").splitlines()
                 if l.strip()][-limit:]
    return [l[:200] for l in lines[:limit]]


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: igt_compare.py results.json LIST EXPECTATIONS...")
    with open(sys.argv[1]) as f:
        tests = json.load(f)["tests"]
    rules = []
    for path in sys.argv[3:]:
        rules += load_expectations(path)
    with open(sys.argv[2]) as f:
        listed = [l.split("#")[0].strip() for l in f]
    listed = [l for l in listed if l]

    passed = failed = skipped = 0
    for name in sorted(tests):
        got = tests[name]["result"]
        want, reason = expected_for(name, rules)
        if got == want:
            if got == "skip":
                skipped += 1
            else:
                passed += 1
            continue
        failed += 1
        detail = f" (expected {want}: {reason})" if want != "pass" else ""
        print(f"UNEXPECTED {name}: {got}{detail}")
        for line in why(tests[name]):
            print(f"    {line}")

    for entry in listed:
        if not any(n == entry or n.startswith(entry + "@") for n in tests):
            failed += 1
            print(f"UNEXPECTED {entry}: no result")

    print(f"igt: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
