#!/usr/bin/python3
"""The web gallery's figures (issue 33), side by side in one run.

- Renditions: `imagegallery convert G OUT --to web` of a gallery of the corpus's 200 small photos
  (`photos/small/*.jpg`, Benchmarks/make-corpus.sh), which makes renditions at 480, 1,024 and
  2,048 px (never enlarged) besides its thumbnails, pages and the published copies, against
  `vipsthumbnail -e sRGB` making the same three sizes (`-s "N>"`, never enlarged) of the same 200
  files, one invocation per size. Runs interleaved, medians; target ours ≤ 1.0 × the anchor.
- The slideshow's step: in headless Chromium (1920 × 1080, device pixel ratio 1) on a web gallery
  of four 24 MP JPEGs (`photos/large`), from the key press (the keydown event's timeStamp) to the
  next slide fully drawn: its picture's class turned `shown` (the slideshow does that only after
  `img.decode()` resolved) and then two animation frames, the first of which painted it. Each
  press is made once the next slide is preloaded (the hidden picture holds it, decoded). Median
  over the presses; target ≤ 100 ms.

usage: Benchmarks/web.py [--bin .build-static/release] [--runs N] [--presses N] [--markdown FILE]
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
CORPUS = os.path.join(REPO, ".build-bench", "corpus", "photos")
WORK = os.path.join(REPO, ".build-bench", "work", "web")
SIDES = (480, 1024, 2048)
sys.path.insert(0, os.path.join(REPO, "Tests", "Browser"))

# Installed once per page: the time from each ArrowRight's keydown to the second frame after its
# slide's picture became the shown one.
PROBE = """(() => {
  window.__steps = []; let pressed = null;
  window.addEventListener('keydown', (e) => { if (e.key === 'ArrowRight') pressed = e.timeStamp; }, true);
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (pressed === null || !change.target.classList.contains('shown')) continue;
      const from = pressed; pressed = null;
      requestAnimationFrame(() => requestAnimationFrame(() => window.__steps.push(performance.now() - from)));
    }
  }).observe(document.getElementById('slideshow'), {subtree: true, attributes: true, attributeFilter: ['class']});
  return true;
})()"""
PRELOADED = """(() => { const hidden = document.querySelector('#slideshow img.slide:not(.shown)');
  const next = Number(document.body.dataset.slide) % 4 + 1;
  return !!hidden && hidden.dataset.number === String(next) && hidden.complete && hidden.naturalWidth > 0; })()"""


def run(arguments, **kwargs):
    result = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"web.py: {' '.join(arguments[:3])}… failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return result


def flags():
    with open("/proc/cpuinfo") as info:
        line = next((l for l in info if l.startswith("flags")), "")
    return " ".join(f for f in ["sha_ni", "avx2", "avx512f"] if f in line.split())


def timed(command):
    start = time.monotonic()
    run(command)
    return time.monotonic() - start


def renditions(binary, runs):
    """Medians (s) of `convert --to web` and of vipsthumbnail's three sizes, interleaved."""
    photos = sorted(glob.glob(os.path.join(CORPUS, "small", "*.jpg")))[:200]
    if len(photos) != 200:
        sys.exit(f"web.py: {CORPUS}/small holds {len(photos)} photos, not 200: run Benchmarks/make-corpus.sh .build-bench/corpus")
    os.makedirs(WORK, exist_ok=True)
    gallery = os.path.join(WORK, "small.imagegallery")
    if not os.path.exists(gallery):
        run([binary, "create", gallery, "--title", "bench", "--date", "2026-01-01T00:00:00Z", *photos])
    web, vips = os.path.join(WORK, "web"), os.path.join(WORK, "vips")
    ours_command = [binary, "convert", gallery, web, "--to", "web", "--force"]

    def anchor():
        shutil.rmtree(vips, ignore_errors=True)
        os.makedirs(vips)
        start = time.monotonic()
        for side in SIDES:
            run(["vipsthumbnail", "-e", "sRGB", "-s", f"{side}>", "-o", os.path.join(vips, f"%s-{side}.jpg[Q=85]"), *photos])
        return time.monotonic() - start
    timed(ours_command)
    anchor()
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(timed(ours_command))
        theirs.append(anchor())
    made = len(glob.glob(os.path.join(web, "sized", "*")))
    return statistics.median(ours), statistics.median(theirs), made, " ".join(ours_command)


def slideshow_steps(binary, presses):
    """Milliseconds from each ArrowRight to its slide drawn, on a web gallery of four 24 MP JPEGs."""
    from devtools import DevTools, Tab, find_chromium
    large = sorted(glob.glob(os.path.join(CORPUS, "large", "*.jpg")))[:4]
    gallery, web = os.path.join(WORK, "large.imagegallery"), os.path.join(WORK, "large-web")
    if not os.path.exists(gallery):
        run([binary, "create", gallery, "--title", "large", "--date", "2026-01-01T00:00:00Z", *large])
    run([binary, "convert", gallery, web, "--to", "web", "--force"])
    profile = os.path.join(WORK, "chromium")
    shutil.rmtree(profile, ignore_errors=True)
    devtools = DevTools(find_chromium(), os.path.join(profile, "profile"), os.path.join(WORK, "chromium.log"),
                        window_size=(1920, 1080))
    try:
        tab = Tab(devtools)
        tab.call("Page.enable")
        tab.call("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
        tab.navigate("file://" + os.path.join(web, "index.html") + "#/slide/1")
        wait(tab, "!!document.body && document.body.dataset.slide === '1'")
        tab.evaluate(PROBE)
        for _ in range(presses):
            wait(tab, PRELOADED)
            time.sleep(0.3)
            count = tab.evaluate("window.__steps.length")
            tab.press("ArrowRight")
            wait(tab, f"window.__steps.length > {count}")
        steps = tab.evaluate("window.__steps")
        source = tab.evaluate("document.querySelector('#slideshow img.slide.shown').currentSrc")
    finally:
        devtools.close()
    return steps, source


def wait(tab, expression, timeout=60):
    deadline = time.monotonic() + timeout
    while not tab.evaluate(expression):
        if time.monotonic() > deadline:
            sys.exit(f"web.py: not reached in {timeout} s: {expression}")
        time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(REPO, ".build-static", "release"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=15)
    parser.add_argument("--markdown")
    arguments = parser.parse_args()
    binary = os.path.join(arguments.bin, "imagegallery")
    ours, theirs, made, command = renditions(binary, arguments.runs)
    steps, source = slideshow_steps(binary, arguments.presses)
    step = statistics.median(steps)
    lines = [
        f"CPU flags: {flags() or 'none of sha_ni, avx2, avx512f'}; {arguments.runs} interleaved runs; medians.",
        "",
        "| what | ours | anchor | ratio | target |",
        "|---|---:|---:|---:|---|",
        f"| `convert --to web`, 200 small photos ({made} renditions at 480/1024/2048 px, plus thumbnails, pages, copies)"
        f" | {ours:.2f} s | {theirs:.2f} s (`vipsthumbnail -e sRGB`, three sizes) | {ours / theirs:.2f} × | ≤ 1.0 × |",
        f"| slideshow step, key press → next slide decoded and painted (24 MP JPEG shown as {os.path.basename(source)}),"
        f" median of {len(steps)} | {step:.1f} ms | — | — | ≤ 100 ms |",
        "",
        f"Slideshow steps (ms): {', '.join(f'{s:.1f}' for s in steps)}.",
    ]
    text = "\n".join(lines)
    print(text)
    if arguments.markdown:
        with open(arguments.markdown, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
