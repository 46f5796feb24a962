#!/usr/bin/python3
"""Thumbnails beside vipsthumbnail and ImageMagick (issue 34, item 4), in paired, interleaved
runs: every round runs each command once, in an order rotated round by round, so that load
from others on the machine falls on every command alike and the ratios hold.

Two sets of 6000 x 4000 pictures, made once and kept under .build-bench/work/anchors:

- the corpus's 24 MP photo (`photos/large/00.jpg`, Benchmarks/make-corpus.sh) as JPEG (itself)
  and encoded as in Benchmarks/format2.py: cwebp -q 80, ImageMagick (GIF), avifenc -s 8,
  heif-enc -q 50;
- a gradient with per-pixel grain (seeded), encoded by cwebp -q 80, Pillow (GIF, its adaptive
  palette), avifenc -s 8 and heif-enc -q 45 (at -q 50 its decode is past the CPU budget).

and, for AVIF and HEIC, a 12 MP phone photo's layout: a grid of 512 px tiles
(scripts/make-grid-heic.py, 4032 x 3024).

Each picture is the only image of a gallery whose thumbnail.png is removed (`zip -d`), so
`imagegallery thumbnail -s N` decodes it. Against it: `vipsthumbnail FILE -s N -e sRGB`,
ImageMagick's `convert` (`-define jpeg:size=2Nx2N` for a JPEG, as thumbnailers call it, then
`-thumbnail NxN`; for the other types only with --magick-all, since it takes seconds), for a JPEG libjpeg-turbo's DCT-scaled decode alone (`djpeg -scale 1/K` to
/dev/null, K the largest of 1, 2, 4, 8 whose scaled image still covers N: the floor any
thumbnailer built on libjpeg-turbo pays), and with --baseline another build's `thumbnail`.

usage: Benchmarks/thumbnail-anchors.py [--bin .build/release] [--baseline OTHER-IMAGEGALLERY]
                                       [--rounds N] [--sizes 256,1024] [--only jpeg,webp,...]
                                       [--markdown FILE] [--magick-all] [--make-only]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, ".build-bench", "corpus", "photos")
WORK = os.path.join(REPO, ".build-bench", "work", "anchors")
WIDTH, HEIGHT = 6000, 4000


def run(arguments, **kwargs):
    done = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"thumbnail-anchors: {' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
    return done


def gradient_png(target):
    """A diagonal colour gradient with seeded per-pixel grain (+-12 in each channel): smooth
    enough to be a picture, noisy enough that no coder gets it for free."""
    import numpy
    from PIL import Image
    y, x = numpy.mgrid[0:HEIGHT, 0:WIDTH].astype(numpy.float32)
    red = 255 * x / (WIDTH - 1)
    green = 255 * y / (HEIGHT - 1)
    blue = 255 * (1 - (x + y) / (WIDTH + HEIGHT - 2))
    grain = numpy.random.default_rng(34).integers(-12, 13, size=(HEIGHT, WIDTH, 3))
    pixels = numpy.clip(numpy.stack([red, green, blue], axis=2) + grain, 0, 255).astype(numpy.uint8)
    Image.fromarray(pixels, "RGB").save(target)


def encode(source_png, source, kind, target, gif_by_pillow):
    """`source` (a JPEG or PNG) as `kind`, once: encoding takes minutes, so a result is kept."""
    if os.path.exists(target):
        return
    partial = target + ".partial"
    if kind == "webp":
        run(["cwebp", "-quiet", "-q", "80", source, "-o", partial])
    elif kind == "gif" and gif_by_pillow:
        from PIL import Image
        with Image.open(source_png) as image:
            image.save(partial, format="GIF")
    elif kind == "gif":
        run(["convert", source, "gif:" + partial])
    elif kind == "avif":
        run(["avifenc", "-s", "8", "-j", "2", source, "-o", partial])
    elif kind == "heic":
        # The grain at -q 50 is a 5.2 MB file that DecodeCost puts at 1.6 s of CPU, past the
        # 1.5 s a thumbnail's decode may take (issue 28): refused, not decoded. At -q 45 (3.8 MB, 1.4 s) it fits.
        run(["heif-enc", "-q", "45" if gif_by_pillow else "50", source_png, "-o", partial])
    os.rename(partial, target)


def make_sets(ig, kinds):
    """The pictures and their galleries: a list of (set, kind, picture, gallery)."""
    os.makedirs(WORK, exist_ok=True)
    photo = os.path.join(CORPUS, "large", "00.jpg")
    if not os.path.exists(photo):
        sys.exit(f"thumbnail-anchors: no {photo} (Benchmarks/make-corpus.sh)")
    photo_png = os.path.join(WORK, "photo.png")
    grain_png = os.path.join(WORK, "grain.png")
    if not os.path.exists(photo_png) and kinds & {"gif", "heic"}:
        run(["convert", photo, photo_png])
    if not os.path.exists(grain_png):
        gradient_png(grain_png)
    pictures = []
    for kind in ("jpeg", "webp", "gif", "avif", "heic"):
        if kind not in kinds:
            continue
        if kind == "jpeg":
            pictures.append(("photo", kind, photo))
            continue
        for name, source, source_png, by_pillow in (("photo", photo, photo_png, False), ("grain", grain_png, grain_png, True)):
            target = os.path.join(WORK, f"{name}.{kind}")
            encode(source_png, source, kind, target, by_pillow)
            pictures.append((name, kind, target))
        if kind in ("avif", "heic"):
            # A phone's photo: 12 MP as a grid of 512 px tiles, laid out as an iPhone lays out
            # its HEICs (scripts/make-grid-heic.py; the AVIF's tiles coded by heif-enc's AV1).
            target = os.path.join(WORK, f"grid.{kind}")
            if not os.path.exists(target):
                run(["/usr/bin/python3", os.path.join(REPO, "scripts", "make-grid-heic.py"), target + ".partial." + kind,
                     "4032", "3024"] + (["--avif"] if kind == "avif" else []))
                os.rename(target + ".partial." + kind, target)
            pictures.append(("grid", kind, target))
    made = []
    for name, kind, picture in pictures:
        gallery = os.path.join(WORK, f"{name}-{kind}.imagegallery")
        if not os.path.exists(gallery):
            run([ig, "create", gallery + ".partial", picture])
            run(["zip", "-q", "-d", gallery + ".partial", "thumbnail.png"])
            os.rename(gallery + ".partial", gallery)
        made.append((name, kind, picture, gallery))
    return made


def dct_scale(size):
    """The largest libjpeg-turbo scale-down (1/8 to 1) whose output still covers `size` on the
    longer side, as our decoder, vips's shrink-on-load and ImageMagick's jpeg:size pick it."""
    for denominator in (8, 4, 2):
        if max(WIDTH, HEIGHT) // denominator >= size:
            return denominator
    return 1


def commands(options, kind, picture, gallery, size):
    out = lambda name: os.path.join(WORK, f"out-{name}.png")  # noqa: E731
    listed = [("ours", [options.ig, "thumbnail", "-s", str(size), gallery, out("ours")])]
    if os.path.exists(options.thumbnailer):
        listed.append(("ours, desktop", [options.thumbnailer, "-s", str(size), gallery, out("desktop")]))
    if options.baseline:
        listed.append(("baseline", [options.baseline, "thumbnail", "-s", str(size), gallery, out("baseline")]))
    listed.append(("vipsthumbnail", ["vipsthumbnail", picture, "-s", str(size), "-e", "sRGB", "-o", out("vips")]))
    if kind == "jpeg" or options.magick_all:
        magick = ["convert"]
        if kind == "jpeg":
            magick += ["-define", f"jpeg:size={2 * size}x{2 * size}"]
        magick += [picture, "-thumbnail", f"{size}x{size}", out("magick")]
        listed.append(("ImageMagick", magick))
    if kind == "jpeg":
        listed.append(("djpeg floor", ["djpeg", "-scale", f"1/{dct_scale(size)}", "-outfile", "/dev/null", picture]))
    return listed


def paired(listed, rounds):
    """Wall-clock seconds of each command, `rounds` times, interleaved; one warm-up each. A
    command that fails in the warm-up (`thumbnail` refusing a picture past its budgets) is left
    out of the rounds, its exit status and last line kept instead of times."""
    times = {label: [] for label, _ in listed}
    for round_index in range(rounds + 1):
        live = [(label, arguments) for label, arguments in listed if isinstance(times[label], list)]
        shift = round_index % len(live)
        for label, arguments in live[shift:] + live[:shift]:
            start = time.perf_counter()
            done = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            elapsed = time.perf_counter() - start
            if done.returncode != 0 and round_index == 0:
                said = done.stderr.decode(errors="replace").strip().splitlines()
                reason = said[-1] if said else ""
                times[label] = f"exit {done.returncode}: {reason[reason.find('IG-'):] if 'IG-' in reason else reason[-160:]}"
            elif done.returncode != 0:
                sys.exit(f"thumbnail-anchors: {' '.join(arguments)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
            elif round_index > 0:
                times[label].append(elapsed)
    return times


def describe_machine():
    flags = set()
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
    present = ", ".join(f"{flag} {'yes' if flag in flags else 'no'}" for flag in ("sha_ni", "avx2", "avx512f"))
    vips = run(["vipsthumbnail", "--vips-version"]).stdout.strip()
    magick = run(["convert", "-version"]).stdout.splitlines()[0]
    return f"{model}, nproc {os.cpu_count()} ({present}); {platform.release()}; {vips}; {magick}"


def report(rows, options):
    """Markdown: per picture and size, each command's median and its ratio to the faster of
    vipsthumbnail and ImageMagick, to vipsthumbnail alone, and (JPEG) to the floor."""
    lines = [f"`{' '.join(sys.argv)}`", "", describe_machine(), "",
             "| picture | size | command | median (ms) | min (ms) | × vipsthumbnail | × faster anchor | × floor |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for (name, kind, size), times in rows:
        medians = {label: statistics.median(values) for label, values in times.items() if isinstance(values, list)}
        anchor = min(medians["vipsthumbnail"], medians.get("ImageMagick", medians["vipsthumbnail"]))
        floor = medians.get("djpeg floor")
        for label, values in times.items():
            if isinstance(values, str):
                lines.append(f"| {name} {kind} | {size} | {label} | refused ({values}) | | | | |")
                continue
            median = medians[label]
            cells = [f"{name} {kind}", str(size), label, f"{median * 1000:.1f}", f"{min(values) * 1000:.1f}",
                     f"{median / medians['vipsthumbnail']:.3f}", f"{median / anchor:.3f}",
                     f"{median / floor:.3f}" if floor else ""]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--baseline")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sizes", default="256,1024")
    parser.add_argument("--only", default="jpeg,webp,gif,avif,heic")
    parser.add_argument("--markdown")
    parser.add_argument("--make-only", action="store_true")
    parser.add_argument("--magick-all", action="store_true", help="ImageMagick for every type, not only JPEG")
    options = parser.parse_args()
    options.ig = os.path.abspath(os.path.join(options.bin, "imagegallery"))
    options.thumbnailer = os.path.abspath(os.path.join(options.bin, "imagegallery-thumbnailer"))
    if options.baseline:
        options.baseline = os.path.abspath(options.baseline)
    kinds = set(options.only.split(","))
    made = make_sets(options.ig, kinds)
    if options.make_only:
        return
    rows = []
    for size in (int(text) for text in options.sizes.split(",")):
        for name, kind, picture, gallery in made:
            rows.append(((name, kind, size), paired(commands(options, kind, picture, gallery, size), options.rounds)))
            print("\n".join(report(rows[-1:], options).splitlines()[-len(rows[-1][1]):]), file=sys.stderr, flush=True)
    text = report(rows, options)
    if options.markdown:
        with open(options.markdown, "w") as handle:
            handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
