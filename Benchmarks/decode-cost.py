#!/usr/bin/python3
"""Each codec's CPU cost per decoded pixel, the figures behind Sources/GalleryImaging/DecodeCost.swift.

Usage: decode-cost.py --binary .build/release/imagegallery [--runs 3] [--scratch DIR] [--markdown OUT]

For each type, two images of the same content at a small and a large size go into galleries of
one image each (`create`), and `validate --deep` (which decodes the whole image, under the
1-gigapixel work limit and no CPU budget) is timed in CPU (user + system, from wait4), the median
of --runs. Differences of two sizes' medians make start-up, reading and hashing drop out. Two contents per
type: flat (one colour, the cheapest bytes a pixel can be coded in: what a hostile file sends to
get the most pixels past a budget) gives the cost per pixel; noise (the most bytes a pixel can
carry) then gives the cost per byte, once its pixels are paid at that rate. `validate --deep`
decodes a JPEG at 1/8 scale, as a thumbnail of a large photo does.

The images are written with the tools people use: Pillow (JPEG, PNG, GIF noise, WebP), avifenc,
heif-enc, and make-hostile-images.py's LZW writer for the flat GIF (Pillow would hold it whole).
Prints a table, and the table of DecodeCost.swift beside it: a measured cost above the table's
means the table must rise, or a thumbnail path could spend more than its budget.
"""

import argparse
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of(argv):
    """CPU seconds (user + system) of one run of argv, which must succeed with 0 or 1."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    p.returncode = code
    if code not in (0, 1):
        sys.exit(f"decode-cost: {' '.join(argv)}: exit {code}: {p.stderr.read().decode(errors='replace')[-400:]}")
    return usage.ru_utime + usage.ru_stime


def median_cpu(argv, runs):
    return statistics.median(cpu_of(argv) for _ in range(runs))


def pillow(path, mode, size, content, fmt, **options):
    from PIL import Image
    if content == "flat":
        image = Image.new(mode, size, (200, 120, 40) if mode == "RGB" else 1)
    else:
        image = Image.frombytes("RGB", size, os.urandom(size[0] * size[1] * 3))
        if mode == "P":
            image = image.quantize(256)
    image.save(path, fmt, **options)


def flat_gif(path, side):
    spec = importlib.util.spec_from_file_location("mhi", ROOT / "scripts" / "make-hostile-images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    palette = [(0, 0, 0), (230, 60, 40)]
    data = (module.gif_header(side, side, palette)
            + module.gif_image(0, 0, side, side, 2, module.single_colour_lzw(side * side)) + b";")
    Path(path).write_bytes(data)


def encoded(argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make(kind, content, side, folder):
    """The image file of `kind` with `content`, side × side pixels."""
    stem = os.path.join(folder, f"{kind}-{content}-{side}")
    size = (side, side)
    if kind == "jpeg":
        pillow(stem + ".jpg", "RGB", size, content, "JPEG", quality=90)
        return stem + ".jpg"
    if kind == "png":
        pillow(stem + ".png", "RGB", size, content, "PNG", compress_level=6)
        return stem + ".png"
    if kind == "gif":
        if content == "flat":
            flat_gif(stem + ".gif", side)
        else:
            pillow(stem + ".gif", "P", size, content, "GIF")
        return stem + ".gif"
    if kind in ("webp", "webp-lossless"):
        pillow(stem + ".webp", "RGB", size, content, "WEBP", quality=80, lossless=kind == "webp-lossless")
        return stem + ".webp"
    png = stem + "-source.png"
    pillow(png, "RGB", size, content, "PNG", compress_level=1)
    if kind == "avif":
        encoded(["avifenc", "-s", "10", "-j", "2", png, stem + ".avif"])
        return stem + ".avif"
    if kind == "heic":
        encoded(["heif-enc", "-q", "50", "-o", stem + ".heic", png])
        return stem + ".heic"
    raise ValueError(kind)


# (kind, the DecodeCost.swift type, small and large sides for flat, then for noise)
PLAN = [
    ("gif", "gif", (1000, 6000), (1000, 3000)),
    ("jpeg", "jpeg", (2000, 12000), (1000, 5000)),
    ("png", "png", (2000, 10000), (1000, 4000)),
    ("webp", "webp", (1000, 6000), (1000, 4000)),
    ("webp-lossless", "webp", (1000, 5000), (1000, 3000)),
    ("avif", "avif", (1000, 4096), (512, 2048)),
    ("heic", "heic", (1000, 4096), (512, 2048)),
]


def table():
    """DecodeCost.swift's figures: {type: (ns a pixel, ns a byte)}; 'jpeg@1' is JPEG at 1/8 scale."""
    text = (ROOT / "Sources" / "GalleryImaging" / "DecodeCost.swift").read_text()
    pixel_part, byte_part = text.split("func nanosecondsPerByte")
    per_pixel = {k: float(v) for k, v in re.findall(r"case \.(\w+): (\d+(?:\.\d+)?)\n", pixel_part)}
    per_byte = {k: float(v) for k, v in re.findall(r"case \.(\w+): (\d+(?:\.\d+)?)\n", byte_part)}
    jpeg = re.search(r"case \.jpeg: scale >= 8 \? ([\d.]+) : scale >= 4 \? ([\d.]+) : ([\d.]+)", pixel_part)
    per_pixel["jpeg"], per_pixel["jpeg@1"] = float(jpeg.group(1)), float(jpeg.group(3))
    costs = {k: (per_pixel[k], per_byte[k]) for k in per_byte}
    costs["jpeg@1"] = (per_pixel["jpeg@1"], per_byte["jpeg"])
    return costs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=str(ROOT / ".build" / "release" / "imagegallery"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scratch", default=None)
    ap.add_argument("--markdown", default=None)
    ap.add_argument("--only", default=None, help="kinds, comma-separated")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    folder = tempfile.mkdtemp(prefix="decode-cost-", dir=a.scratch)
    costs = table()
    rows = []
    for kind, costed, flat_sides, noise_sides in PLAN:
        if a.only and kind not in a.only.split(","):
            continue
        measured = {}
        for content, sides in (("flat", flat_sides), ("noise", noise_sides)):
            points = []
            for side in sides:
                image = make(kind, content, side, folder)
                gallery = image + ".imagegallery"
                subprocess.run([binary, "create", "--force", gallery, image], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                points.append((side * side, os.path.getsize(image),
                               median_cpu([binary, "validate", "--deep", gallery], a.runs)))
            measured[content] = points
        # Per pixel from the flat pair (its bytes barely grow), then per byte from the noise pair
        # once its pixels are paid at that rate.
        (p0, b0, c0), (p1, b1, c1) = measured["flat"]
        per_pixel = (c1 - c0) / (p1 - p0) * 1e9
        (q0, d0, e0), (q1, d1, e1) = measured["noise"]
        per_byte = ((e1 - e0) * 1e9 - per_pixel * (q1 - q0)) / (d1 - d0)
        # validate --deep decodes a JPEG at 1/8 scale, as a thumbnail of a large photo does.
        key = "jpeg@1" if kind == "jpeg" else costed
        row = dict(kind=kind + (" 1/8" if kind == "jpeg" else ""), perPixel=round(per_pixel, 2),
                   perByte=round(per_byte, 2), tablePixel=costs[key][0], tableByte=costs[costed][1],
                   flat=dict(pixels=p1, bytes=b1, cpu=round(c1, 3)), noise=dict(pixels=q1, bytes=d1, cpu=round(e1, 3)))
        rows.append(row)
        print(f"{row['kind']:14} {per_pixel:7.2f} ns/px (table {row['tablePixel']:g})  {per_byte:7.2f} ns/B "
              f"(table {row['tableByte']:g})   flat {int(p1 ** .5)}² {b1 / 1e6:.2f} MB {c1:.2f} s, "
              f"noise {int(q1 ** .5)}² {d1 / 1e6:.2f} MB {e1:.2f} s", flush=True)
    over = [r for r in rows if r["perPixel"] > r["tablePixel"] or r["perByte"] > r["tableByte"]]
    lines = ["| type | flat: largest, file, CPU | noise: largest, file, CPU | ns a pixel (DecodeCost) | ns a byte (DecodeCost) |",
             "|---|---|---|---|---|"]
    for r in rows:
        f, n = r["flat"], r["noise"]
        lines.append(f"| {r['kind']} | {int(f['pixels'] ** .5)}², {f['bytes'] / 1e6:.2f} MB, {f['cpu']:.2f} s | "
                     f"{int(n['pixels'] ** .5)}², {n['bytes'] / 1e6:.2f} MB, {n['cpu']:.2f} s | "
                     f"{r['perPixel']:.2f} ({r['tablePixel']:g}) | {r['perByte']:.2f} ({r['tableByte']:g}) |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.markdown:
        Path(a.markdown).write_text(text)
        Path(a.markdown).with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n")
    subprocess.run(["rm", "-rf", folder])
    if over:
        print("decode-cost: above DecodeCost.swift: " + ", ".join(r["kind"] for r in over))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
