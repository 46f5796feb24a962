#!/usr/bin/python3
"""CPU of the thumbnail paths on images whose decode costs seconds, beside vipsthumbnail (issue 28).

Usage: costly-images.py [--bin .build/release] [--runs 3] [--markdown OUT]

The images: make-hostile-images.py --large's GIFs (a 65535 x 65535 first frame on a 64 x 64
screen, 1.05 and 0.99 gigapixels of real LZW data), a GIF just within the thumbnail budget
(9300 x 9300, 86 MP), and a 24 MP phone-like HEIC grid (scripts/make-grid-heic.py). Each goes into
a gallery (`create`, timed too: its embedded thumbnail is a thumbnail path), then `thumbnail -s 512`
and the confined thumbnailer run on the gallery (its embedded thumbnail is 256 px, so the image is
decoded), and `vipsthumbnail -s 512` on the image itself, each under a 60 s timeout. Figures are
CPU seconds (user + system, wait4), the median of --runs. The bound: no input may cost a thumbnail
path more than about 2 s of CPU here.
"""

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(argv, runs):
    """(median CPU seconds of the runs, the last run's exit code), each run killed after 60 s."""
    results = []
    for _ in range(runs):
        before = os.times()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            code = p.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            code = "timeout (60 s)"
        after = os.times()
        results.append((after.children_user - before.children_user + after.children_system - before.children_system, code))
    return statistics.median(r[0] for r in results), results[-1][1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(ROOT / ".build" / "release"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--markdown", default=None)
    a = ap.parse_args()
    ig = os.path.join(a.bin, "imagegallery")
    thumbnailer = os.path.join(a.bin, "imagegallery-thumbnailer")
    folder = tempfile.mkdtemp(prefix="costly-images-")
    subprocess.run(["/usr/bin/python3", ROOT / "scripts" / "make-hostile-images.py", folder, "--large"], check=True,
                   stdout=subprocess.DEVNULL)
    spec = importlib.util.spec_from_file_location("mhi", ROOT / "scripts" / "make-hostile-images.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    side = 9300
    Path(folder, "gif-9300.gif").write_bytes(
        module.gif_header(side, side, [(0, 0, 0), (230, 60, 40)])
        + module.gif_image(0, 0, side, side, 2, module.single_colour_lzw(side * side)) + b";")
    subprocess.run(["/usr/bin/python3", ROOT / "scripts" / "make-grid-heic.py", os.path.join(folder, "grid-24mp.heic"),
                    "6000", "4000"], check=True, stdout=subprocess.DEVNULL)
    images = ["gif-large-tall-frame.gif", "gif-large-32400.gif", "gif-large-31464.gif", "gif-9300.gif", "grid-24mp.heic"]
    lines = ["| image | file | `create` | `thumbnail -s 512` | thumbnailer `-s 512` | `vipsthumbnail -s 512` |",
             "|---|---|---|---|---|---|"]
    for name in images:
        image = os.path.join(folder, name)
        gallery = image + ".imagegallery"
        create = timed([ig, "create", "--force", gallery, image], a.runs)
        thumb = timed([ig, "thumbnail", "-s", "512", gallery, gallery + ".png"], a.runs)
        confined = timed([thumbnailer, "-s", "512", gallery, gallery + ".t.png"], a.runs)
        vips = timed(["vipsthumbnail", "-s", "512", image, "-o", image + ".vips.png"], a.runs)

        def shown(result):
            seconds, code = result
            return f"{seconds:.2f} s" + ("" if code == 0 else f" ({code})")
        row = (f"| {name} | {os.path.getsize(image) / 1e6:.2f} MB | {shown(create)} | {shown(thumb)} | {shown(confined)} | "
               f"{shown(vips)} |")
        print(row, flush=True)
        lines.append(row)
    text = "\n".join(lines) + "\n"
    if a.markdown:
        Path(a.markdown).write_text(text)
    subprocess.run(["rm", "-rf", folder])
    return 0


if __name__ == "__main__":
    sys.exit(main())
