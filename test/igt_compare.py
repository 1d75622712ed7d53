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

Timing under TCG: a subtest named in test/igt/timing.txt asserts that
userspace meets a vblank deadline, which an emulation stall of the guest
can make it miss. With --rerun-list FILE, the subtests among the unexpected
results that match it are written to FILE (igt@binary@subtest, one a line)
when they are the only unexpected ones: a failed dynamic subtest alone
(igt@binary@subtest@dynamic), a subtest whole only when none of its
dynamic subtests failed. With --rerun RESULTS, each of them
takes its result from that second run instead, and the line says so
("RERUN name: fail, then pass"); every other result still counts as is.
"""
import argparse
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
    # igt prints a failed assertion once per output it logs to: once here.
    err = list(dict.fromkeys(err))
    lines = [l for l in err if "CRITICAL" in l]
    if not lines:
        lines = [l for l in err if l.strip()][-limit:]
    if not lines:
        lines = [l for l in test.get("dmesg", "").splitlines()
                 if l.strip()][-limit:]
    return [l[:200] for l in lines[:limit]]


def load_patterns(path):
    """Glob patterns with their reasons: 'igt@bin@subtest # reason'."""
    pats = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line, _, reason = raw.partition("#")
            if not line.strip():
                continue
            if len(line.split()) != 1 or not reason.strip():
                sys.exit(f"{path}:{lineno}: want 'igt@bin@subtest # reason'")
            pats.append((line.strip(), reason.strip()))
    return pats


def subtest_of(name):
    """igt@bin@subtest of a (possibly dynamic) result name."""
    return "@".join(name.split("@")[:3])


def rerun_entries(unexpected):
    """What to run again for these results: each failed dynamic subtest
    alone (the rerun's parent result then covers the parent's own code
    and just those dynamic subtests), and a failed subtest whole only
    when none of its dynamic subtests failed."""
    dynamic = {n for n in unexpected if n != subtest_of(n)}
    parents = {subtest_of(n) for n in dynamic}
    whole = {n for n in unexpected if n not in dynamic
             and n not in parents}
    return sorted(dynamic | whole)


def spell(name, spelled):
    """igt's own spelling of the subtest part of a result name."""
    sub = subtest_of(name)
    return spelled.get(sub, sub) + name[len(sub):]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("list")
    ap.add_argument("expectations", nargs="+")
    ap.add_argument("--timing", help="subtests that may be rerun once")
    ap.add_argument("--rerun-list", help="write the subtests to rerun here")
    ap.add_argument("--rerun", help="results.json of the rerun")
    args = ap.parse_args()
    with open(args.results) as f:
        tests = json.load(f)["tests"]
    rules = []
    for path in args.expectations:
        rules += load_expectations(path)
    with open(args.list) as f:
        listed = [l.split("#")[0].strip() for l in f]
    listed = [l for l in listed if l]
    timing = load_patterns(args.timing) if args.timing else []
    rerun = {}
    if args.rerun:
        with open(args.rerun) as f:
            rerun = json.load(f)["tests"]

    def timing_reason(name):
        for pattern, reason in timing:
            if fnmatch.fnmatchcase(subtest_of(name), pattern):
                return reason
        return None

    passed = failed = skipped = 0
    unexpected = []
    for name in sorted(tests):
        got = tests[name]["result"]
        want, reason = expected_for(name, rules)
        if got != want and name in rerun and timing_reason(name):
            again = rerun[name]["result"]
            print(f"RERUN {name}: {got}, then {again} "
                  f"(timing under TCG: {timing_reason(name)})")
            for line in why(tests[name]):
                print(f"    {line}")
            got = again
        if got == want:
            if got == "skip":
                skipped += 1
            else:
                passed += 1
            continue
        failed += 1
        unexpected.append(name)
        detail = f" (expected {want}: {reason})" if want != "pass" else ""
        print(f"UNEXPECTED {name}: {got}{detail}")
        for line in why(rerun.get(name, tests[name])):
            print(f"    {line}")

    # Results name subtests in lower case (igt_results); lists may use
    # igt's own spelling (cursorA-vs-flipB), which is what --run-subtest
    # needs.
    spelled = {l.lower(): l for l in listed}
    for entry in listed:
        low = entry.lower()
        if not any(n == low or n.startswith(low + "@") for n in tests):
            failed += 1
            unexpected.append(entry)
            print(f"UNEXPECTED {entry}: no result")

    if args.rerun_list:
        again = rerun_entries(unexpected)
        if not unexpected or not all(timing_reason(n) for n in unexpected):
            again = []
        with open(args.rerun_list, "w") as f:
            f.writelines(spell(n, spelled) + "\n" for n in again)

    # The names again, last: a log read from its end shows them all.
    if unexpected:
        print(f"unexpected ({len(unexpected)}): " + " ".join(unexpected))
    print(f"igt: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
