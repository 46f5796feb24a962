#!/usr/bin/python3
"""The editor's slideshow (issue 33): from the key press to the next slide fully drawn, in headless
Chromium, for 24 MP JPEGs shown through their renditions (target: at most 100 ms).

usage: Benchmarks/slideshow.py [--editor BIN] [--imagegallery BIN] [--runs N] [--work DIR] [--side N]

A gallery of six 6000 × 4000 JPEGs (smooth gradients with grain, so each compresses as a photo
does) is opened in the editor on a screen of --side device pixels (1920 × 1080 by default, so the
slides are the 1920 renditions). The show is played and paused; before each timed press the next
slide's rendition has arrived (its resource timing entry is there) and has been decoded by the
page's preload. Each run: the page's keydown time stamp of ArrowRight, to the
`imagegallery-slide-painted` mark, which the page sets in the second animation frame after the
slide went in, once `img.decode()` resolved: the frame that drew it has been painted. Prints the
figures as JSON: median, min, max, each run, the machine's flags and the command.
"""

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_support import REPO, DevTools, Editor, Page, find_chromium, gallery_key, private_env  # noqa: E402

KEYDOWN_PROBE = """(() => { window.__slideKeys = [];
  addEventListener('keydown', (event) => window.__slideKeys.push(event.timeStamp), {capture: true}); return true; })()"""
# The latest keydown time stamp, and the latest slide-painted mark after it (null until then).
LATENCY = """(() => { const key = window.__slideKeys[window.__slideKeys.length - 1];
  const marks = performance.getEntriesByName('imagegallery-slide-painted').filter((m) => m.startTime > key);
  return marks.length ? marks[0].startTime - key : null; })()"""
# Whether the rendition of the image after the one shown has arrived.
NEXT_ARRIVED = """(() => { const root = document.getElementById('slideshow'); const cells = [...document.querySelectorAll('#image-grid .image-cell[data-id]')];
  const ids = cells.map((cell) => cell.dataset.id); const next = ids[(ids.indexOf(root.dataset.id) + 1) % ids.length];
  return performance.getEntriesByType('resource').some((entry) => entry.name.includes(`/images/${next}/rendition`) && entry.responseEnd > 0); })()"""


def cpu_flags():
    """The flags of /proc/cpuinfo that the project's figures carry, and the processor's name."""
    text = Path("/proc/cpuinfo").read_text()
    flags = set(next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), []))
    model = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")), platform.processor())
    return {"model": model, **{flag: flag in flags for flag in ("sha_ni", "avx2", "avx512f")}}


def make_gallery(imagegallery, folder):
    """Six 24 MP JPEGs in one gallery; returns its path."""
    from PIL import Image, ImageChops
    photos = []
    for index in range(6):
        channels = [Image.radial_gradient("L").rotate(40 * (index + c), expand=False).resize((6000, 4000)) for c in range(3)]
        grain = Image.effect_noise((6000, 4000), 12)
        photo = Image.merge("RGB", [ImageChops.add(channel, grain, 1, -128) for channel in channels])
        path = folder / f"photo-{index + 1}.jpg"
        photo.save(path, quality=90)
        photos.append(path)
    gallery = folder / "Slides.imagegallery"
    subprocess.run([imagegallery, "create", str(gallery), "--title", "Slides", *map(str, photos)], check=True, capture_output=True)
    return gallery


def wait(page, expression, timeout=120, every=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value not in (None, False):
            return value
        time.sleep(every)
    raise TimeoutError(f"not within {timeout} s: {expression[:80]}")


def measure(page, url, key, runs, side):
    """The runs' latencies in milliseconds."""
    page.call("Emulation.setDeviceMetricsOverride", {"width": side, "height": side * 9 // 16, "deviceScaleFactor": 1,
                                                     "mobile": False, "screenWidth": side, "screenHeight": side * 9 // 16})
    page.call("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    page.call("Page.navigate", {"url": url})
    # The launch link redirects to the page, which shows the galleries: then the gallery, by its address.
    wait(page, "document.readyState === 'complete' && location.pathname === '/' && !!document.getElementById('image-grid')")
    page.evaluate(f"location.hash = 'gallery={key}'")
    wait(page, "document.querySelectorAll('#image-grid .image-cell[data-id]').length === 6")
    box = page.evaluate("(() => { const r = document.querySelector('#image-grid .image-cell .frame').getBoundingClientRect(); "
                        "return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
    page.click(box["x"], box["y"])
    page.press("p")
    wait(page, "(() => { const r = document.getElementById('slideshow'); return r && !r.hidden && !!r.dataset.id; })()")
    page.press(" ")  # paused: only the presses move the show
    page.evaluate(KEYDOWN_PROBE)
    latencies = []
    for _ in range(runs):
        wait(page, NEXT_ARRIVED)
        time.sleep(0.5)  # the preload's decode() of what arrived
        page.press("ArrowRight")
        latencies.append(wait(page, LATENCY))
    return latencies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--editor", default=str(REPO / ".build/debug/imagegallery-editor"))
    parser.add_argument("--imagegallery", default=str(REPO / ".build/debug/imagegallery"))
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--side", type=int, default=1920, help="the screen's long side in device pixels")
    parser.add_argument("--work", help="a folder to keep the gallery and the logs in (default: a temporary one)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slideshow-bench-") as scratch:
        work = Path(arguments.work or scratch).resolve()
        work.mkdir(parents=True, exist_ok=True)
        gallery = make_gallery(arguments.imagegallery, work)
        env = private_env(work / "xdg")
        editor = Editor([arguments.editor, str(gallery), "--no-open", "--json"], env, work / "editor.log")
        devtools = DevTools(find_chromium(), work / "profile", work / "chromium.log", window_size=(1920, 1080),
                            host_rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
        try:
            latencies = measure(Page(devtools), editor.url, gallery_key(gallery), arguments.runs, arguments.side)
        finally:
            devtools.close()
            editor.stop()
    print(json.dumps({"median_ms": round(statistics.median(latencies), 1), "min_ms": round(min(latencies), 1),
                      "max_ms": round(max(latencies), 1), "runs_ms": [round(value, 1) for value in latencies],
                      "side": arguments.side, "cpu": cpu_flags(), "cores": os.cpu_count(),
                      "command": shlex.join([sys.executable, *sys.argv])}, indent=1))


if __name__ == "__main__":
    main()
