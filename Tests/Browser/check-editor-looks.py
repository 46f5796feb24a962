#!/usr/bin/python3
"""How the gallery editor looks: every view in the light and the dark theme, at a desktop's
1280 × 900 and a phone's 390 × 844, in headless Chromium.

usage: check-editor-looks.py --imagegallery BIN --editor BIN --fixtures DIR --artifacts DIR [--chromium PATH]

For each theme (prefers-color-scheme, emulated) and size it opens, as a person would, the document
browser, a gallery of portrait and landscape photos, the detail view, a drop from the file
manager in progress (its placeholder showing) and a refused drop's message, and saves a
screenshot of each as VIEW-THEME-WIDTH.png in DIR. It checks that the theme is the one asked for
(the page's background dark in the dark theme, light in the light one), that the gallery's
justified rows hold at that size (editor_layout.py), that the drop's placeholder shows with the
photos of its row standing aside (and back in place after the drop), and that the message is in
view (inside the window, wherever the page is scrolled). Then Firefox ESR, headless over
WebDriver BiDi, with each theme set by its content override: the document browser, the gallery,
a refused file's message (chosen with input.setFiles) and the detail view at both sizes, checked
the same way (a drop in Firefox needs real input under X: check-editor-desktop-drops.py does
that, and saves the held drop as drop-firefox.png). Prints one JSON
document {ok, failures, steps, screenshots} and exits 0 when every check passed, 1 when one
failed, 2 when it could not check.
"""

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from devtools import CTRL  # noqa: E402
from editor_layout import ROOM_SCRIPT, check_justified, closed_up, stands_aside  # noqa: E402
from editor_page import EditorPage  # noqa: E402
from harness import (CheckFailed, Editor, FirefoxPage, Steps, could_not_check, create_gallery, editor_arguments,  # noqa: E402
                     fixture_images, gallery_key, headless_chromium, run_and_report, start_editor)

THEMES = ("light", "dark")
SIZES = ((1280, 900), (390, 844))
VIEWS = ("browser", "gallery", "detail", "drop", "message")
EVERY_OPERATION = 0xFFFF

# The page's background as the theme paints it, and where the newest message is.
LOOK_SCRIPT = """(() => {
  const colour = getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).map(Number);
  const message = [...document.querySelectorAll('#messages .message')].pop();
  const box = message && message.getBoundingClientRect();
  return {background: colour, message: box ? {top: box.top, bottom: box.bottom, left: box.left, right: box.right} : null,
          width: window.innerWidth, height: window.innerHeight,
          placeholder: document.querySelector('#image-grid .drop-placeholder') !== null,
          detail: !document.getElementById('detail-view').hidden,
          detailLoaded: document.getElementById('detail-image').naturalWidth > 0};
})()"""


# The most grid cells animated at once over the next 1.5 s (a probe that reads the page).
PROBE_SCRIPT = """window.animationProbe = new Promise((resolve) => {
  let most = 0; const end = performance.now() + 1500;
  const look = () => {
    most = Math.max(most, document.getAnimations().filter((a) => a.effect && a.effect.target
      && a.effect.target.classList && a.effect.target.classList.contains('image-cell')).length);
    if (performance.now() < end) requestAnimationFrame(look); else resolve(most);
  };
  requestAnimationFrame(look);
}); true"""

# The grid drawn again as the row-height slider's input draws it (its value unchanged, so the rows
# stay where they were): whether the drop placeholder is still in it.
REDRAW_SCRIPT = """(() => {
  document.getElementById('cell-size').dispatchEvent(new Event('input'));
  return document.querySelector('#image-grid .drop-placeholder') !== null;
})()"""


def luminance(rgb):
    return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255


class LookScenarios(Steps):
    def __init__(self, devtools, editor, gallery, scratch, artifacts):
        Steps.__init__(self)
        self.devtools, self.editor, self.gallery, self.scratch = devtools, editor, gallery, scratch
        self.artifacts = Path(artifacts)
        self.page = None

    def shoot(self, view, theme, width):
        path = self.artifacts / f"{view}-{theme}-{width}.png"
        self.page.frames(3)
        self.page.screenshot(path)
        self.screenshots.append(str(path))

    def look(self):
        return self.page.evaluate(LOOK_SCRIPT)

    def run(self):
        self.page = EditorPage(self.devtools)
        self.artifacts.mkdir(parents=True, exist_ok=True)
        origin = self.editor.announcement["url"].split("/", 3)
        self.origin = "/".join(origin[:3])
        self.page.navigate(self.editor.announcement["url"])
        self.page.wait_for("the editor's page", lambda s: s["readyState"] == "complete")
        for theme in THEMES:
            self.page.reduce_motion(False, theme)
            for width, height in SIZES:
                self.page.call("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
                with self.step(f"{theme} at {width}×{height}") as record:
                    record["detail"] = self.views(theme, width)
        for theme in THEMES:
            with self.step(f"Firefox: {theme}") as record:
                record["detail"] = self.firefox_views(theme)

    def views(self, theme, width):
        seen = []
        # The document browser.
        self.page.navigate(self.origin + "/")
        self.page.wait_for("the document browser with its gallery",
                           lambda s: not s["browserHidden"] and any(c["title"] == "Holiday" for c in s["cards"]))
        self.wait_images("#gallery-list img")
        look = self.look()
        dark = luminance(look["background"]) < 0.3
        if dark != (theme == "dark"):
            raise CheckFailed(f"the {theme} theme paints the page {look['background']}")
        self.shoot("browser", theme, width)
        # The gallery.
        card = next(c for c in self.page.state()["cards"] if c["title"] == "Holiday")
        self.page.click_at(card["box"])
        state = self.page.wait_for("the gallery's grid", lambda s: not s["galleryHidden"] and len(s["cells"]) >= 8)
        self.wait_images("#image-grid img")
        seen.append(check_justified(self.page))
        self.shoot("gallery", theme, width)
        if theme == THEMES[0] and width == SIZES[0][0]:
            seen.append(self.moves_animate())
        # A drop from the file manager, held over the third photo, where it is now: the grid is
        # laid out again as photos load and learn their upright shape, after the state above.
        third = self.page.state()["cells"][2]["box"]
        # Over the third photo's top-left quarter: the page puts the placeholder before it.
        at = {"x": third["left"] + third["width"] * 0.2, "y": third["top"] + third["height"] * 0.2}
        data = {"items": [], "files": [str(self.tiff)], "dragOperationsMask": EVERY_OPERATION}
        for kind in ("dragEnter", "dragOver"):
            self.page.call("Input.dispatchDragEvent", {"type": kind, **at, "data": data})
        if not self.look()["placeholder"]:
            raise CheckFailed("a drag held over the grid shows no drop placeholder")
        seen.append(self.photos_make_room())
        self.shoot("drop", theme, width)
        # Let go: a TIFF, refused, with a message in view.
        self.page.call("Input.dispatchDragEvent", {"type": "drop", **at, "data": data})
        self.page.wait_for("the refused drop's message", lambda s: any("scan.tiff" in m for m in s["messages"]))
        # They glide back (0.15 s) unless reduced motion is asked for.
        self.page.wait_for("the photos back in place after the drop", lambda _state: closed_up(self.page.evaluate(ROOM_SCRIPT)))
        look = self.look()
        box = look["message"]
        if not box or box["top"] < 0 or box["bottom"] > look["height"] or box["left"] < 0 or box["right"] > look["width"]:
            raise CheckFailed(f"the message is not wholly in the window ({look['width']}×{look['height']}): {box}")
        self.shoot("message", theme, width)
        for _ in range(len(self.page.state()["messages"])):
            self.page.click_element("document.querySelector('#messages .message button')")
        # The detail view of the first photo, opened with Enter on it.
        self.page.click_at(self.page.state()["cells"][0]["box"])
        self.page.press("Enter")
        self.page.wait_for("the detail view", lambda s: self.look()["detail"] and self.look()["detailLoaded"])
        self.shoot("detail", theme, width)
        self.page.press("Escape")
        self.page.wait_for("back in the gallery", lambda s: not s["galleryHidden"])
        return "; ".join(seen) + f"; {len(VIEWS)} views"

    def moves_animate(self):
        """Ctrl+ArrowRight on the first photo: the photos that change places glide there (Web
        Animations on the cells), and with prefers-reduced-motion nothing moves but the order.
        Ctrl+Z puts the order back each time."""
        counts = {}
        for reduce in (False, True):
            self.page.reduce_motion(reduce, THEMES[0])
            first = self.page.state()["cells"][0]
            self.page.click_at(first["box"])
            self.page.evaluate(PROBE_SCRIPT)
            self.page.press("ArrowRight", CTRL)
            counts[reduce] = self.page.evaluate("window.animationProbe", await_promise=True)
            self.page.wait_for("the first photo moved one place", lambda s: s["cells"][1]["id"] == first["id"])
            self.page.press("z", CTRL)
            self.page.wait_for("Ctrl+Z put it back", lambda s: s["cells"][0]["id"] == first["id"])
            self.page.wait_for("the photos at rest", lambda s: self.page.evaluate("document.getAnimations().length") == 0)
        self.page.reduce_motion(False, THEMES[0])
        if not counts[False]:
            raise CheckFailed("a move animated no photo")
        if counts[True]:
            raise CheckFailed(f"with prefers-reduced-motion, a move still animated {counts[True]} photos")
        return f"a move animated {counts[False]} photos, none with reduced motion"

    def photos_make_room(self):
        """While a drag is held, the photos of the placeholder's row stand aside from it, and stay
        so when the grid is drawn again under the held drag, as an autosave's answer draws it."""
        seen = {}

        def room_made(_state):
            seen["room"] = self.page.evaluate(ROOM_SCRIPT)
            return stands_aside(seen["room"])
        self.page.wait_for("the photos beside the drop point to stand aside", room_made)
        room = seen["room"]
        if not self.page.evaluate(REDRAW_SCRIPT):
            raise CheckFailed("the grid drawn again while a drag is held loses the drop point")
        self.page.wait_for("the photos beside the drop point to stand aside after a redraw", room_made)
        return f"{len(room['before'])} photos stand aside before the drop point and {len(room['after'])} after, and after a redraw"

    def firefox_views(self, theme):
        """Firefox ESR, headless, over WebDriver BiDi, with the theme set by its content override:
        the document browser, the gallery, a refused file's message and the detail view at both
        sizes, the theme and the justified rows checked as in Chromium, a screenshot of each
        (VIEW-THEME-WIDTH-firefox.png).
        A gallery and an editor of their own: a launch link serves one browser."""
        folder = self.scratch / f"firefox-{theme}"
        folder.mkdir()
        gallery = folder / self.gallery.name
        shutil.copyfile(self.gallery, gallery)
        editor = Editor(self.editor_binary, folder, self.scratch / f"firefox-editor-{theme}", 0.5, 2)
        firefox = None
        seen = []
        try:
            if not editor.announcement or "url" not in editor.announcement:
                raise CheckFailed(f"the editor for Firefox printed no link: {editor.log_text()}")
            from bidi import Firefox, find_firefox
            path = find_firefox()
            if path is None:
                raise CheckFailed("firefox-esr is not installed: scripts/install-deps test installs it")
            firefox = Firefox(path, self.scratch / f"firefox-profile-{theme}", self.scratch / f"firefox-{theme}.log",
                              headless=True, preferences={"layout.css.prefers-color-scheme.content-override":
                                                          0 if theme == "dark" else 1})
            page = FirefoxPage.wrapping(firefox)
            firefox.navigate(editor.announcement["url"])
            origin = "/".join(editor.announcement["url"].split("/", 3)[:3])
            key = gallery_key(gallery)
            for width, height in SIZES:
                firefox.set_viewport(width, height)
                firefox.navigate(origin + "/")
                page.wait_until("the document browser's card and its cover",
                                "document.querySelector('#gallery-list .gallery-card img') !== null"
                                " && [...document.querySelectorAll('#gallery-list img')].every((i) => i.naturalWidth > 0)")
                dark = luminance(page.evaluate(LOOK_SCRIPT)["background"]) < 0.3
                if dark != (theme == "dark"):
                    raise CheckFailed(f"Firefox's {theme} theme paints the page {page.evaluate(LOOK_SCRIPT)['background']}")
                self.firefox_shot(firefox, "browser", theme, width)
                firefox.navigate(origin + f"/#gallery={key}")
                page.wait_until("the gallery's thumbnails", "document.querySelectorAll('#image-grid .image-cell img').length >= 8"
                                " && [...document.querySelectorAll('#image-grid img')].every((i) => i.naturalWidth > 0)")
                page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
                seen.append(f"{width} px: " + check_justified(page))
                self.firefox_shot(firefox, "gallery", theme, width)
                seen.append(self.firefox_message(firefox, page, theme, width))
                first = page.evaluate("document.querySelector('#image-grid .image-cell').dataset.id")
                firefox.navigate(origin + f"/#gallery={key}&image={first}")
                page.wait_until("the detail view's image", "!document.getElementById('detail-view').hidden"
                                " && document.getElementById('detail-image').naturalWidth > 0")
                self.firefox_shot(firefox, "detail", theme, width)
        finally:
            if firefox is not None:
                firefox.close()
            editor.stop()
        return "; ".join(seen)

    def firefox_message(self, firefox, page, theme, width):
        """A TIFF chosen with "Add images…" is refused: its message shows wholly in the window."""
        firefox.set_files("#add-files", [self.tiff])
        page.wait_until("the refused file's message", "[...document.querySelectorAll('#messages .message')]"
                        ".some((m) => m.textContent.includes('scan.tiff'))")
        look = page.evaluate(LOOK_SCRIPT)
        box = look["message"]
        if not box or box["top"] < 0 or box["bottom"] > look["height"] or box["left"] < 0 or box["right"] > look["width"]:
            raise CheckFailed(f"Firefox: the message is not wholly in the window ({look['width']}×{look['height']}): {box}")
        self.firefox_shot(firefox, "message", theme, width)
        page.evaluate("(() => { for (const b of document.querySelectorAll('#messages .message button')) b.click(); return true; })()")
        return "the refused file's message in view"

    def firefox_shot(self, firefox, view, theme, width):
        path = self.artifacts / f"{view}-{theme}-{width}-firefox.png"
        firefox.screenshot(path)
        self.screenshots.append(str(path))

    def wait_images(self, selector):
        self.page.wait_for(f"the images of {selector} loaded",
                           lambda s: all(image["width"] > 0 for image in self.page.images(selector)))


def main():
    arguments, chromium = editor_arguments(__doc__.split("\n")[0], "the imagegallery binary (for create)",
                                           "the imagegallery-editor binary under test", 300)
    with tempfile.TemporaryDirectory(prefix="check-editor-looks-") as scratch:
        scratch = Path(scratch).resolve()
        folder = scratch / "galleries"
        folder.mkdir()
        try:
            gallery = create_gallery(arguments.imagegallery, folder / "Holiday.imagegallery", "Holiday",
                                     fixture_images(arguments.fixtures))
        except (RuntimeError, OSError) as error:
            could_not_check(error)
        tiff = scratch / "scan.tiff"
        tiff.write_bytes(b"II*\x00\x08\x00\x00\x00\x01\x00\x00\x01\x03\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00")
        editor = start_editor(arguments, folder, scratch / "editor", 0.5, 2)
        devtools = headless_chromium(chromium, scratch)
        scenarios = LookScenarios(devtools, editor, gallery, scratch, arguments.artifacts)
        scenarios.tiff = tiff
        scenarios.editor_binary = arguments.editor
        scenarios.key = gallery_key(gallery)
        run_and_report(scenarios, devtools, editor, arguments.timeout, chromium, arguments.editor, scratch)


if __name__ == "__main__":
    main()
