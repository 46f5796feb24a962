#!/usr/bin/python3
"""Privacy's figures (issue 32), side by side in one run, on the benchmark corpus's 200 small
photos (`photos/small/*.jpg`, about 300 KB each, Benchmarks/make-corpus.sh) after exiftool
wrote into each what a phone writes: a GPS position, an XMP city, a serial number, an owner and
an artist. The gallery is made of those 200 with `imagegallery create`.

- `strip` (location, the default) of the gallery, in place and saved durably, against
  `exiftool -gps:all= -overwrite_original` over the same 200 files (the issue's anchor: exiftool
  rewrites each file whole; it removes the GPS directory only, where strip also removes XMP and
  IPTC place names), and against `cp` of the gallery followed
  by `sync` (what any tool that writes the gallery anew pays). Each run starts from fresh
  copies, made before the clock starts.
- Peak RSS of `strip` (`/usr/bin/time -f %M`).
- `info --privacy` of the gallery against `exiftool -fast2 -gps:all` over the 200 files.
- Plain `info --json` against `unzip -p GALLERY manifest.json`, and with `--baseline BIN` (the
  build before this issue) against that build's, on the 10,000-image gallery
  (`.build-bench/work/g10k.imagegallery`, made by `make bench`) when it is there: the plain
  command must not have changed.

Runs are interleaved (one of each command per round), and the figures are medians.

usage: Benchmarks/privacy.py [--bin .build-static/release] [--runs N] [--markdown FILE] [--baseline BIN]
"""
import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMALL = os.path.join(REPO, ".build-bench", "corpus", "photos", "small")
WORK = os.path.join(REPO, ".build-bench", "work", "privacy")
TAGS = ["-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
        "-GPSAltitude=35", "-XMP-photoshop:City=Paris", "-SerialNumber=SN-0042-7731", "-OwnerName=Jane Doe",
        "-Artist=Jane Doe"]


def run(arguments, **kwargs):
    done = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"privacy: {' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()[:500]}")
    return done


def corpus(binary):
    """The 200 photos with a phone's metadata, and their gallery, made once."""
    photos = os.path.join(WORK, "photos")
    gallery = os.path.join(WORK, "photos.imagegallery")
    if not os.path.exists(gallery):
        shutil.rmtree(WORK, ignore_errors=True)
        os.makedirs(photos)
        for name in sorted(os.listdir(SMALL))[:200]:
            shutil.copy(os.path.join(SMALL, name), photos)
        run(["exiftool", "-q", "-overwrite_original"] + TAGS + [photos])
        run([binary, "create", "--title", "Privacy", gallery] + sorted(glob.glob(os.path.join(photos, "*.jpg"))))
    files = sorted(glob.glob(os.path.join(photos, "*.jpg")))
    return files, gallery


def fresh(files, gallery):
    """Copies to work on: the gallery, and the 200 files."""
    target = os.path.join(WORK, "run")
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(os.path.join(target, "photos"))
    copies = []
    for path in files:
        copy = os.path.join(target, "photos", os.path.basename(path))
        shutil.copy(path, copy)
        copies.append(copy)
    copy = os.path.join(target, "g.imagegallery")
    shutil.copy(gallery, copy)
    os.sync()
    return copy, copies


def timed(arguments):
    start = time.perf_counter()
    run(arguments)
    return time.perf_counter() - start


def peak_rss(arguments):
    done = run(["/usr/bin/time", "-f", "%M"] + arguments)
    return int(done.stderr.strip().splitlines()[-1])


G10K = os.path.join(REPO, ".build-bench", "work", "g10k.imagegallery")


def measure(binary, runs, baseline):
    files, gallery = corpus(binary)
    plain = G10K if os.path.exists(G10K) else gallery
    times = {key: [] for key in ["strip", "exiftool-strip", "cp-sync", "info-privacy", "exiftool-fast2",
                                 "info-json", "unzip-manifest", "baseline-info-json"]}
    rss = []
    for _ in range(runs):
        copy, copies = fresh(files, gallery)
        times["strip"].append(timed([binary, "strip", "--json", copy]))
        times["exiftool-strip"].append(timed(["exiftool", "-q", "-gps:all=", "-overwrite_original"] + copies))
        times["cp-sync"].append(timed(["sh", "-c", f"cp '{gallery}' '{copy}.cp' && sync"]))
        times["info-privacy"].append(timed([binary, "info", "--privacy", "--json", gallery]))
        times["exiftool-fast2"].append(timed(["exiftool", "-q", "-fast2", "-gps:all"] + files))
        for _ in range(3):  # 20 to 40 ms each: three samples a round
            times["info-json"].append(timed([binary, "info", "--json", plain]))
            times["unzip-manifest"].append(timed(["unzip", "-p", plain, "manifest.json"]))
            if baseline:
                times["baseline-info-json"].append(timed([baseline, "info", "--json", plain]))
        copy, _ = fresh(files, gallery)
        rss.append(peak_rss([binary, "strip", "--json", copy]))
    medians = {key: statistics.median(values) for key, values in times.items() if values}
    return medians, statistics.median(rss), len(files), os.path.getsize(gallery), os.path.basename(plain)


def flags():
    with open("/proc/cpuinfo") as info:
        line = next((l for l in info if l.startswith("flags")), "")
    return " ".join(f for f in ["sha_ni", "avx2", "avx512f"] if f in line.split())


def report(medians, rss, count, size, runs, plain):
    m = medians
    rows = [
        ("`strip` (location) of the gallery", m["strip"], "`exiftool -gps:all= -overwrite_original` × 200",
         m["exiftool-strip"], "≤ 1.2 ×"),
        ("`strip` (location) of the gallery", m["strip"], "`cp` of the gallery, then `sync`", m["cp-sync"], "≤ 2 ×"),
        ("`info --privacy --json`", m["info-privacy"], "`exiftool -fast2 -gps:all` × 200", m["exiftool-fast2"], "≤ 1.5 ×"),
        (f"`info --json` (plain, {plain})", m["info-json"], "`unzip -p GALLERY manifest.json`", m["unzip-manifest"],
         "as before (the baseline's ratio)"),
    ]
    if "baseline-info-json" in m:
        rows.append((f"`info --json` (plain, {plain})", m["info-json"], "the same, the build before issue 32",
                     m["baseline-info-json"], "1.0 ×"))
    lines = [f"{count} photos ({size / 1e6:.1f} MB gallery), {runs} interleaved runs, medians; CPU flags: {flags() or 'none of sha_ni, avx2, avx512f'}.",
             "", "| ours | median | anchor | median | ratio | target |", "|---|---:|---|---:|---:|---|"]
    for ours, ours_time, anchor, anchor_time, target in rows:
        lines.append(f"| {ours} | {ours_time * 1000:.0f} ms | {anchor} | {anchor_time * 1000:.0f} ms | "
                     f"**{ours_time / anchor_time:.2f} ×** | {target} |")
    lines += ["", f"Peak RSS of `strip`: **{rss / 1024:.1f} MiB** (median of {runs}; target < 64 MiB)."]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build-static", "release"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--markdown")
    parser.add_argument("--baseline", help="the imagegallery binary built before this issue")
    args = parser.parse_args()
    binary = os.path.join(args.bin, "imagegallery")
    medians, rss, count, size, plain = measure(binary, args.runs, args.baseline)
    text = report(medians, rss, count, size, args.runs, plain)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
