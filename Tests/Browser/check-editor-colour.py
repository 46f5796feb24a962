#!/usr/bin/python3
"""A profiled photo looks the same in the editor's grid and in its detail view (issue 31, item 5),
in headless Chromium and in Firefox ESR (WebDriver BiDi).

usage: check-editor-colour.py --imagegallery BIN --editor BIN --fixtures DIR --artifacts DIR [--chromium PATH]

Makes photos tagged with colord's ProPhoto RGB profile (a JPEG) and with a Display P3 profile built
with Little CMS (a PNG), each with a left half of one flat colour and a right half of another.
The grid shows the editor's rendition, which the editor has converted to sRGB; the detail view
shows the original, which the browser colour-manages. For each photo and browser it screenshots
both views and samples the middle of each half: the two must agree within CIEDE2000 2.0, and
each must be within 2.0 of the colour Little CMS (Pillow's ImageCms) gives the photo's numbers,
which read as sRGB would be far off (more than 10 in ProPhoto, more than 3 in Display P3). Saves colour-grid-BROWSER.png and
colour-detail-BROWSER.png. Prints one JSON document {ok, failures, steps, screenshots} and exits
0 when every check passed, 1 when one failed, 2 when it could not check.
"""

import io
import json
import math
import sys
import tempfile
import zipfile
from pathlib import Path

from PIL import Image, ImageCms

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "Colour"))
import profiled_images  # noqa: E402  (the Display P3 profile)
from editor_page import EditorPage  # noqa: E402
from harness import (CheckFailed, Editor, FirefoxPage, Steps, could_not_check, create_gallery, editor_arguments,  # noqa: E402
                     gallery_key, headless_chromium, run_and_report, start_editor)

# Each photo's two halves, in its own numbers: saturated enough that, read as sRGB, they are
# another colour (CIEDE2000 over 10 in ProPhoto, over 3 in Display P3, a smaller space).
HALVES = {"prophoto.jpg": ((150, 91, 61), (60, 120, 200)), "displayp3.png": ((230, 40, 40), (240, 120, 30))}

def boxes_script(key, ids):
    """The boxes of gallery `key`'s loaded photos in the grid and of its loaded detail picture.
    Only its own: after a move to another gallery in the same page, the last gallery's cells and
    picture stay on screen until the new ones are drawn. A grid photo is known by its cell's
    image id (one the first screen's answer made comes as a data: URL, which names no gallery);
    the detail picture by its URL."""
    return """(() => {
  const ids = new Set(%s), loaded = (img) => img.naturalWidth > 0 && img.complete;
  const ownCell = (img) => loaded(img) && ids.has(img.closest('.image-cell')?.dataset.id);
  const own = (img) => loaded(img) && new URL(img.src).pathname.startsWith('/api/documents/%s/');
  const box = (element) => { const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, width: r.width, height: r.height}; };
  const grid = [...document.querySelectorAll('#image-grid .image-cell img')].filter(ownCell);
  const detail = document.getElementById('detail-image');
  return {grid: grid.map(box), detail: detail && !document.getElementById('detail-view').hidden && own(detail)
    ? box(detail) : null, ratio: window.devicePixelRatio};
})()""" % (json.dumps(ids), key)


def image_ids(gallery):
    """The ids of the images of `gallery`, from its manifest."""
    with zipfile.ZipFile(gallery) as archive:
        return [image["id"] for image in json.loads(archive.read("manifest.json"))["images"]]


def lab(rgb):
    linear = [(v / 255 / 12.92) if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
    x = (0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]) / 0.95047
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    z = (0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]) / 1.08883
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def ciede2000(first, second):
    """CIEDE2000 between two 8-bit sRGB colours (as Tests/GalleryTestSupport/ColourDifference.swift)."""
    (l1, a1, b1), (l2, a2, b2) = lab(first), lab(second)
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0
    dh = 0
    if c1 * c2:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_cp = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = h1 + h2
    if c1 * c2:
        mean_h = mean_h / 2 if abs(h1 - h2) <= 180 else (mean_h + 360) / 2 if mean_h < 360 else (mean_h - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    theta = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    rc = 2 * math.sqrt(mean_cp ** 7 / (mean_cp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    sc, sh = 1 + 0.045 * mean_cp, 1 + 0.015 * mean_cp * t
    rt = -math.sin(math.radians(2 * theta)) * rc
    return math.sqrt(((l2 - l1) / sl) ** 2 + ((c2 - c1) / sc) ** 2 + (big_dh / sh) ** 2 + rt * ((c2 - c1) / sc) * (big_dh / sh))


def make_photos(folder):
    """The two profiled photos, and the sRGB colour Little CMS gives each half of each."""
    profiles = {"prophoto.jpg": open("/usr/share/color/icc/colord/ProPhotoRGB.icc", "rb").read(),
                "displayp3.png": profiled_images.built_profile(profiled_images.D65, profiled_images.P3,
                                                               profiled_images.SRGB_CURVE)}
    expected = {}
    for name, profile in profiles.items():
        image = Image.new("RGB", (1200, 800), HALVES[name][0])
        image.paste(HALVES[name][1], (600, 0, 1200, 800))
        options = {"quality": 95, "subsampling": 0} if name.endswith(".jpg") else {}
        image.save(folder / name, icc_profile=profile, **options)
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        expected[name] = [ImageCms.profileToProfile(Image.new("RGB", (1, 1), half), source, ImageCms.createProfile("sRGB"),
                                                    renderingIntent=1).getpixel((0, 0)) for half in HALVES[name]]
    return expected


def halves(screenshot, box, ratio):
    """The colours at the middle of the left and the right half of `box` in a screenshot, over 5 × 5 pixels."""
    image = Image.open(screenshot).convert("RGB")
    found = []
    for fraction in (0.25, 0.75):
        x = int((box["left"] + box["width"] * fraction) * ratio)
        y = int((box["top"] + box["height"] / 2) * ratio)
        pixels = [image.getpixel((x + dx, y + dy)) for dx in range(-2, 3) for dy in range(-2, 3)]
        found.append(tuple(round(sum(p[c] for p in pixels) / len(pixels)) for c in range(3)))
    return found


class ColourScenarios(Steps):
    def __init__(self, devtools, editor, folder, expected, scratch, artifacts):
        Steps.__init__(self)
        self.devtools, self.editor, self.folder, self.expected = devtools, editor, folder, expected
        self.scratch, self.artifacts = scratch, Path(artifacts)
        self.page = None

    def run(self):
        self.page = EditorPage(self.devtools)
        url = self.editor.announcement["url"]
        self.page.navigate(url)
        self.page.wait_for("the editor's page", lambda s: s["readyState"] == "complete")
        origin = "/".join(url.split("/", 3)[:3])
        for name in self.expected:
            with self.step(f"Chromium: {name}") as record:
                record["detail"] = self.compare("chromium", name, self.views(self.page_api(), origin, name, "chromium"))
        with self.step("Firefox") as record:
            record["detail"] = self.firefox()

    def page_api(self):
        """The Chromium page with the calls the views need, as FirefoxPage has them."""
        page = self.page

        class Api:
            def navigate(self, url):
                page.navigate(url)

            def evaluate(self, expression):
                return page.evaluate(expression)

            def screenshot(self, path):
                page.frames(3)
                page.screenshot(path)
        return Api()

    def views(self, api, origin, name, browser):
        """Screenshots of the photo's grid cell and of its detail view; the colours of both halves in each."""
        gallery = self.folder / (name + ".imagegallery")
        key, ids = gallery_key(gallery), image_ids(gallery)
        api.navigate(origin + f"/#gallery={key}")
        boxes = self.until(api, boxes_script(key, ids), "the grid's rendition", lambda b: b["grid"])
        grid_shot = self.artifacts / f"colour-grid-{Path(name).stem}-{browser}.png"
        api.screenshot(grid_shot)
        self.screenshots.append(str(grid_shot))
        grid = halves(grid_shot, boxes["grid"][0], boxes["ratio"])
        image = api.evaluate("document.querySelector('#image-grid .image-cell').dataset.id")
        api.navigate(origin + f"/#gallery={key}&image={image}")
        boxes = self.until(api, boxes_script(key, ids), "the detail view's original", lambda b: b["detail"])
        detail_shot = self.artifacts / f"colour-detail-{Path(name).stem}-{browser}.png"
        api.screenshot(detail_shot)
        self.screenshots.append(str(detail_shot))
        return grid, halves(detail_shot, boxes["detail"], boxes["ratio"])

    def until(self, api, script, what, ready):
        """The boxes `script` finds (boxes_script) once `ready` holds for them and still holds two
        frames later (a redraw may replace what was ready)."""
        import time
        end = time.monotonic() + 90
        while time.monotonic() < end:
            boxes = api.evaluate(script)
            if boxes and ready(boxes):
                api.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
                boxes = api.evaluate(script)
                if boxes and ready(boxes):
                    return boxes
            time.sleep(0.1)
        raise CheckFailed(f"{what} did not show within 90 s")

    def compare(self, browser, name, found):
        grid, detail = found
        expected = self.expected[name]
        said = []
        if max(ciede2000(numbers, want) for numbers, want in zip(HALVES[name], expected)) <= 3:
            raise CheckFailed(f"{name}: the profile barely changes {HALVES[name]}; the check would show nothing")
        for half, (ours, theirs, want, numbers) in enumerate(zip(grid, detail, expected, HALVES[name])):
            apart = ciede2000(ours, theirs)
            if apart > 2.0:
                raise CheckFailed(f"{browser}, {name}, {'left' if half == 0 else 'right'} half: the grid shows {ours}, "
                                  f"the detail view {theirs} (CIEDE2000 {apart:.2f})")
            for view, colour in (("grid", ours), ("detail view", theirs)):
                off = ciede2000(colour, want)
                if off > 2.0:
                    raise CheckFailed(f"{browser}, {name}: the {view} shows {colour}, Little CMS gives {want} "
                                      f"(CIEDE2000 {off:.2f}); read as sRGB the numbers are {numbers}")
            said.append(f"{ours} in the grid, {theirs} in the detail view (ΔE2000 {apart:.2f})")
        return "; ".join(said)

    def firefox(self):
        """Firefox ESR, headless, over BiDi, with an editor of its own (a launch link serves one browser)."""
        from bidi import Firefox, find_firefox
        path = find_firefox()
        if path is None:
            raise CheckFailed("firefox-esr is not installed: scripts/install-deps test installs it")
        editor = Editor(self.editor_binary, self.folder, self.scratch / "firefox-editor", 0.5, 2)
        firefox = None
        try:
            if not editor.announcement or "url" not in editor.announcement:
                raise CheckFailed(f"the editor for Firefox printed no link: {editor.log_text()}")
            firefox = Firefox(path, self.scratch / "firefox-profile", self.scratch / "firefox.log", headless=True)
            firefox.set_viewport(1280, 900)
            page = FirefoxPage.wrapping(firefox)
            url = editor.announcement["url"]
            firefox.navigate(url)
            origin = "/".join(url.split("/", 3)[:3])
            return "; ".join(f"{name}: " + self.compare("Firefox", name, self.views(page, origin, name, "firefox"))
                             for name in self.expected)
        finally:
            if firefox is not None:
                firefox.close()
            editor.stop()


def main():
    arguments, chromium = editor_arguments(__doc__.split("\n")[0], "the imagegallery binary (for create)",
                                           "the imagegallery-editor binary under test", 300)
    with tempfile.TemporaryDirectory(prefix="check-editor-colour-") as scratch:
        scratch = Path(scratch).resolve()
        folder = scratch / "galleries"
        folder.mkdir()
        try:
            expected = make_photos(scratch)
            for name in expected:
                create_gallery(arguments.imagegallery, folder / (name + ".imagegallery"), name, [scratch / name])
        except (RuntimeError, OSError) as error:
            could_not_check(error)
        editor = start_editor(arguments, folder, scratch / "editor", 0.5, 2)
        devtools = headless_chromium(chromium, scratch)
        scenarios = ColourScenarios(devtools, editor, folder, expected, scratch, arguments.artifacts)
        scenarios.editor_binary = arguments.editor
        run_and_report(scenarios, devtools, editor, arguments.timeout, chromium, arguments.editor, scratch)


if __name__ == "__main__":
    main()
