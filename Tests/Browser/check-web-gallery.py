#!/usr/bin/python3
"""Checks a web gallery written by `imagegallery convert --to web` in headless Chromium.

    check-web-gallery.py INDEX.html --screenshot OUT.png [--expect-images N] [--chromium PATH]

Loads INDEX.html from file:// (no server) and drives the browser over the DevTools protocol
through --remote-debugging-pipe (devtools.py, beside this file: the standard library only).

It checks that
  - every <img> of the grid and of every image page loads (naturalWidth > 0; lazy images are
    made eager first, so none is skipped for being off screen);
  - no console error, no uncaught exception, no error in the browser log (a file that does not
    load, a script or content-security-policy error) and no dialog (an escaped caption must not
    run `alert`) appears on any page;
  - no request leaves the folder (only file: and data: URLs);
  - the keyboard works: arrows move between the grid's tiles, Enter opens one, ArrowRight and
    ArrowLeft move between image pages (every page is visited), End and Home go to the last and
    first, + zooms, 0 fits, a drag pans, Escape returns to the grid on the same tile;
  - the paging strip has the current image centred.

It saves screenshots of the grid (OUT.png) and of an image page (OUT-image.png), prints one JSON
document and exits 0 when everything passed, 1 when a check failed, 2 when it could not check
(Chromium missing or crashed).
"""

import argparse
import json
import sys
import tempfile
import urllib.parse
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from devtools import CHROMIUM_MISSING, STEP_TIMEOUT, BrowserGone, DevTools, Tab, find_chromium  # noqa: E402
from harness import CheckFailed, console_entry, describe, finish, hang_guard, log_tail, poll  # noqa: E402

IMAGES_SCRIPT = """(async () => {
  const images = Array.from(document.images);
  images.forEach(image => { if (image.loading === 'lazy') image.loading = 'eager'; });
  await Promise.all(images.map(image => new Promise(done => {
    if (image.complete) { done(); return; }
    image.addEventListener('load', done, { once: true });
    image.addEventListener('error', done, { once: true });
    setTimeout(done, 20000);
  })));
  return images.map(image => ({ src: image.getAttribute('src'), naturalWidth: image.naturalWidth,
                                naturalHeight: image.naturalHeight, alt: image.alt,
                                inStrip: !!image.closest('.strip') }));
})()"""

STATE_SCRIPT = """(() => {
  const body = document.body, strip = document.getElementById('strip');
  const current = strip && strip.querySelector('[aria-current="page"]');
  let stripOffset = null;
  if (strip && current) {
    const a = strip.getBoundingClientRect(), b = current.getBoundingClientRect();
    stripOffset = (b.left + b.width / 2) - (a.left + a.width / 2);
  }
  const photo = document.getElementById('photo');
  return {
    url: location.href, readyState: document.readyState, hash: location.hash,
    page: body ? body.className : null, index: body ? body.dataset.index || null : null,
    count: body ? Number(body.dataset.count) : null,
    focused: document.activeElement ? document.activeElement.id || null : null,
    zoom: body && body.dataset.zoom ? Number(body.dataset.zoom) : null,
    fitted: body ? body.dataset.fitted || null : null,
    transform: photo ? photo.style.transform : null,
    tiles: document.querySelectorAll('.grid a').length,
    stripItems: strip ? strip.querySelectorAll('.strip-item').length : null,
    stripOffset: stripOffset,
    heading: (document.querySelector('h1') || {}).textContent || null,
    backText: (document.querySelector('.back') || {}).textContent || null,
    caption: (document.querySelector('.caption') || {}).textContent || null,
    filename: (document.querySelector('.filename') || {}).textContent || null,
    title: document.title,
    stageBox: photo ? (() => { const r = document.getElementById('stage').getBoundingClientRect();
                                return [r.left, r.top, r.width, r.height]; })() : null,
  };
})()"""


class Checker:
    def __init__(self, devtools, index_url, expected_images):
        self.devtools = devtools
        self.index_url = index_url
        self.expected = expected_images
        self.failures = []
        self.console = []
        self.requests = []
        self.pages = []
        self.keyboard = []
        self.page = None
        devtools.listeners.append(self.on_event)

    # Events arrive on the reader thread.
    def on_event(self, message):
        entry = console_entry(self.devtools, self.page and self.page.session, message)
        if entry:
            self.console.append(entry)
        elif message.get("method") == "Network.requestWillBeSent":
            url = message.get("params", {}).get("request", {}).get("url", "")
            scheme = url.split(":", 1)[0].lower()
            if scheme not in ("file", "data", "about", "blob"):
                self.requests.append(url)

    def fail(self, text):
        self.failures.append(text)

    def state(self):
        return self.page.evaluate(STATE_SCRIPT)

    def wait_for(self, description, predicate, timeout=STEP_TIMEOUT):
        """Polls the page's state until `predicate` holds (the document may change meanwhile);
        None, a failure recorded, when it does not."""
        seen = {}

        def probe():
            seen["last"] = last = self.state()
            if last and last["readyState"] == "complete" and predicate(last):
                # Two frames, so that layout after load (the strip's scroll) is done.
                self.page.frames()
                return self.state()
            return None
        try:
            return poll(description, probe, timeout, 0.05, (RuntimeError, TimeoutError),
                        lambda problem: f"{description}: not reached (last state: {json.dumps(seen.get('last'))})")
        except CheckFailed as failure:
            self.fail(str(failure))
            return None

    def check_images(self, state):
        images = self.page.evaluate(IMAGES_SCRIPT, await_promise=True, timeout=60)
        broken = [image["src"] for image in images if image["naturalWidth"] <= 0]
        missing_alt = [image["src"] for image in images if not image["alt"].strip()]
        name = urllib.parse.unquote(state["url"]).rsplit("/", 2)
        name = "/".join(name[-2:]) if "pages" in name else name[-1]
        name = name.split("#")[0]
        for src in broken:
            self.fail(f"{name}: the image {src} did not load (naturalWidth 0)")
        for src in missing_alt:
            self.fail(f"{name}: the image {src} has no alt text")
        self.pages.append({"page": name, "images": len(images), "broken": broken,
                           "strip": sum(1 for image in images if image["inStrip"]), "stripOffset": state["stripOffset"],
                           "heading": state["heading"], "caption": state["caption"], "title": state["title"],
                           "backText": state["backText"], "filename": state["filename"],
                           "alts": [image["alt"] for image in images if not image["inStrip"]]})
        if state["stripOffset"] is not None and abs(state["stripOffset"]) > 2:
            self.fail(f"{name}: the current image is {state['stripOffset']:.1f} px off the strip's centre")

    def key_to(self, key, description, predicate):
        self.page.press(key)
        state = self.wait_for(f"{key} ({description})", predicate)
        self.keyboard.append({"key": key, "expect": description, "ok": state is not None,
                              "index": state and state["index"], "focused": state and state["focused"],
                              "zoom": state and state["zoom"]})
        return state

    def run(self, screenshot):
        self.page = page = Tab(self.devtools)
        for domain in ("Page", "Runtime", "Log", "Network"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        page.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        page.navigate(self.index_url)
        state = self.wait_for("the grid", lambda s: "grid-page" in (s["page"] or ""))
        if state is None:
            return
        count = state["count"]
        if self.expected is not None and (count != self.expected or state["tiles"] != self.expected):
            self.fail(f"the grid shows {state['tiles']} tiles for {count} images; {self.expected} were expected")
        self.check_images(state)
        image_shot = str(Path(screenshot).with_name(Path(screenshot).stem + "-image.png"))
        if count == 0:
            self.page.screenshot(screenshot)
            return

        # The grid: arrows move the focus, Enter opens.
        self.key_to("ArrowRight", "focus the first tile", lambda s: s["focused"] == "i1")
        if count > 1:
            self.key_to("ArrowRight", "focus the second tile", lambda s: s["focused"] == "i2")
            self.key_to("ArrowLeft", "focus the first tile again", lambda s: s["focused"] == "i1")
        self.page.screenshot(screenshot)
        state = self.key_to("Enter", "open image 1", lambda s: "image-page" in (s["page"] or "") and s["index"] == "1")
        if state is None:
            return
        self.check_images(state)

        # Every image page, by ArrowRight. The screenshot is of the middle one, its strip showing
        # neighbours on both sides.
        middle = (count + 1) // 2
        for number in range(2, count + 1):
            state = self.key_to("ArrowRight", f"image {number}", lambda s, n=str(number): s["index"] == n)
            if state is None:
                return
            self.check_images(state)
            if number == middle:
                self.page.screenshot(image_shot)
        if count == 1:
            self.page.screenshot(image_shot)
        if count > 1:
            self.key_to("ArrowLeft", f"image {count - 1}", lambda s, n=str(count - 1): s["index"] == n)
            self.key_to("Home", "image 1", lambda s: s["index"] == "1")
            self.key_to("End", f"image {count}", lambda s, n=str(count): s["index"] == n)
            state = self.key_to("Home", "image 1", lambda s: s["index"] == "1")
        if state is None:
            return

        # Zoom and pan on image 1 (the seed's scroll view).
        fitted = self.wait_for("the image fitted", lambda s: s["zoom"] is not None and s["fitted"] == "yes")
        if fitted:
            zoomed = self.key_to("+", "zoom in", lambda s, z=fitted["zoom"]: s["zoom"] is not None and s["zoom"] > z)
            zoomed = self.key_to("+", "zoom in again", lambda s, z=zoomed["zoom"] if zoomed else 0: s["zoom"] is not None and s["zoom"] > z)
            if zoomed:
                left, top, width, height = zoomed["stageBox"]
                x, y = left + width / 2, top + height / 2
                page.mouse("mouseMoved", x, y)
                page.mouse("mousePressed", x, y, buttons=1, click_count=1)
                for step in range(1, 6):
                    page.mouse("mouseMoved", x + 30 * step, y + 20 * step, buttons=1)
                page.mouse("mouseReleased", x + 150, y + 100, click_count=1)
                panned = self.wait_for("a drag pans the zoomed image",
                                       lambda s, t=zoomed["transform"]: s["transform"] != t)
                self.keyboard.append({"key": "drag", "expect": "pan", "ok": panned is not None,
                                      "transform": panned and panned["transform"]})
            self.key_to("0", "fit again", lambda s: s["fitted"] == "yes")
        self.key_to("Escape", "back to the grid on tile 1",
                    lambda s: "grid-page" in (s["page"] or "") and s["hash"] == "#i1" and s["focused"] == "i1")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("index", help="the web gallery's index.html")
    parser.add_argument("--screenshot", required=True, help="where to save the grid's screenshot (PNG)")
    parser.add_argument("--expect-images", type=int, help="the number of images the grid must show")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    parser.add_argument("--timeout", type=float, default=300, help="give up after this many seconds (a hang guard)")
    arguments = parser.parse_args()

    chromium = find_chromium(arguments.chromium)
    if not chromium:
        finish({"ok": False, "error": CHROMIUM_MISSING}, 2)
    index = Path(arguments.index).resolve()
    if not index.is_file():
        finish({"ok": False, "error": f"{index}: no such file"}, 2)

    with tempfile.TemporaryDirectory(prefix="check-web-gallery-") as profile:
        log_path = Path(profile).parent / (Path(profile).name + ".log")
        devtools = DevTools(chromium, Path(profile) / "profile", log_path)
        checker = Checker(devtools, index.as_uri(), arguments.expect_images)
        error = None
        try:
            with hang_guard(arguments.timeout, devtools.process.kill):
                checker.run(arguments.screenshot)
        except (BrowserGone, TimeoutError, RuntimeError) as problem:
            error = str(problem)
        finally:
            devtools.close()
        chromium_log = log_tail(log_path)
        log_path.unlink(missing_ok=True)

    for entry in checker.console:
        checker.fail(describe(entry))
    for url in checker.requests:
        checker.fail(f"a request left the folder: {url}")
    result = {
        "ok": error is None and not checker.failures,
        "index": str(index),
        "chromium": chromium,
        "failures": checker.failures,
        "console": checker.console,
        "requests": checker.requests,
        "pages": checker.pages,
        "keyboard": checker.keyboard,
        "screenshots": [p for p in (arguments.screenshot,
                                    str(Path(arguments.screenshot).with_name(Path(arguments.screenshot).stem + "-image.png")))
                        if Path(p).exists()],
    }
    if error is not None:
        result["error"] = error
        result["chromiumLog"] = chromium_log
        finish(result, 2)
    finish(result, 0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
