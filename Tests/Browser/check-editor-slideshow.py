#!/usr/bin/python3
"""The editor's slideshow and its "Use as cover" (issue 33), in headless Chromium and in Firefox ESR
(WebDriver BiDi), each with an editor of its own.

usage: check-editor-slideshow.py --imagegallery BIN --editor BIN --fixtures DIR --artifacts DIR [--chromium PATH] [--firefox PATH]

Makes five flat-colour 3000 × 2000 JPEGs (red, green, blue, yellow, magenta) with Pillow, in a
gallery made by `imagegallery create`. Which slide shows is read from the screen: the colour a
screenshot finds in the middle of the slide. In Chromium, through real clicks and keys:

- P on the third image plays from it; the slide is a rendition (`/rendition?side=N`), at most the
  screen's long side in device pixels and smaller than the 3000-pixel original; the live region
  says "Image 3 of 5"; autoplay goes on to the fourth;
- Space pauses (the button says Resume) and nothing moves for longer than the interval;
- arrows and a click on the picture go through every image in the gallery's order, round the end;
- with prefers-reduced-motion: no-preference a slide fades in; with reduce no animation runs;
- axe-core on the show finds nothing, of any impact; Z loads the original (3000 pixels wide);
- Escape leaves on the image shown, selected and focused in the grid;
- after Ctrl+Left moves an image, the show follows the new order;
- U makes the focused image the cover (its badge, named, moves to it; the file on disk names it
  in its manifest), Shift+U unsets it, Ctrl+Z takes that back;
- no console error.

In Firefox: P on the third image, every image in order by the arrow keys, Space pauses, Escape
back on the image shown.

Saves slideshow-chromium.png and slideshow-firefox.png. Prints one JSON document {ok, failures,
steps, screenshots} and exits 0 when every check passed, 1 when one failed, 2 when it could not
check.
"""

import json
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from devtools import CTRL, SHIFT  # noqa: E402
from editor_more_page import MorePage, axe_script  # noqa: E402
from editor_slideshow_page import ChromiumSlides, FirefoxSlides  # noqa: E402
from harness import CheckFailed, DISK_TIMEOUT, Steps, gallery_key, poll  # noqa: E402
from two_browsers import in_firefox, run_in_both  # noqa: E402

COLOURS = {"1-red.jpg": (220, 40, 40), "2-green.jpg": (40, 180, 60), "3-blue.jpg": (40, 70, 220),
           "4-yellow.jpg": (230, 210, 40), "5-magenta.jpg": (200, 50, 200)}
ORIGINAL_SIDE = 3000
INTERVAL = 5  # the show's default interval, in seconds


def make_photos(folder):
    from PIL import Image
    paths = []
    for name, colour in COLOURS.items():
        path = folder / name
        Image.new("RGB", (ORIGINAL_SIDE, 2000), colour).save(path, quality=90)
        paths.append(path)
    return paths


def colour_name(rgb):
    """The photo whose colour is nearest `rgb`; CheckFailed when none is near (a half-drawn slide, say)."""
    name, colour = min(COLOURS.items(), key=lambda item: sum((a - b) ** 2 for a, b in zip(item[1], rgb)))
    if sum((a - b) ** 2 for a, b in zip(colour, rgb)) > 60 ** 2:
        raise CheckFailed(f"the middle of the slide is {rgb}, none of the photos' colours")
    return name


def manifest_cover(path):
    """The manifest's cover member in the gallery file at `path` (None when it has none)."""
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("manifest.json")).get("cover")


class SlideScenarios:
    """One browser's run over its own gallery."""

    def __init__(self, driver, origin, gallery):
        self.driver, self.origin, self.gallery = driver, origin, Path(gallery)

    def open(self):
        self.driver.navigate(f"{self.origin}/#gallery={gallery_key(self.gallery)}")
        return self.driver.until("the gallery", lambda s: s["gallery"] and len(s["cells"]) == len(COLOURS))

    def order(self):
        """The gallery's order as the grid shows it: the photos' names."""
        return [cell["name"] for cell in self.driver.slides()["cells"]]

    def shown(self, expected_id=None, description="the slide"):
        """Waits for a slide (the image `expected_id`, if given) decoded and on top; returns (state, the photo seen)."""
        # Once no fade runs: the middle of one is neither photo's colour.
        state = self.driver.until(description, lambda s: s["shown"] and s["slide"] and s["slide"]["complete"] and not s["animations"]
                                  and s["slide"]["width"] > 0 and (expected_id is None or s["id"] == expected_id))
        seen = colour_name(self.driver.colour_at(state["centre"]["x"], state["centre"]["y"]))
        cell = next(cell for cell in state["cells"] if cell["id"] == state["id"])
        if seen != cell["name"]:
            raise CheckFailed(f"{self.driver.name}: the show says {cell['name']} and the screen shows {seen}")
        return state, seen

    def play_third(self):
        state = self.open()
        third = state["cells"][2]
        self.driver.click(f'#image-grid .image-cell[data-id="{third["id"]}"] .frame')
        self.driver.until("the third image focused", lambda s: s["focusedCell"] == third["id"])
        self.driver.key("p")
        state, seen = self.shown(third["id"], "P showing the third image")
        if seen != "3-blue.jpg" or "Image 3 of 5" not in (state["live"] or "") or not state["focusInShow"]:
            raise CheckFailed(f"{self.driver.name}: P showed {seen}, live region {state['live']!r}, focus in the show {state['focusInShow']}")
        return state, seen

    def walk(self, start_index, steps, key="ArrowRight"):
        """Presses `key` `steps` times from the slide at `start_index`; returns the photos seen, in turn."""
        order, seen = self.order(), []
        step = 1 if key == "ArrowRight" else -1
        for number in range(1, steps + 1):
            self.driver.key(key)
            expected = self.driver.slides()["cells"][(start_index + step * number) % len(order)]["id"]
            seen.append(self.shown(expected, f"{key} to the image {expected[:8]}")[1])
        return seen

    def in_order_by_keys(self):
        """From the third image: Right through every image and round the end, then Left back."""
        order, start = self.order(), self.index_of_shown()
        seen = self.walk(start, len(order))
        expected = [order[(start + n) % len(order)] for n in range(1, len(order) + 1)]
        back = self.walk(start, 1, "ArrowLeft")
        if seen != expected or back != [order[(start - 1) % len(order)]]:
            raise CheckFailed(f"{self.driver.name}: Right showed {seen}, Left {back}; the gallery's order is {order}")
        return f"Right: {seen}; Left: {back}"

    def name_of(self, image_id):
        return next(cell["name"] for cell in self.driver.slides()["cells"] if cell["id"] == image_id)

    def index_of_shown(self):
        state = self.driver.slides()
        return [cell["id"] for cell in state["cells"]].index(state["id"])

    def pause(self):
        self.driver.key(" ")
        state = self.driver.until("Space pausing the show", lambda s: not s["playing"] and s["pauseLabel"] == "Resume")
        return state

    def escape_back(self):
        state = self.driver.slides()
        stopped = state["id"]
        self.driver.key("Escape")
        state = self.driver.until("Escape leaving the show", lambda s: not s["shown"] and s["focusedCell"] == stopped)
        cell = next(cell for cell in state["cells"] if cell["id"] == stopped)
        if not cell["selected"]:
            raise CheckFailed(f"{self.driver.name}: back in the grid, {cell['name']} has the focus but is not selected")
        return f"back on {cell['name']}, focused and selected"


class ChromiumScenarios(SlideScenarios):
    """What only the Chromium run checks: timing-free autoplay and pause, motion, axe, zoom, reorder, cover."""

    def __init__(self, driver, origin, gallery, page, scratch):
        SlideScenarios.__init__(self, driver, origin, gallery)
        self.page, self.scratch = page, scratch

    def play_from_third(self):
        state, seen = self.play_third()
        slide = state["slide"]
        long_side = max(slide["width"], slide["height"])
        if "/rendition?side=" not in slide["src"] or long_side > state["screenSide"] or long_side >= ORIGINAL_SIDE:
            raise CheckFailed(f"the slide is {slide['src']} at {slide['width']} × {slide['height']}, "
                              f"the screen {state['screenSide']} device pixels long, the original {ORIGINAL_SIDE}")
        return (f"{seen}, {state['live']!r}, {slide['src'].split('/')[-1]} at {slide['width']} × {slide['height']} "
                f"(screen {state['screenSide']}, original {ORIGINAL_SIDE}), full screen {state['fullscreen']}")

    def autoplay_and_pause(self):
        fourth = self.driver.slides()["cells"][3]["id"]
        _, seen = self.shown(fourth, "autoplay going on to the fourth image")
        state = self.pause()
        # Paused for twice the interval: a show still playing would have moved on by then.
        time.sleep(2 * INTERVAL + 1)
        after = self.driver.slides()
        if after["id"] != state["id"]:
            raise CheckFailed(f"paused, the show still moved from {state['id'][:8]} to {after['id'][:8]}")
        return f"autoplay went on to {seen}; paused ({state['live']!r}), still on it {2 * INTERVAL + 1} s later"

    def click_pages(self):
        start = self.index_of_shown()
        order = self.order()
        state = self.driver.slides()
        self.page.click(state["centre"]["x"] + 200, state["centre"]["y"])
        _, seen = self.shown(state["cells"][(start + 1) % len(order)]["id"], "a click on the picture's right going on")
        self.page.click(state["centre"]["x"] - 500, state["centre"]["y"])
        _, back = self.shown(state["cells"][start]["id"], "a click on the picture's left going back")
        return f"a click on the right: {seen}; on the left: {back}"

    def reduced_motion(self):
        self.page.reduce_motion(False)
        before = self.driver.slides()["fades"]
        # Not sampled: the middle of a fade is neither photo's colour.
        self.driver.key("ArrowRight")
        faded = self.driver.until("a slide fading in", lambda s: s["fades"] > before)["fades"]
        self.page.reduce_motion(True)
        self.driver.until("the fade over", lambda s: s["animations"] == 0)
        seen = self.walk(self.index_of_shown(), 2)
        state = self.driver.slides()
        if state["fades"] != faded or state["animations"]:
            raise CheckFailed(f"with reduced motion: {state['fades'] - faded} fade(s), {state['animations']} animation(s) running")
        return f"a fade without the preference; none for {seen} with prefers-reduced-motion: reduce"

    def axe(self):
        script, origin = axe_script(self.scratch)
        report = [f"{v['id']} ({v['impact']}) at {v['targets']}" for v in self.page.run_axe(script)]
        if report:
            raise CheckFailed(f"axe-core on the slideshow: {len(report)} violation(s): {report}")
        return f"axe-core {self.page.evaluate('axe.version')} ({origin}): no violation of any impact"

    def zoom(self):
        self.driver.key("z")
        state = self.driver.until("Z loading the original", lambda s: s["slide"] and s["slide"]["src"].endswith("/display")
                                  and s["slide"]["complete"] and s["slide"]["width"] > 0)
        if state["slide"]["width"] != ORIGINAL_SIDE:
            raise CheckFailed(f"zoomed, the slide is {state['slide']['width']} pixels wide, not the original's {ORIGINAL_SIDE}")
        self.driver.key("z")
        self.driver.until("Z again: the rendition", lambda s: s["slide"] and "/rendition?side=" in s["slide"]["src"])
        return f"the original, {state['slide']['width']} × {state['slide']['height']}, then the rendition again"

    def reorder_followed(self):
        before = self.order()
        moved = self.driver.slides()["focusedCell"]
        # Back one place, or on one for the first image, which cannot go back.
        self.page.press("ArrowLeft" if before.index(self.name_of(moved)) > 0 else "ArrowRight", CTRL)
        self.driver.until("Ctrl+Left moving the image", lambda s: [c["name"] for c in s["cells"]] != before)
        order = self.order()
        self.driver.until("the moved image focused", lambda s: s["focusedCell"] == moved)
        self.driver.key("p")
        start = [cell["id"] for cell in self.driver.slides()["cells"]].index(moved)
        self.shown(moved, "P on the moved image")
        seen = self.walk(start, len(order))
        expected = [order[(start + n) % len(order)] for n in range(1, len(order) + 1)]
        if seen != expected or order == before:
            raise CheckFailed(f"after the move the order is {order} (before {before}); the show went {seen}")
        self.pause()
        return f"{before} became {order}; the show went {seen}. " + self.escape_back()


def cover_steps(scenarios, page):
    """U, Shift+U and Ctrl+Z on the third image: the badge in the grid, the manifest on disk."""
    driver, gallery = scenarios.driver, scenarios.gallery
    third = driver.slides()["cells"][2]
    driver.click(f'#image-grid .image-cell[data-id="{third["id"]}"] .frame')
    driver.until("the third image focused", lambda s: s["focusedCell"] == third["id"])

    def badges(expected_name):
        state = driver.until(f"the cover badge on {expected_name}", lambda s: [c["name"] for c in s["cells"] if c["cover"]] == [expected_name])
        cell = next(cell for cell in state["cells"] if cell["cover"])
        if not cell["badge"]["visible"] or cell["badge"]["label"] != "Cover" or cell["badge"]["role"] != "img" \
                or "the cover" not in cell["label"]:
            raise CheckFailed(f"the cover's badge {cell['badge']}, its photo named {cell['label']!r}")

    def on_disk(expected):
        poll(f"the manifest's cover {expected}", lambda: True if manifest_cover(gallery) == expected else None, DISK_TIMEOUT, 0.2,
             failure=lambda _: f"the manifest's cover is {manifest_cover(gallery)}, not {expected}")
    driver.key("u")
    badges(third["name"])
    on_disk(third["id"])
    page.press("u", SHIFT)
    badges(driver.slides()["cells"][0]["name"])
    on_disk(None)
    page.press("z", CTRL)
    badges(third["name"])
    on_disk(third["id"])
    return f"U: {third['name']} the cover, in the grid and the manifest; Shift+U: the first image stands for it; Ctrl+Z: back"


class SlideshowCheck(Steps):
    def __init__(self, devtools, editor, arguments, folders, scratch):
        Steps.__init__(self)
        self.devtools, self.editor, self.arguments, self.folders, self.scratch = devtools, editor, arguments, folders, scratch

    def run(self):
        page = MorePage(self.devtools)
        url = self.editor.announcement["url"]
        page.navigate(url)
        page.wait_for("the editor's page", lambda s: s["readyState"] == "complete")
        # A screen as large as the window (headless Chromium's own is 800 × 600): the slides ask for its size.
        page.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False,
                                                         "screenWidth": 1280, "screenHeight": 900})
        origin = "/".join(url.split("/", 3)[:3])
        chromium = ChromiumScenarios(ChromiumSlides(page), origin, self.folders["chromium"] / "Colours.imagegallery", page, self.scratch)
        for name, scenario in (("play from the third image", chromium.play_from_third), ("autoplay and pause", chromium.autoplay_and_pause),
                               ("arrows in the gallery's order", chromium.in_order_by_keys), ("click pages", chromium.click_pages),
                               ("reduced motion", chromium.reduced_motion), ("axe-core", chromium.axe), ("zoom to the original", chromium.zoom),
                               ("escape back on the image", chromium.escape_back), ("order after a reorder", chromium.reorder_followed),
                               ("use as cover", lambda: cover_steps(chromium, page))):
            with self.step(f"Chromium: {name}") as record:
                record["detail"] = scenario()
            if name == "play from the third image":
                path = self.arguments.artifacts / "slideshow-chromium.png"
                page.screenshot(path)
                self.screenshots.append(str(path))
        with self.step("Chromium: no console error") as record:
            if page.console:
                raise CheckFailed(f"the page's console: {page.console}")
            record["detail"] = "none"
        self.firefox()

    def firefox(self):
        """Firefox ESR, headless, over BiDi, with an editor of its own (two_browsers.in_firefox); with
        reduced motion, so that no screenshot catches a slide in the middle of its fade."""
        def scenarios(firefox, origin):
            with self.step("Firefox: the slideshow in order by keyboard") as record:
                record["detail"] = self.firefox_show(FirefoxSlides(firefox), origin)
        in_firefox(self, self.arguments, self.folders["firefox"], self.scratch, scenarios, {"ui.prefersReducedMotion": 1})

    def firefox_show(self, driver, origin):
        scenarios = SlideScenarios(driver, origin, self.folders["firefox"] / "Colours.imagegallery")
        _, first = scenarios.play_third()
        paused = scenarios.pause()
        order = scenarios.in_order_by_keys()
        path = self.arguments.artifacts / "slideshow-firefox.png"
        driver.screenshot(path)
        self.screenshots.append(str(path))
        return f"P: {first}; paused ({paused['live']!r}); {order}; {scenarios.escape_back()}"


def main():
    run_in_both(__doc__, 600, make_photos, "Colours.imagegallery", "Colours", SlideshowCheck)


if __name__ == "__main__":
    main()
