#!/usr/bin/python3
"""Checks the web gallery's slideshow (issue 33) in headless Chromium and in Firefox ESR.

    check-web-slideshow.py --imagegallery BIN --artifacts DIR [--chromium PATH] [--firefox PATH]

Makes six photos of flat, distinct colours (1200 × 800: renditions at 480 and 1,024 px), a gallery of
them and its web gallery with --base-url (web_slides.py), and opens the index from file:// (no
server). In Chromium, over the DevTools protocol (devtools.py):
  - markup: every tile a <figure> with a <figcaption>, an srcset of renditions, alt text that is
    not the caption; JSON-LD an ImageGallery of ImageObjects (parsed); Open Graph and Twitter tags;
  - order: Play from the third tile; the slides shown, read as pixels from screenshots once each
    has faded in, follow the gallery's order (3, 4, 5, 6, then 1 with loop on), each a rendition
    (sized/…), never an original;
  - pause (Space) holds the slide; ArrowRight, ArrowLeft and a click move it; the live region says
    "Image N of 6: caption";
  - Escape leaves, focused on the tile of the slide it stopped on;
  - a deep link (#/slide/5) survives a reload;
  - reduced motion (Emulation.setEmulatedMedia): no transition runs, where one runs without it;
  - axe-core on the open slideshow: no violation of any impact.
In Firefox ESR, headless over WebDriver BiDi (bidi.py): the slideshow plays in the gallery's order
and follows ArrowRight, ArrowLeft, Space and Escape.

Saves slideshow-chromium.png and slideshow-firefox.png into DIR; prints one JSON document {ok,
failures, steps, screenshots} and exits 0 when every check passed, 1 when one failed, 2 when it
could not check (no Chromium, or it crashed).
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from devtools import CHROMIUM_MISSING, BrowserGone, DevTools, Tab, find_chromium  # noqa: E402
from editor_more_page import axe_script  # noqa: E402
from harness import CheckFailed, Steps, console_entry, describe, finish, hang_guard, log_tail, poll  # noqa: E402
from web_slides import (BASE_URL, COLOURS, MARKUP_SCRIPT, PLAYING_INTERVAL, STATE_SCRIPT, WINDOW, check_json_ld,  # noqa: E402
                        chromium_pixel, make_web_gallery, read_while_still, still)
from web_slideshow_firefox import firefox_plays_in_order  # noqa: E402

TOLERANCE = 24  # JPEG's error on a flat colour is a few units; the colours are 100+ apart

ANIMATION_PROBE = """new Promise((resolve) => {
  let most = 0; const end = performance.now() + 1200;
  const look = () => { most = Math.max(most, document.getAnimations().length);
                       if (performance.now() < end) requestAnimationFrame(look); else resolve(most); };
  requestAnimationFrame(look);
})"""


class SlideshowChecks(Steps):
    def __init__(self, devtools, index, artifacts, scratch):
        Steps.__init__(self)
        self.devtools, self.index, self.artifacts, self.scratch = devtools, index, Path(artifacts), scratch
        self.tab = None
        self.console = []
        devtools.listeners.append(self.on_event)

    def on_event(self, message):
        entry = console_entry(self.devtools, self.tab and self.tab.session, message)
        if entry:
            self.console.append(entry)

    def state(self):
        return self.tab.evaluate(STATE_SCRIPT)

    def wait(self, description, predicate, timeout=20):
        return poll(description, lambda: (lambda s: s if predicate(s) else None)(self.state()), timeout, 0.05,
                    failure=lambda _last: f"{description}: not reached (last state: {json.dumps(self.state())})")

    def settled(self, number):
        """The state once slide `number` is shown and its fade has finished: what a person sees."""
        return self.wait(f"slide {number} shown and still", lambda s: still(s, number))

    def stage_pixel(self):
        box = self.tab.evaluate("(() => { const r = document.querySelector('.slideshow-stage').getBoundingClientRect();"
                                " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        return chromium_pixel(self.tab, box[0], box[1])

    def shown_colour(self, number, why):
        """The slide's number as its pixels say, read at the middle of the stage while slide `number` is still."""
        reading = read_while_still(self.stage_pixel, self.state, number)
        if reading is None:
            raise CheckFailed(f"{why}: slide {number} moved on before its pixels were read")
        seen, distance = reading
        if distance > TOLERANCE:
            raise CheckFailed(f"the stage's middle is no gallery colour ({distance:.0f} off colour {seen})")
        return seen

    def expect_slide(self, number, why):
        state = self.settled(number)
        seen = self.shown_colour(number, why)
        if seen != number:
            raise CheckFailed(f"{why}: slide {number} is announced but the screen shows colour {seen}")
        if "/sized/" not in (state["src"] or ""):
            raise CheckFailed(f"{why}: slide {number} shows {state['src']}, not a rendition")
        return state

    def run(self):
        self.tab = Tab(self.devtools)
        for domain in ("Page", "Runtime", "Log"):
            self.tab.call(domain + ".enable")
        self.tab.call("Emulation.setDeviceMetricsOverride", {"width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1,
                                                              "mobile": False})
        self.tab.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.artifacts.mkdir(parents=True, exist_ok=True)
        for name, body in (("markup", self.markup), ("order from the third image", self.order),
                           ("pause, arrows and a click", self.controls), ("Escape returns to the image", self.escape),
                           ("a deep link survives a reload", self.deep_link), ("reduced motion", self.reduced_motion),
                           ("axe-core", self.axe)):
            with self.step("Chromium: " + name) as record:
                record["detail"] = body()

    def open_index(self, hash_part=""):
        self.tab.navigate(self.index.as_uri() + hash_part)
        self.wait("the index", lambda s: s["readyState"] == "complete")

    def markup(self):
        self.open_index()
        found = self.tab.evaluate(MARKUP_SCRIPT)
        problems = check_json_ld(found["jsonld"] or "{}", len(COLOURS), BASE_URL)
        if found["figures"] != len(COLOURS) or found["figcaptions"] != len(COLOURS):
            problems.append(f"{found['figures']} figures, {found['figcaptions']} captions for {len(COLOURS)} images")
        for number, (srcset, alt, caption) in enumerate(zip(found["srcsets"], found["alts"], found["captions"]), 1):
            # The tiles' renditions up to 1,024 px; the 1,200 px original is the slideshow's alone.
            widths = sorted(int(part.split()[-1][:-1]) for part in srcset.split(","))
            if widths != [480, 1024] or not all("sized/" in part for part in srcset.split(",")):
                problems.append(f"tile {number}: srcset {srcset!r}")
            if not alt or alt == caption:
                problems.append(f"tile {number}: alt {alt!r} beside caption {caption!r}")
        og = found["og"]
        if not (og["image"] or "").startswith(BASE_URL + "sized/001-") or og["card"] != "summary_large_image":
            problems.append(f"sharing tags: {og}")
        if problems:
            raise CheckFailed("; ".join(problems))
        return f"6 figures with srcsets {found['srcsets'][0]!r}; JSON-LD ImageGallery of 6; og:image {og['image']}"

    def play_from_third(self):
        self.open_index()
        for _ in range(3):
            self.tab.press("ArrowRight")
        self.wait("the third tile focused", lambda s: s["focusedTile"] == "i3")
        box = self.tab.evaluate("(() => { const r = document.getElementById('play').getBoundingClientRect();"
                                " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        self.tab.click(box[0], box[1])
        return self.expect_slide(3, "Play from the third tile")

    def order(self):
        self.play_from_third()
        # A short interval, chosen as a person does: the select.
        self.tab.evaluate("(() => { const s = document.querySelector('.slideshow select'); s.value = '%s';"
                          " s.dispatchEvent(new Event('change')); return true; })()" % PLAYING_INTERVAL)
        seen = [3]
        for number in (4, 5, 6, 1, 2):
            self.expect_slide(number, f"the slideshow after slide {seen[-1]}")
            seen.append(number)
        return f"shown in order {seen}, each a rendition (pixels sampled once each had faded in)"

    def controls(self):
        self.play_from_third()
        self.tab.press(" ")
        paused = self.wait("paused by Space", lambda s: s["mode"] == "paused")
        self.tab.evaluate("new Promise(r => setTimeout(r, 6500))", await_promise=True, timeout=30)
        if self.state()["slide"] != paused["slide"]:
            raise CheckFailed(f"paused on slide {paused['slide']}, it moved on to {self.state()['slide']}")
        self.tab.press("ArrowRight")
        state = self.expect_slide(int(paused["slide"]) + 1, "ArrowRight")
        self.tab.press("ArrowLeft")
        self.expect_slide(int(paused["slide"]), "ArrowLeft")
        stage = self.tab.evaluate("(() => { const r = document.querySelector('.slideshow-stage').getBoundingClientRect();"
                                  " return [r.right - 60, r.top + r.height / 2]; })()")
        self.tab.click(stage[0], stage[1])
        state = self.expect_slide(int(paused["slide"]) + 1, "a click on the right")
        if not state["status"].startswith(f"Image {state['slide']} of 6: Colour {state['slide']}"):
            raise CheckFailed(f"the live region says {state['status']!r}")
        self.tab.press(" ")
        self.wait("resumed by Space", lambda s: s["mode"] == "playing")
        return f"paused on {paused['slide']} for longer than 5 s; arrows and a click moved; live region {state['status']!r}"

    def escape(self):
        self.play_from_third()
        self.tab.press("ArrowRight")
        self.expect_slide(4, "ArrowRight")
        self.tab.press("Escape")
        state = self.wait("the grid again, on tile 4", lambda s: not s["open"] and s["focusedTile"] == "i4")
        if state["hash"] != "#i4":
            raise CheckFailed(f"after Escape the address ends {state['hash']!r}")
        return "Escape on slide 4 left the slideshow focused on tile i4"

    def deep_link(self):
        self.open_index("#/slide/5")
        self.expect_slide(5, "the link #/slide/5")
        self.tab.call("Page.reload", {})
        self.wait("the index reloaded", lambda s: s["readyState"] == "complete")
        state = self.expect_slide(5, "#/slide/5 after a reload")
        if state["hash"] != "#/slide/5":
            raise CheckFailed(f"the address after a reload ends {state['hash']!r}")
        return "#/slide/5 shows colour 5, before and after a reload"

    def transitions(self, reduce):
        self.tab.call("Emulation.setEmulatedMedia",
                      {"features": [{"name": "prefers-reduced-motion", "value": "reduce" if reduce else "no-preference"}]})
        self.open_index("#/slide/2")
        self.settled(2)
        self.tab.evaluate("window.__probe = " + ANIMATION_PROBE)
        self.tab.press("ArrowRight")
        return self.tab.evaluate("window.__probe", await_promise=True, timeout=30)

    def reduced_motion(self):
        moving = self.transitions(False)
        still = self.transitions(True)
        self.tab.call("Emulation.setEmulatedMedia", {"features": []})
        if moving == 0:
            raise CheckFailed("without reduced motion no cross-fade ran: the check could not tell")
        if still != 0:
            raise CheckFailed(f"with prefers-reduced-motion: reduce, {still} animation(s) ran")
        return f"{moving} transitions at once without it, none with prefers-reduced-motion: reduce"

    def axe(self):
        script, origin = axe_script(self.scratch)
        self.open_index("#/slide/3")
        self.settled(3)
        # Not preloading: axe-core would read the style sheets by XHR, which the page's policy
        # (rightly) forbids, and the console check would count that against the page.
        self.tab.evaluate(script + "\n;true")
        violations = self.tab.evaluate("""axe.run(document, {resultTypes: ['violations'], preload: false}).then((r) => r.violations.map((v) => ({
            id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' '))})))""", await_promise=True, timeout=120)
        shot = self.artifacts / "slideshow-chromium.png"
        self.tab.screenshot(shot)
        self.screenshots.append(str(shot))
        if violations:
            raise CheckFailed(f"axe-core: {violations}")
        return f"axe-core {self.tab.evaluate('axe.version')} ({origin}): no violation on the open slideshow"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--imagegallery", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--chromium")
    parser.add_argument("--firefox")
    parser.add_argument("--timeout", type=float, default=600)
    arguments = parser.parse_args()
    chromium = find_chromium(arguments.chromium)
    if not chromium:
        finish({"ok": False, "failures": [CHROMIUM_MISSING], "steps": [], "screenshots": [], "error": CHROMIUM_MISSING}, 2)
    scratch = Path(tempfile.mkdtemp(prefix="check-web-slideshow-"))
    error = None
    try:
        try:
            index = make_web_gallery(arguments.imagegallery, scratch / "gallery")
        except (RuntimeError, OSError, subprocess.SubprocessError) as problem:
            finish({"ok": False, "failures": [str(problem)], "steps": [], "screenshots": [], "error": str(problem)}, 2)
        devtools = DevTools(chromium, scratch / "profile", scratch / "chromium.log")
        checks = SlideshowChecks(devtools, index, arguments.artifacts, scratch)
        try:
            with hang_guard(arguments.timeout, devtools.process.kill):
                checks.run()
                with checks.step("Firefox: plays in order with the keyboard") as record:
                    record["detail"] = firefox_plays_in_order(index, scratch, Path(arguments.artifacts), checks.screenshots,
                                                              arguments.firefox)
        except (BrowserGone, TimeoutError, RuntimeError) as problem:
            error = f"{type(problem).__name__}: {problem}"
        finally:
            devtools.close()
        result = checks.result()
        result["console"] = [describe(entry) for entry in checks.console]
        result["failures"] += [f"the page: {line}" for line in result["console"]]
        if error:
            result["error"] = error
            result["failures"].append(f"the check could not finish: {error}")
            result["chromiumLog"] = log_tail(scratch / "chromium.log")
        result["ok"] = not result["failures"]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    finish(result, 2 if error else (0 if result["ok"] else 1))


if __name__ == "__main__":
    main()
