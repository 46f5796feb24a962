#!/usr/bin/python3
"""Opening's figures (issue 34, item 3): what reading a gallery costs beside reading its manifest.

On the 10,000-photo gallery (`.build-bench/work/g10k.imagegallery`, made by `make bench`) and on
a 100,000-image one (`.build-bench/work/g100k.imagegallery`, made here once: 100,000 distinct
8 × 8 PNGs, written by this script with zlib, through `imagegallery create`):

- `info --json`, `list --json`, `versions --json` (the document layer's open to read) and
  `rename G bench` to the title the gallery has (its open to edit, closed without a save),
- against `unzip -p G manifest.json`, the least any reader of the format does,
- and the same commands of the previous build (`--baseline BIN`).

`unzip -l` reads only the central directory, so it is no anchor for a command that must read
the manifest. Runs are interleaved (one of each command per round, the order rotated round by
round); the figures are medians of wall time.

With `--instructions`, each command's instructions on the 10,000-image gallery are also
counted under valgrind (callgrind), beside unzip's: a figure that a busy machine does not move.

usage: Benchmarks/opening.py [--bin .build/release] [--baseline BIN] [--runs N] [--only g10k|g100k] [--instructions]
                             [--markdown FILE]
"""

import argparse
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(REPO, ".build-bench", "work")
G10K = os.path.join(WORK, "g10k.imagegallery")
G100K = os.path.join(WORK, "g100k.imagegallery")


def run(arguments, env=None):
    done = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, **(env or {})))
    if done.returncode != 0:
        sys.exit(f"opening.py: {' '.join(arguments)} failed ({done.returncode}): {done.stderr[-400:]}")


def png(number):
    """An 8 × 8 RGB PNG whose pixels spell `number`: every one distinct."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    pixel = struct.pack(">I", number)[1:]
    rows = b"".join(b"\x00" + bytes(pixel[(x + y) % 3] ^ (x * 8 + y) for x in range(24)) for y in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def make_g100k(binary):
    if os.path.exists(G100K):
        return
    folder = tempfile.mkdtemp(prefix="g100k-", dir=WORK)
    try:
        for number in range(100_000):
            with open(os.path.join(folder, f"{number:06d}.png"), "wb") as out:
                out.write(png(number))
        run([binary, "create", G100K + ".part", "--title", "bench", "--no-sync", folder])
        os.replace(G100K + ".part", G100K)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def commands(binary, gallery):
    return {"info": [binary, "info", "--json", gallery], "list": [binary, "list", "--json", gallery],
            "open to read": [binary, "versions", "--json", gallery], "open to edit": [binary, "rename", gallery, "bench"]}


def measure(binary, baseline, galleries, runs, state):
    env = {"XDG_STATE_HOME": state}
    times = {}
    for number in range(runs):
        for gallery in galleries:
            name = os.path.basename(gallery)
            rounds = [("unzip", ["unzip", "-p", gallery, "manifest.json"])]
            rounds += [(key, arguments) for key, arguments in commands(binary, gallery).items()]
            if baseline:
                rounds += [("before " + key, arguments) for key, arguments in commands(baseline, gallery).items()]
            # The order rotated round by round: a command run straight after `unzip -p` of a
            # large manifest was slower for it (RESULTS.md ac.3.10), whichever build it was.
            shift = number % len(rounds)
            for key, arguments in rounds[shift:] + rounds[:shift]:
                start = time.perf_counter()
                run(arguments, env)
                times.setdefault((name, key), []).append(time.perf_counter() - start)
    return {key: statistics.median(values) for key, values in times.items()}


def report(medians, galleries, runs, baseline):
    with open("/proc/cpuinfo") as info:
        line = next((l for l in info if l.startswith("flags")), "")
    flags = " ".join(f for f in ["sha_ni", "avx2", "avx512f"] if f in line.split())
    lines = [f"{runs} interleaved rounds, medians of wall time; CPU flags: {flags}; {os.cpu_count()} cores.", "",
             "| gallery | command | ours | `unzip -p G manifest.json` | ratio (target ≤ 1.2) |"
             + (" previous build | its ratio |" if baseline else ""),
             "|---|---|---:|---:|---:|" + ("---:|---:|" if baseline else "")]
    for gallery in galleries:
        name = os.path.basename(gallery)
        anchor = medians[(name, "unzip")]
        for key in ("info", "list", "open to read", "open to edit"):
            ours = medians[(name, key)]
            row = f"| {name} | {key} | {ours * 1000:.1f} ms | {anchor * 1000:.1f} ms | **{ours / anchor:.2f} ×** |"
            if baseline:
                before = medians[(name, "before " + key)]
                row += f" {before * 1000:.1f} ms | {before / anchor:.2f} × |"
            lines.append(row)
    return "\n".join(lines) + "\n"


def instructions(binary, baseline, gallery, state):
    """Instructions each command executes, all threads together, counted by callgrind: unlike
    wall time, the count does not move with what else runs on the machine. Valgrind cannot read
    Swift's debug information, so each binary is counted through a copy stripped of it."""
    counted = {}
    programs = [("ours", binary)] + ([("previous build", baseline)] if baseline else [])
    for label, program in programs:
        stripped = os.path.join(state, "counted-" + label.replace(" ", "-"))
        subprocess.run(["strip", "--strip-debug", "-o", stripped, program], check=True)
        for key, arguments in commands(stripped, gallery).items():
            if key == "open to edit":
                continue  # valgrind stops at the confinement's system calls
            counted[(label, key)] = callgrind(arguments, state)
    counted[("anchor", "unzip")] = callgrind(["unzip", "-p", gallery, "manifest.json"], state)
    return counted


def callgrind(arguments, state):
    out = os.path.join(state, "callgrind.out")
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + arguments,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ, XDG_STATE_HOME=state))
    found = [line for line in done.stderr.splitlines() if "Collected :" in line]
    if done.returncode != 0 or not found:
        sys.exit(f"opening.py: callgrind of {' '.join(arguments)} failed: {done.stderr[-400:]}")
    return int(found[-1].split(":")[-1].strip())


def instruction_report(counted, gallery, baseline):
    anchor = counted[("anchor", "unzip")]
    lines = ["", f"Instructions executed (callgrind, every thread), {os.path.basename(gallery)}; "
             f"`unzip -p G manifest.json`: {anchor / 1e6:.1f} M.", "",
             "| command | ours | ratio to unzip |" + (" previous build | its ratio |" if baseline else ""),
             "|---|---:|---:|" + ("---:|---:|" if baseline else "")]
    for key in ("info", "list", "open to read"):
        ours = counted[("ours", key)]
        row = f"| {key} | {ours / 1e6:.1f} M | {ours / anchor:.2f} × |"
        if baseline:
            before = counted[("previous build", key)]
            row += f" {before / 1e6:.1f} M | {before / anchor:.2f} × |"
        lines.append(row)
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build", "release"))
    parser.add_argument("--baseline", help="the previous build's imagegallery")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--markdown", help="write the RESULTS.md section here")
    parser.add_argument("--only", choices=["g10k", "g100k"],
                        help="one gallery only: the other's runs (a 37 MB manifest each) leave the machine busier")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of each command on the 10,000-image gallery (valgrind)")
    arguments = parser.parse_args()
    binary = os.path.join(arguments.bin, "imagegallery")
    if not os.path.exists(G10K):
        sys.exit(f"opening.py: {G10K} is missing: `make bench` makes it")
    make_g100k(binary)
    state = tempfile.mkdtemp(prefix="opening-state-", dir=WORK)
    galleries = {"g10k": [G10K], "g100k": [G100K]}.get(arguments.only, [G10K, G100K])
    text = report(measure(binary, arguments.baseline, galleries, arguments.runs, state), galleries, arguments.runs,
                  arguments.baseline)
    if arguments.instructions:
        text += instruction_report(instructions(binary, arguments.baseline, G10K, state), G10K, arguments.baseline)
    shutil.rmtree(state, ignore_errors=True)
    print(text)
    if arguments.markdown:
        with open(arguments.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
