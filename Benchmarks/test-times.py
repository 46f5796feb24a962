#!/usr/bin/python3
"""Where the test suite's minutes go: every suite run alone, one after another.

Usage: Benchmarks/test-times.py [--top 20] [--only REGEX] [--json FILE]

Run after `make test` has built everything: it runs the test bundle that `swift test` runs
(.build/debug/imagegalleryPackageTests.xctest, which needs no build lock and no package graph)
with the programs the Makefile's test target names, from .build. Inside one `swift test` the suites share two
cores, and a test's reported time is mostly its wait for the others; alone, each suite's wall
time and CPU time (the children's user and system time) are its own. The sum is what the suite
costs in series; the CPU share says how much of a suite's wall time the machine was busy (a
suite waiting on a browser's timeouts or sleeps shows a low share, and could overlap others).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUNDLE = os.path.join(ROOT, ".build/debug/imagegalleryPackageTests.xctest")
PROGRAMS = {
    "IMAGEGALLERY_BINARY": ".build/debug/imagegallery",
    "IMAGEGALLERY_FETCH_BINARY": ".build/debug/imagegallery-fetch",
    "IMAGEGALLERY_EDITOR_BINARY": ".build/debug/imagegallery-editor",
    "IMAGEGALLERY_STATIC_BINARY": ".build/release/imagegallery",
    "IMAGEGALLERY_STATIC_FETCH_BINARY": ".build/release/imagegallery-fetch",
    "IMAGEGALLERY_THUMBNAILER_BINARY": ".build/release/imagegallery-thumbnailer",
}


def environment():
    env = dict(os.environ)
    for name, path in PROGRAMS.items():
        env.setdefault(name, os.path.join(ROOT, path))
    return env


def suites(env):
    """The suites the bundle lists (`Module.Suite/test(…)`), in its order."""
    listed = subprocess.run([BUNDLE, "--testing-library", "swift-testing", "--list-tests"], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True).stdout
    names = []
    for line in listed.splitlines():
        suite = line.split("/", 1)[0].strip()
        if "/" in line and suite not in names:
            names.append(suite)
    return names


def time_suite(suite, env):
    """Runs one suite alone: (wall seconds, CPU seconds, passed)."""
    before = os.times()
    started = time.monotonic()
    result = subprocess.run([BUNDLE, "--testing-library", "swift-testing", "--filter", "^" + re.escape(suite) + "/"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - started
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, result.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--only", default=None, help="time only suites matching this regular expression")
    ap.add_argument("--json", default=None, help="write every suite's figures here")
    a = ap.parse_args()
    env = environment()
    rows = []
    for suite in suites(env):
        if a.only and not re.search(a.only, suite):
            continue
        wall, cpu, passed = time_suite(suite, env)
        rows.append({"suite": suite, "wall": round(wall, 1), "cpu": round(cpu, 1), "passed": passed})
        print(f"  {suite:<64} {wall:7.1f} s  CPU {cpu:7.1f} s{'' if passed else '  FAILED'}", flush=True)
    rows.sort(key=lambda row: -row["wall"])
    total = sum(row["wall"] for row in rows) or 1.0
    print(f"\nslowest {a.top} of {len(rows)} suites, each alone (sum {total:.0f} s, CPU "
          f"{sum(row['cpu'] for row in rows):.0f} s):")
    print(f"| suite | wall s | share | CPU s | CPU share of 2 cores |\n|---|---:|---:|---:|---:|")
    for row in rows[:a.top]:
        print(f"| {row['suite']} | {row['wall']:.1f} | {row['wall'] / total:.0%} | {row['cpu']:.1f} | "
              f"{row['cpu'] / (2 * row['wall']) if row['wall'] else 0:.0%} |")
    if a.json:
        with open(a.json, "w") as out:
            json.dump(rows, out, indent=1)
    return 0 if all(row["passed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
