#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Side by side: an igt list's results on upstream vkms and on atomkms.

Reads the two results.json files (igt_results) of one list run in the same
guest set-up and prints a table, one subtest a row (dynamic subtests
included), with both results and a verdict:

    lost      vkms passes it, atomkms does not: a failure of this check
    gained    atomkms passes it, vkms does not
    same      the same result on both

then counts and "compare-vkms: N passed, N failed", where a subtest vkms
passes counts as passed when atomkms passes it too, and failed when not.
Exits 1 when any was lost.
"""
import argparse
import json
import sys


def load(path):
    with open(path) as f:
        return {name: t.get("result", "?") for name, t in json.load(f)["tests"].items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vkms")
    ap.add_argument("atomkms")
    ap.add_argument("--kernel", default="?")
    args = ap.parse_args()
    vkms, ours = load(args.vkms), load(args.atomkms)
    names = sorted(set(vkms) | set(ours))
    lost = gained = same = 0
    print(f"| subtest | vkms {args.kernel} | atomkms | |")
    print("|---|---|---|---|")
    for name in names:
        v, a = vkms.get(name, "notrun"), ours.get(name, "notrun")
        if v == "pass" and a != "pass":
            verdict, lost = "**lost**", lost + 1
        elif a == "pass" and v != "pass":
            verdict, gained = "gained", gained + 1
        else:
            verdict, same = "", same + 1
        print(f"| {name} | {v} | {a} | {verdict} |")
    vpass = sum(r == "pass" for r in vkms.values())
    apass = sum(r == "pass" for r in ours.values())
    print()
    print(f"compare-vkms: {len(names)} subtests; vkms passes {vpass}, atomkms {apass}; "
          f"lost {lost}, gained {gained}, same {same}")
    print(f"compare-vkms: {vpass - lost} passed, {lost} failed")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
