#!/usr/bin/python3
"""The confined thumbnailer's figures (issue 19, item 2), each group in one hyperfine run:

- start-up: `imagegallery-thumbnailer --version`, as `make deb` installs it (stripped, no
  RUNPATH) and as built, against `imagegallery --version` (the program the entry ran before)
  and `/bin/true`;
- the embedded-thumbnail path: `-s 256` of a gallery that `create` made from the 24 MP photo
  (its thumbnail.png is 1,024 px), against `vipsthumbnail -s 256` of the photo, `unzip -p FILE
  thumbnail.png` and `imagegallery thumbnail`; peak RSS of each (`/usr/bin/time -f %M`);
- a 24 MP JPEG decoded (the same gallery without thumbnail.png): the thumbnailer against
  `imagegallery thumbnail` of this build and of the pre-2.0 baseline build, if there is one;
- address-space limits from 32 to 256 MiB: what each run of both galleries ended with.

usage: Benchmarks/thumbnailer.py [--bin .build/release] [--baseline .build-baseline/release] [--runs N]
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from format2 import CORPUS, RESULTS, hyperfine, peak_rss, run  # noqa: E402

WORK = os.path.join(os.path.dirname(CORPUS), "..", "work", "thumbnailer")


def table(rows, anchor):
    base = next(median for label, median, _, _ in rows if label == anchor)
    lines = ["| command | median (ms) | min (ms) | ratio to " + anchor + " |", "|---|---:|---:|---:|"]
    for label, median, low, _ in rows:
        lines.append(f"| {label} | {median * 1000:.2f} | {low * 1000:.2f} | {median / base:.3f} |")
    return lines


def packaged(binary):
    """A copy of `binary` as scripts/make-deb installs it: stripped, and without the RUNPATH
    that SwiftPM gives a build, which sends the loader to the build folder first for every
    library."""
    staged = os.path.join(WORK, "packaged", os.path.basename(binary))
    os.makedirs(os.path.dirname(staged), exist_ok=True)
    shutil.copy2(binary, staged)
    run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", staged])
    run(["patchelf", "--remove-rpath", staged])
    return staged


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--baseline", default=".build-baseline/release")
    parser.add_argument("--runs", type=int, default=200)
    options = parser.parse_args()
    thumbnailer = os.path.abspath(os.path.join(options.bin, "imagegallery-thumbnailer"))
    ig = os.path.abspath(os.path.join(options.bin, "imagegallery"))
    baseline = os.path.abspath(os.path.join(options.baseline, "imagegallery"))
    photo = os.path.join(CORPUS, "large", "00.jpg")
    for needed in (thumbnailer, ig, photo):
        if not os.path.exists(needed):
            sys.exit(f"thumbnailer: no {needed} (make release; Benchmarks/make-corpus.sh)")
    os.makedirs(WORK, exist_ok=True)
    os.makedirs(RESULTS, exist_ok=True)
    embedded = os.path.join(WORK, "embedded.imagegallery")
    bare = os.path.join(WORK, "bare.imagegallery")
    if not os.path.exists(embedded):
        run([ig, "create", embedded, photo])
    if not os.path.exists(bare):
        shutil.copyfile(embedded, bare)
        run(["zip", "-q", "-d", bare, "thumbnail.png"])
    out = lambda name: os.path.join(WORK, name)  # noqa: E731
    installed = packaged(thumbnailer)
    lines = ["# Thumbnailer figures", "", f"`{' '.join(sys.argv)}`", ""]

    rows, _ = hyperfine("startup", [
        ("imagegallery-thumbnailer --version (as packaged)", f"{installed} --version"),
        ("imagegallery-thumbnailer --version (as built)", f"{thumbnailer} --version"),
        ("imagegallery --version", f"{ig} --version"),
        ("/bin/true", "/bin/true"),
    ], options.runs, prefix="thumbnailer", warmup=50)
    lines += ["## Start-up", ""] + table(rows, "imagegallery --version") + [""]

    # The output exists, as the desktop hands it over (GNOME and tumbler make a temporary file).
    for name in ("t.png", "i.png"):
        open(out(name), "wb").close()
    embedded_commands = [
        ("imagegallery-thumbnailer -s 256 (embedded, as packaged)", f"{installed} -s 256 {embedded} {out('t.png')}"),
        ("imagegallery-thumbnailer -s 256 (embedded, as built)", f"{thumbnailer} -s 256 {embedded} {out('t.png')}"),
        ("unzip -p FILE thumbnail.png", f"unzip -p {embedded} thumbnail.png"),
        ("imagegallery thumbnail -s 256 (embedded)", f"{ig} thumbnail -s 256 {embedded} {out('i.png')}"),
        ("vipsthumbnail -s 256", f"vipsthumbnail {photo} -s 256 -o {out('v.png')}"),
    ]
    rows, _ = hyperfine("embedded", embedded_commands, options.runs // 4, prefix="thumbnailer", warmup=10)
    lines += ["## The embedded-thumbnail path", ""] + table(rows, "vipsthumbnail -s 256")
    unzip = next(m for label, m, _, _ in rows if label.startswith("unzip"))
    ours = [(label, m) for label, m, _, _ in rows if label.startswith("imagegallery-thumbnailer")]
    lines += ["", "Against `unzip -p`: " + "; ".join(f"{label} {m / unzip:.2f}x" for label, m in ours) + ".", "", "| command | peak RSS (MiB, median of 3) |", "|---|---:|"]
    for label, command in embedded_commands:
        lines.append(f"| {label} | {peak_rss(command.split()):.1f} |")
    lines.append("")

    decoded = [
        ("imagegallery-thumbnailer -s 256 (24 MP JPEG)", f"{thumbnailer} -s 256 {bare} {out('t.png')}"),
        ("imagegallery thumbnail -s 256 (24 MP JPEG)", f"{ig} thumbnail -s 256 {bare} {out('i.png')}"),
    ]
    if os.path.exists(baseline):
        decoded.append(("baseline imagegallery thumbnail -s 256 (24 MP JPEG)", f"{baseline} thumbnail -s 256 {bare} {out('b.png')}"))
    rows, _ = hyperfine("decoded", decoded, max(10, options.runs // 20), prefix="thumbnailer")
    lines += ["## A 24 MP JPEG decoded", ""] + table(rows, "imagegallery thumbnail -s 256 (24 MP JPEG)") + [""]

    lines += ["## Address-space limits", "", "| RLIMIT_AS | embedded gallery | 24 MP JPEG gallery |", "|---:|---|---|"]
    for mebibytes in (32, 48, 64, 96, 128, 192, 256):
        cells = []
        for gallery in (embedded, bare):
            target = out("limited.png")
            if os.path.exists(target):
                os.unlink(target)
            done = subprocess.run(["/bin/sh", "-c", f'ulimit -v {mebibytes << 10} && exec "$0" -s 256 "$1" "$2"',
                                   thumbnailer, gallery, target], capture_output=True, text=True, timeout=60)
            said = done.stderr.strip().splitlines()[-1][:90] if done.stderr.strip() else ""
            cells.append(f"exit {done.returncode}" + (f": {said}" if said else ""))
        lines.append(f"| {mebibytes} MiB | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(RESULTS, "thumbnailer.md"), "w") as handle:
        handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
