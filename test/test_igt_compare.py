#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of test/igt_compare.py on made-up igt results: expectations,
missing results, and what a timing rerun runs again and how it counts.
Prints "not ok" for a failed case and "test_igt_compare: N passed,
N failed", as the unit tests do; exits 1 on a failure."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "igt_compare.py")
TIMING = "igt@kms_sequence@queue-* # timing\n"


def run(tmp, results, listed, expected="", timing=TIMING, rerun=None):
    """Run igt_compare; return (exit code, output, rerun list or None)."""
    paths = {}
    for name, text in (("expected.txt", expected), ("timing.txt", timing),
                       ("ci.list", "\n".join(listed) + "\n")):
        paths[name] = os.path.join(tmp, name)
        with open(paths[name], "w") as f:
            f.write(text)
    res = os.path.join(tmp, "results.json")
    with open(res, "w") as f:
        json.dump({"tests": {n: {"result": r, "err": ""}
                             for n, r in results.items()}}, f)
    again = os.path.join(tmp, "again.list")
    args = [sys.executable, COMPARE, "--timing", paths["timing.txt"]]
    if rerun is None:
        args += ["--rerun-list", again]
    else:
        res2 = os.path.join(tmp, "rerun.json")
        with open(res2, "w") as f:
            json.dump({"tests": {n: {"result": r, "err": ""}
                                 for n, r in rerun.items()}}, f)
        args += ["--rerun", res2]
    args += [res, paths["ci.list"], paths["expected.txt"]]
    p = subprocess.run(args, capture_output=True, text=True)
    listing = None
    if rerun is None and os.path.exists(again):
        with open(again) as f:
            listing = f.read().split()
        os.unlink(again)
    return p.returncode, p.stdout, listing


SEQ = "igt@kms_sequence@queue-busy"


def cases():
    ok = {SEQ: "pass", SEQ + "@pipe-a-virtual-1": "pass",
          SEQ + "@pipe-b-virtual-2": "pass"}
    one_dyn_failed = dict(ok)
    one_dyn_failed[SEQ] = "fail"
    one_dyn_failed[SEQ + "@pipe-b-virtual-2"] = "fail"

    def all_pass(tmp):
        rc, out, again = run(tmp, ok, [SEQ])
        return rc == 0 and "igt: 3 passed, 0 failed, 0 skipped" in out \
            and again == []

    def expected_skip(tmp):
        rc, out, _ = run(tmp, {"igt@kms_x@y": "skip"}, ["igt@kms_x@y"],
                         "igt@kms_x@* skip # no such hardware\n")
        return rc == 0 and "0 passed, 0 failed, 1 skipped" in out

    def unexpected_fail(tmp):
        rc, out, again = run(tmp, {"igt@kms_x@y": "fail"}, ["igt@kms_x@y"])
        return rc == 1 and "UNEXPECTED igt@kms_x@y: fail" in out \
            and again == []

    def no_result(tmp):
        rc, out, _ = run(tmp, ok, [SEQ, "igt@kms_x@y"])
        return rc == 1 and "UNEXPECTED igt@kms_x@y: no result" in out

    def rerun_just_failed_dynamic(tmp):
        rc, _, again = run(tmp, one_dyn_failed, [SEQ])
        return rc == 1 and again == [SEQ + "@pipe-b-virtual-2"]

    def rerun_whole_subtest(tmp):
        res = dict(ok)
        res[SEQ] = "fail"
        rc, _, again = run(tmp, res, [SEQ])
        return rc == 1 and again == [SEQ]

    def no_rerun_beside_other_failure(tmp):
        res = dict(one_dyn_failed)
        res["igt@kms_x@y"] = "fail"
        rc, _, again = run(tmp, res, [SEQ, "igt@kms_x@y"])
        return rc == 1 and again == []

    def rerun_pass_counts(tmp):
        rc, out, _ = run(tmp, one_dyn_failed, [SEQ], rerun={
            SEQ: "pass", SEQ + "@pipe-b-virtual-2": "pass"})
        return rc == 0 and "RERUN " + SEQ + "@pipe-b-virtual-2: fail, then pass" \
            in out and "igt: 3 passed, 0 failed" in out

    def rerun_fail_counts(tmp):
        rc, out, _ = run(tmp, one_dyn_failed, [SEQ], rerun={
            SEQ: "fail", SEQ + "@pipe-b-virtual-2": "fail"})
        return rc == 1 and "igt: 1 passed, 2 failed" in out

    def rerun_only_timing(tmp):
        res = {"igt@kms_x@y": "fail"}
        rc, out, _ = run(tmp, res, ["igt@kms_x@y"],
                         rerun={"igt@kms_x@y": "pass"})
        return rc == 1 and "RERUN" not in out

    return [all_pass, expected_skip, unexpected_fail, no_result,
            rerun_just_failed_dynamic, rerun_whole_subtest,
            no_rerun_beside_other_failure, rerun_pass_counts,
            rerun_fail_counts, rerun_only_timing]


def main():
    passed = failed = 0
    for case in cases():
        with tempfile.TemporaryDirectory() as tmp:
            good = case(tmp)
        if good:
            passed += 1
        else:
            failed += 1
            print(f"not ok - igt_compare {case.__name__}")
    print(f"test_igt_compare: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
