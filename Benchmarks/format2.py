#!/usr/bin/python3
"""Format 2.0's figures (issue 18), side by side in one run:

- `thumbnail -s 256` of a gallery whose first image is a 24 MP photo in each new type (WebP,
  GIF, AVIF, HEIC), with no thumbnail.png (removed with `zip -d`), so the photo itself is
  decoded, against `vipsthumbnail -s 256` of the same image file (Debian's libvips reads WebP,
  GIF and HEIF/AVIF); peak RSS of each (`/usr/bin/time -f %M`, median of 3 runs);
- `create` of 200 WebP photos against `bsdtar` storing the same files in a ZIP, with, in the
  same run, the floors any writer of the format pays before and while it copies: the start-up
  and argument parsing of `imagegallery` (`create --help`), `cp -r` of the folder (the copy
  alone, by copy_file_range as `create` copies), `openssl dgst -sha256` of the files (SHA-256
  of every byte with the CPU's SHA extensions, as `create` hashes: content addressing needs it
  before the manifest, hence before the first blob), and `dwebp -scale 256 0` of the first
  photo (the decoding its thumbnail needs, which the format also puts before the first blob);
  and bsdtar followed by the hashing, the least a writer of this format does.

The 24 MP photo is the benchmark corpus's `photos/large/00.jpg` (6000 x 4000, Benchmarks/make-corpus.sh),
encoded by the Debian tools: cwebp -q 80, ImageMagick (GIF), avifenc -s 8, heif-enc -q 50.
The 200 WebP photos are `photos/small/*.jpg` through cwebp -q 80.

With --baseline OTHER-IMAGEGALLERY, that build's `create` is timed in the same run too (an A/B
of a change against the commit before it).

usage: Benchmarks/format2.py [--bin .build/release] [--runs N] [--markdown FILE] [--create-only]
                             [--baseline OTHER-IMAGEGALLERY]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(REPO, ".build-bench", "corpus", "photos")
WORK = os.path.join(REPO, ".build-bench", "work", "format2")
RESULTS = os.path.join(REPO, ".build-bench", "results")


def run(arguments, **kwargs):
    done = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"format2: {' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
    return done


def encode(source, kind, target):
    """The 24 MP photo as `kind`, once: encoding takes minutes, so a result is kept."""
    if os.path.exists(target):
        return
    if kind == "webp":
        run(["cwebp", "-quiet", "-q", "80", source, "-o", target])
    elif kind == "gif":
        run(["convert", source, target])
    elif kind == "avif":
        run(["avifenc", "-s", "8", "-j", "2", source, target])
    elif kind == "heic":
        png = target + ".png"
        run(["convert", source, png])
        run(["heif-enc", "-q", "50", png, "-o", target])
        os.unlink(png)


def peak_rss(arguments):
    """Median of 3 runs' peak resident set, in MiB."""
    peaks = []
    for _ in range(3):
        done = subprocess.run(["/usr/bin/time", "-f", "%M"] + arguments, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"format2: {' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
        peaks.append(int(done.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(peaks)


def hyperfine(name, commands, runs, prepare=None, prefix="format2", warmup=2):
    """Times the commands (name, command line) in one hyperfine run; returns medians etc."""
    out = os.path.join(RESULTS, f"{prefix}-{name}.json")
    arguments = ["hyperfine", "-N", "--style", "basic", "--warmup", str(warmup), "--runs", str(runs), "--export-json", out]
    if prepare:
        arguments += ["--prepare", prepare]
    for label, command in commands:
        arguments += ["-n", label, command]
    run(arguments)
    with open(out) as handle:
        results = json.load(handle)["results"]
    return [(r["command"], statistics.median(r["times"]), min(r["times"]), max(r["times"])) for r in results], arguments


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--markdown", default=os.path.join(RESULTS, "format2.md"))
    parser.add_argument("--create-only", action="store_true", help="only the create figure and its floors")
    parser.add_argument("--baseline", help="another build's imagegallery, whose create is timed beside")
    options = parser.parse_args()
    ig = os.path.abspath(os.path.join(options.bin, "imagegallery"))
    large = os.path.join(CORPUS, "large", "00.jpg")
    if not os.path.exists(large):
        sys.exit(f"format2: no {large}: run Benchmarks/make-corpus.sh (make bench does)")
    os.makedirs(WORK, exist_ok=True)
    os.makedirs(RESULTS, exist_ok=True)
    lines = []

    lines += ["| type | `imagegallery thumbnail -s 256` median (s) | `vipsthumbnail -s 256` median (s) | ratio | "
              "peak RSS ours (MiB) | peak RSS vips (MiB) |", "|---|---:|---:|---:|---:|---:|"]
    commands_seen = []
    for kind in () if options.create_only else ("webp", "gif", "avif", "heic"):
        lines.append(thumbnail_row(options, ig, large, kind, commands_seen))
    files = webp_photos()
    median = time_create(options, ig, files, commands_seen)
    lines += create_table(options, median, files, commands_seen)
    text = "\n".join(lines) + "\n"
    with open(options.markdown, "w") as handle:
        handle.write(text)
    print(text)


def thumbnail_row(options, ig, large, kind, commands_seen):
    """The table row of `thumbnail -s 256` of a gallery of the 24 MP photo as KIND, against vipsthumbnail."""
    image = os.path.join(WORK, f"photo-24mp.{kind}")
    encode(large, kind, image)
    gallery = os.path.join(WORK, f"bare-{kind}.imagegallery")
    if os.path.exists(gallery):
        os.unlink(gallery)
    run([ig, "create", gallery, image])
    run(["zip", "-q", "-d", gallery, "thumbnail.png"])
    ours = [ig, "thumbnail", "-s", "256", gallery, os.path.join(WORK, f"ours-{kind}.png")]
    vips = ["vipsthumbnail", image, "-s", "256", "-o", os.path.join(WORK, f"vips-{kind}.png")]
    label = f"{kind.upper() if kind != 'webp' else 'WebP'} ({os.path.getsize(image):,} bytes)"
    refused = subprocess.run(ours, capture_output=True, text=True)
    if refused.returncode != 0:
        # Recorded as it is: a figure that fails is a finding, not a reason to stop the run.
        timed, arguments = hyperfine(f"thumb-{kind}", [("vips", " ".join(vips))], options.runs)
        commands_seen.append(" ".join(f"'{a}'" if " " in a else a for a in arguments))
        reason = refused.stderr.strip().split(": IG-")[-1]
        return (f"| {label} | refused, exit {refused.returncode}: IG-{reason} | {timed[0][1]:.3f} | – | – | "
                f"{peak_rss(vips):.1f} |")
    timed, arguments = hyperfine(f"thumb-{kind}", [("ours", " ".join(ours)), ("vips", " ".join(vips))], options.runs)
    commands_seen.append(" ".join(f"'{a}'" if " " in a else a for a in arguments))
    median = {label: m for label, m, _, _ in timed}
    return (f"| {label} | {median['ours']:.3f} | {median['vips']:.3f} | {median['ours'] / median['vips']:.2f} | "
            f"{peak_rss(ours):.1f} | {peak_rss(vips):.1f} |")


def webp_photos():
    """The 200 small photos as WebP, made once: their paths, sorted."""
    webps = os.path.join(WORK, "webp-200")
    os.makedirs(webps, exist_ok=True)
    for name in sorted(os.listdir(os.path.join(CORPUS, "small")))[:200]:
        target = os.path.join(webps, os.path.splitext(name)[0] + ".webp")
        if not os.path.exists(target):
            run(["cwebp", "-quiet", "-q", "80", os.path.join(CORPUS, "small", name), "-o", target])
    return sorted(os.path.join(webps, n) for n in os.listdir(webps))


def time_create(options, ig, files, commands_seen):
    """`create` of the WebP photos against bsdtar storing them, and the floors beside them: medians by label."""
    webps = os.path.dirname(files[0])
    gallery = os.path.join(WORK, "webp-200.imagegallery")
    archive = os.path.join(WORK, "webp-200.zip")
    # Neither flushes (--no-sync; bsdtar never does); each starts with no output (--prepare).
    create = f"{ig} create --no-sync --date 2026-01-01T00:00:00Z {gallery} {webps}"
    tar = f"bsdtar -cf {archive} --format zip --options zip:compression=store -C {webps} ."
    copied = os.path.join(WORK, "webp-200-copy")
    floors = [("start-up", f"{ig} create --help"), ("copy", f"cp -r {webps} {copied}"),
              ("hash", "openssl dgst -sha256 " + " ".join(files)),
              ("thumbnail", f"dwebp -quiet {files[0]} -scale 256 0 -ppm -o /dev/null"),
              ("bsdtar+hash", "sh -c '" + tar + " && openssl dgst -sha256 " + " ".join(files) + " >/dev/null'")]
    baseline_gallery = os.path.join(WORK, "webp-200-baseline.imagegallery")
    if options.baseline:
        floors.append(("baseline", f"{os.path.abspath(options.baseline)} create --no-sync --date 2026-01-01T00:00:00Z "
                                   f"{baseline_gallery} {webps}"))
    timed, arguments = hyperfine("create-webp", [("ours", create), ("bsdtar", tar)] + floors, options.runs,
                                 prepare=f"rm -rf {gallery} {archive} {copied} {baseline_gallery}")
    commands_seen.append(" ".join(f"'{a}'" if " " in a else a for a in arguments))
    median = {label: m for label, m, _, _ in timed}
    return median


def create_table(options, median, files, commands_seen):
    """The table of the create figures, and how to reproduce them."""
    total = sum(os.path.getsize(f) for f in files)
    ratio = lambda label: f"{median[label] / median['bsdtar']:.2f}"  # noqa: E731
    lines = ["", "| `create` of 200 WebP photos | median (s) | ratio to bsdtar |", "|---|---:|---:|",
             f"| `imagegallery create --no-sync` | {median['ours']:.3f} | {ratio('ours')} |",
             f"| `bsdtar --format zip` storing them (anchor) | {median['bsdtar']:.3f} | 1.00 |"]
    if options.baseline:
        lines.append(f"| the baseline build's `create --no-sync` ({options.baseline}) | {median['baseline']:.3f} | {ratio('baseline')} |")
    lines += [
              f"| floor: `imagegallery create --help` (start-up, argument parser) | {median['start-up']:.3f} | {ratio('start-up')} |",
              f"| floor: `cp -r` of the folder (the copy alone) | {median['copy']:.3f} | {ratio('copy')} |",
              f"| floor: `openssl dgst -sha256` of the files (one core, SHA extensions) | {median['hash']:.3f} | {ratio('hash')} |",
              f"| floor: `dwebp -scale 256 0` of the first photo (its thumbnail's decoding) | {median['thumbnail']:.3f} | {ratio('thumbnail')} |",
              f"| start-up and copy together, which follow each other in any writer | "
              f"{median['start-up'] + median['copy']:.3f} | {(median['start-up'] + median['copy']) / median['bsdtar']:.2f} |",
              f"| `bsdtar`, then `openssl dgst -sha256` of the files (the least a writer of the format does) | "
              f"{median['bsdtar+hash']:.3f} | {ratio('bsdtar+hash')} |",
              "", f"`imagegallery create` against bsdtar followed by the hashing: "
              f"{median['ours'] / median['bsdtar+hash']:.2f} ×.",
              "", f"{len(files)} files, {total:,} bytes. {options.runs} timed runs per command after 2 warm-ups.",
              "", "Reproduce: `Benchmarks/format2.py --bin .build/release` (after `make bench` has made the corpus); "
              "the hyperfine lines it ran:", "", "```sh"] + commands_seen + ["```"]
    return lines


if __name__ == "__main__":
    main()
