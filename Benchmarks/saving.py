#!/usr/bin/python3
"""A save of the 100,000-image gallery (issue 34, item 1): the reorder's save without the editor.

`imagegallery move G 100000 --to 1` opens the gallery to edit, moves its last image to the front
and saves durably (the new file written, flushed and swapped in): the work an autosave of the
editor's reorder does, apart from the page. Beside it:

- `cp G copy && sync copy`, the least any save of the whole file costs on this disk (the
  format writes blobs in gallery order, so a reorder rewrites the file);
- the same command of the previous build (`--baseline BIN`).

The gallery is `.build-bench/work/editor/g100k.imagegallery` (the scale benchmark's: 100,000
distinct JPEGs, 701 MB), copied once into a scratch folder, whose copy each run rewrites; it
ends each round as it began (an even number of moves). Runs are interleaved; the figures are
medians of wall time, with the peak RSS of each program.

usage: Benchmarks/saving.py [--bin .build/release] [--baseline BIN] [--runs N] [--gallery G]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GALLERY = os.path.join(REPO, ".build-bench", "work", "editor", "g100k.imagegallery")


def timed(arguments):
    """Wall seconds and peak RSS (MiB) of one run, by GNU time."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.monotonic()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + arguments,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        if done.returncode != 0:
            sys.exit(f"saving.py: {' '.join(arguments)} failed ({done.returncode}): {done.stderr[-400:]}")
        return wall, int(report.read().split()[-1]) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build", "release"))
    parser.add_argument("--baseline", help="the previous build's imagegallery")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gallery", default=GALLERY)
    options = parser.parse_args()
    if not os.path.exists(options.gallery):
        sys.exit(f"saving.py: no {options.gallery}: run `make bench-editor ONLY=scale` once to make it")
    builds = {"ours": os.path.join(options.bin, "imagegallery")}
    if options.baseline:
        builds["previous build"] = options.baseline
    scratch = tempfile.mkdtemp(prefix="saving-", dir=os.path.dirname(options.gallery))
    try:
        gallery = os.path.join(scratch, "g.imagegallery")
        shutil.copyfile(options.gallery, gallery)
        count = None
        times = {name: [] for name in list(builds) + ["cp + sync"]}
        for _ in range(options.runs):
            for name, binary in builds.items():
                if count is None:
                    listed = subprocess.run([binary, "info", gallery, "--json"], capture_output=True, text=True, check=True)
                    count = json.loads(listed.stdout)["imageCount"]
                # There and back: the file each run starts from is the same.
                times[name].append(timed([binary, "move", gallery, str(count), "--to", "1"]))
                timed([binary, "move", gallery, "1", "--to", str(count)])
            copy = os.path.join(scratch, "copy.imagegallery")
            start = time.monotonic()
            shutil.copyfile(gallery, copy)
            subprocess.run(["sync", copy], check=True)
            times["cp + sync"].append((time.monotonic() - start, 0))
            os.remove(copy)
        floor = statistics.median(t for t, _ in times["cp + sync"])
        print(f"{options.runs} interleaved rounds; {count} images, {os.path.getsize(gallery) / 1e6:.0f} MB\n")
        print("| command | median wall | range | ratio to cp + sync | peak RSS |")
        print("|---|---:|---:|---:|---:|")
        for name, runs in times.items():
            walls = [t for t, _ in runs]
            rss = f"{statistics.median(m for _, m in runs):.0f} MiB" if name != "cp + sync" else "—"
            label = "cp + sync" if name == "cp + sync" else f"{name}: move last → first, saved"
            print(f"| {label} | {statistics.median(walls):.2f} s | {min(walls):.2f} – {max(walls):.2f} s "
                  f"| {statistics.median(walls) / floor:.2f} × | {rss} |")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
