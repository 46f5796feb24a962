#!/usr/bin/python3
"""Colour's figures (issue 31), side by side in one run: `thumbnail -s 256` of a gallery whose
first image is a 24 MP profiled photo, with no thumbnail.png (removed with `zip -d`), so the
photo itself is decoded and converted, against `vipsthumbnail -s 256 -e sRGB` of the same file
(libvips 8.14 converts through Little CMS too). vips reads ICC profiles only, so for the `nclx`
AVIF it is given the matching profile with `--import-profile` (`-i`; the issue calls it --input-profile). Peak RSS by `/usr/bin/time -f %M`
(median of 3 runs).

The photos are the benchmark corpus's `photos/large/00.jpg` (6000 x 4000,
Benchmarks/make-corpus.sh) converted by Pillow's ImageCms into the numbers of each space:
- Adobe RGB: a JPEG (quality 90) tagged with colord's AdobeRGB1998.icc;
- Display P3: a HEIC (heif-enc -q 50) from a PNG tagged with a P3 profile built with Little
  CMS (Tests/Colour/profiled_images.py), which heif-enc keeps;
- Display P3 code points: an AVIF (avifenc -s 8 --cicp 12/13/6), no profile.

With --baseline OTHER-IMAGEGALLERY (the build before the change), the untagged photo itself
(`photos/large/00.jpg`) is thumbnailed by both builds in 30 interleaved pairs (--pairs), so that
what an untagged photo pays for the colour path shows as the ratio of the medians, and each
profiled photo's peak RSS is measured with that build too.

usage: Benchmarks/colour.py [--bin .build-static/release] [--runs N] [--markdown FILE]
                            [--baseline OTHER-IMAGEGALLERY] [--pairs N]
"""
import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "Tests", "Colour"))
import profiled_images  # noqa: E402  (the Display P3 profile, built with Little CMS)

from PIL import Image, ImageCms  # noqa: E402

PHOTO = os.path.join(REPO, ".build-bench", "corpus", "photos", "large", "00.jpg")
WORK = os.path.join(REPO, ".build-bench", "work", "colour")


def run(arguments, **kwargs):
    done = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"colour: {' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
    return done


def photos():
    """The three profiled photos, made once (encoding a 24 MP AVIF takes a minute)."""
    os.makedirs(WORK, exist_ok=True)
    adobe = open("/usr/share/color/icc/colord/AdobeRGB1998.icc", "rb").read()
    p3 = profiled_images.built_profile(profiled_images.D65, profiled_images.P3, profiled_images.SRGB_CURVE)
    open(os.path.join(WORK, "p3.icc"), "wb").write(p3)
    made = {"Adobe RGB JPEG": os.path.join(WORK, "adobergb.jpg"), "Display P3 HEIC": os.path.join(WORK, "p3.heic"),
            "Display P3 nclx AVIF": os.path.join(WORK, "p3-nclx.avif")}
    if all(os.path.exists(path) for path in made.values()):
        return made
    source = Image.open(PHOTO).convert("RGB")
    srgb = ImageCms.createProfile("sRGB")
    ImageCms.profileToProfile(source, srgb, ImageCms.ImageCmsProfile(io.BytesIO(adobe)), renderingIntent=1) \
        .save(made["Adobe RGB JPEG"], quality=90, icc_profile=adobe)
    p3_numbers = ImageCms.profileToProfile(source, srgb, ImageCms.ImageCmsProfile(io.BytesIO(p3)), renderingIntent=1)
    p3_png = os.path.join(WORK, "p3.png")
    p3_numbers.save(p3_png, icc_profile=p3)
    run(["heif-enc", "-q", "50", "-o", made["Display P3 HEIC"], p3_png])
    plain_png = os.path.join(WORK, "p3-numbers.png")
    p3_numbers.save(plain_png)
    run(["avifenc", "-s", "8", "-j", "2", "--cicp", "12/13/6", plain_png, made["Display P3 nclx AVIF"]])
    return made


def gallery(binary, photo, target=None):
    target = target or photo + ".imagegallery"
    if os.path.exists(target):
        os.remove(target)
    run([binary, "create", target, photo])
    run(["zip", "-q", "-d", target, "thumbnail.png"])
    return target


def timed(commands, runs):
    """hyperfine's medians, in seconds, of each command, interleaved in one run."""
    report = os.path.join(WORK, "hyperfine.json")
    run(["hyperfine", "-N", "--warmup", "2", "--runs", str(runs), "--export-json", report] + commands)
    return [statistics.median(result["times"]) for result in json.load(open(report))["results"]]


def interleaved(first, second, pairs):
    """Medians of `first` and `second` run one after the other `pairs` times (after one warm-up
    each), so that the machine's drift falls on both alike."""
    times = ([], [])
    for index in range(pairs + 1):
        for which, command in enumerate((first, second) if index % 2 == 0 else (second, first)):
            command_index = which if index % 2 == 0 else 1 - which
            start = time.perf_counter()
            run(command)
            if index > 0:
                times[command_index].append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def peak_rss(command):
    values = []
    for _ in range(3):
        done = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True)
        values.append(int(done.stderr.strip().splitlines()[-1]))
    return statistics.median(values) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(REPO, ".build-static", "release"))
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--markdown")
    parser.add_argument("--baseline")
    parser.add_argument("--pairs", type=int, default=30)
    arguments = parser.parse_args()
    binary = os.path.join(arguments.bin, "imagegallery")
    lines = ["| photo | `imagegallery thumbnail -s 256` median (s) | `vipsthumbnail -s 256 -e sRGB` median (s) | ratio | "
             "peak RSS ours / vips (MiB) |", "|---|---|---|---|---|"]
    for name, photo in photos().items():
        target = gallery(binary, photo)
        ours = [binary, "thumbnail", "-s", "256", target, os.path.join(WORK, "ours.png")]
        vips = ["vipsthumbnail", photo, "-s", "256", "-e", "srgb", "-o", os.path.join(WORK, "vips.png")]
        if "nclx" in name:
            vips += ["--import-profile", os.path.join(WORK, "p3.icc")]
        ours_s, vips_s = timed([" ".join(ours), " ".join(vips)], arguments.runs)
        lines.append(f"| {name} | {ours_s:.3f} | {vips_s:.3f} | {ours_s / vips_s:.2f} × | "
                     f"{peak_rss(ours):.0f} / {peak_rss(vips):.0f} |")
        print(lines[-1], flush=True)
    if arguments.baseline:
        lines += ["", "| untagged 24 MP JPEG, `thumbnail -s 256` | this build median (s) | baseline median (s) | ratio |",
                  "|---|---|---|---|"]
        plain = gallery(binary, PHOTO, os.path.join(WORK, "untagged.imagegallery"))
        ours_s, theirs_s = interleaved([binary, "thumbnail", "-s", "256", plain, os.path.join(WORK, "ours.png")],
                                       [arguments.baseline, "thumbnail", "-s", "256", plain, os.path.join(WORK, "theirs.png")],
                                       arguments.pairs)
        lines.append(f"| {arguments.pairs} interleaved pairs | {ours_s:.4f} | {theirs_s:.4f} | {ours_s / theirs_s:.3f} × |")
        # What the conversion costs: the Adobe RGB JPEG against the same bytes without its APP2
        # profile (exiftool -ICC_Profile=), both with this build.
        tagged = photos()["Adobe RGB JPEG"]
        stripped = os.path.join(WORK, "adobergb-untagged.jpg")
        if not os.path.exists(stripped):
            run(["exiftool", "-q", "-ICC_Profile=", "-o", stripped, tagged])
        with_profile = gallery(binary, tagged)
        without = gallery(binary, stripped)
        tagged_s, plain_s = interleaved([binary, "thumbnail", "-s", "256", with_profile, os.path.join(WORK, "ours.png")],
                                        [binary, "thumbnail", "-s", "256", without, os.path.join(WORK, "theirs.png")],
                                        arguments.pairs)
        lines.append(f"| Adobe RGB JPEG, converted, against its bytes untagged ({arguments.pairs} interleaved pairs, this build) "
                     f"| {tagged_s:.4f} | {plain_s:.4f} | {tagged_s / plain_s:.3f} × |")
        lines += ["", "| photo | peak RSS this build (MiB) | peak RSS baseline (MiB) |", "|---|---|---|"]
        for name, photo in photos().items():
            target = photo + ".imagegallery"
            lines.append(f"| {name} | {peak_rss([binary, 'thumbnail', '-s', '256', target, os.path.join(WORK, 'ours.png')]):.1f} | "
                         f"{peak_rss([arguments.baseline, 'thumbnail', '-s', '256', target, os.path.join(WORK, 'theirs.png')]):.1f} |")
        print("\n".join(lines[-8:]), flush=True)
    text = "\n".join(lines) + "\n"
    if arguments.markdown:
        open(arguments.markdown, "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
