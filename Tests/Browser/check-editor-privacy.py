#!/usr/bin/python3
"""The editor shows which photos carry a location or identity fields, removes them as one
undoable edit, and shares a copy without them (issue 32), in headless Chromium and in Firefox ESR
(WebDriver BiDi), each with an editor of its own.

usage: check-editor-privacy.py --imagegallery BIN --editor BIN --fixtures DIR --artifacts DIR [--chromium PATH] [--firefox PATH]

Makes four photos with Pillow and exiftool: paris.jpg (EXIF GPS and XMP photoshop:City),
rome.png (EXIF GPS), camera.jpg (a serial number and an artist) and plain.jpg (nothing), in a
gallery made by `imagegallery create`. In each browser, through real clicks and keys:

- badges: a pin badge on exactly the two photos with a location, a person badge on exactly the
  one with identity fields, none on the plain one; each named (role img, aria-label and title
  "Carries a location: EXIF GPS, XMP photoshop:City"), visible inside its photo, its words in the
  photo's own name; the gallery's line "2 of 4 photos carry a location; 1 carries identity fields";
- the dialog by keyboard: opened, the focus in it; Tab and Shift+Tab keep it there, with a
  visible focus ring; Escape closes it and gives the focus back to the button that opened it;
- "Remove location…": the location badges go, the identity badge stays, the line and a message
  say what went, and on disk (exiftool on the images the gallery file holds, read with zipfile)
  no photo has GPS; Undo brings the badges back, and the GPS on disk;
- "Share a copy…" as a gallery file: "Trip (shared).imagegallery" beside the gallery, whose
  photos exiftool finds without GPS (the artist stays: the scope was location), a second share
  "Trip (shared 2).imagegallery" without identity either and the first left byte for byte, and
  the original still with its GPS;
- "Share a copy…" as a web gallery without location and identity: "Trip web/images/*", with
  neither, and the original still with its GPS;
- in Chromium, axe-core on the gallery with its badges and with the dialog open, light and dark,
  and no console error.

Saves privacy-badges-BROWSER.png and privacy-dialog-BROWSER.png. Prints one JSON document {ok,
failures, steps, screenshots} and exits 0 when every check passed, 1 when one failed, 2 when it
could not check.
"""

import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from editor_more_page import MorePage, axe_script  # noqa: E402
from editor_privacy_page import ChromiumDriver, FirefoxDriver  # noqa: E402
from harness import CheckFailed, DISK_TIMEOUT, Steps, gallery_key, poll  # noqa: E402
from two_browsers import in_firefox, run_in_both  # noqa: E402

# Each photo: its colour, and the tags exiftool writes into it.
PHOTOS = {
    "paris.jpg": ((200, 80, 40), ["-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
                                  "-XMP-photoshop:City=Paris"]),
    "rome.png": ((40, 80, 200), ["-GPSLatitude=41.9", "-GPSLatitudeRef=N", "-GPSLongitude=12.5", "-GPSLongitudeRef=E"]),
    "camera.jpg": ((200, 180, 40), ["-SerialNumber=X1234", "-Artist=Jane Doe"]),
    "plain.jpg": ((40, 160, 60), []),
}
BADGES = {"paris.jpg": ["location"], "rome.png": ["location"], "camera.jpg": ["identity"], "plain.jpg": []}
STRIPPED = {"paris.jpg": [], "rome.png": [], "camera.jpg": ["identity"], "plain.jpg": []}
SUMMARY = "2 of 4 photos carry a location; 1 carries identity fields"
STRIPPED_SUMMARY = "0 of 4 photos carry a location; 1 carries identity fields"


def make_photos(folder):
    """The four photos, in gallery order; RuntimeError when exiftool is missing or fails."""
    from PIL import Image
    paths = []
    for index, (name, (colour, tags)) in enumerate(PHOTOS.items()):
        path = folder / name
        image = Image.new("RGB", (640, 480) if index % 2 == 0 else (480, 640), colour)
        image.save(path, **({"quality": 90} if name.endswith(".jpg") else {}))
        if tags:
            done = subprocess.run(["exiftool", "-q", "-overwrite_original", *tags, str(path)], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"exiftool could not write {name}: {done.stderr.strip()}")
        paths.append(path)
    return paths


# MARK: What exiftool finds on disk


def exif_of(files):
    """exiftool's GPS, artist and serial-number tags of each file, by file name."""
    done = subprocess.run(["exiftool", "-j", "-gps:all", "-Artist", "-SerialNumber", "-BodySerialNumber", *map(str, files)],
                          capture_output=True, text=True)
    try:
        found = json.loads(done.stdout or "[]")
    except ValueError:
        raise CheckFailed(f"exiftool printed no JSON ({done.returncode}): {done.stderr.strip()}")
    return {Path(entry.pop("SourceFile")).name: entry for entry in found}


def carried(tags):
    """What a photo's tags say: "location" for any GPS tag, "identity" for an artist or a serial number."""
    kinds = []
    if any(tag.startswith("GPS") for tag in tags):
        kinds.append("location")
    if any(tag in ("Artist", "SerialNumber", "BodySerialNumber") for tag in tags):
        kinds.append("identity")
    return kinds


def gallery_on_disk(path, scratch):
    """What each photo of the gallery file at `path` carries, by its file name: its bytes taken out
    with Python's zipfile, read by exiftool."""
    folder = Path(tempfile.mkdtemp(dir=scratch, prefix="extracted-"))
    files = {}
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        for image in manifest["images"]:
            target = folder / Path(image["path"]).name
            target.write_bytes(archive.read(image["path"]))
            files[image["filename"]] = target
    found = exif_of(files.values())
    return {name: carried(found.get(file.name, {})) for name, file in files.items()}


def web_gallery_on_disk(folder):
    """What each photo of a web gallery carries, by its name there (001.jpg…, in gallery order)."""
    files = sorted((Path(folder) / "images").iterdir())
    if len(files) != len(PHOTOS):
        raise CheckFailed(f"{folder}/images holds {[file.name for file in files]}, not {len(PHOTOS)} photos")
    found = exif_of(files)
    return {file.name: carried(found.get(file.name, {})) for file in files}


def wait_on_disk(description, read, expected):
    """Polls `read()` until it gives `expected` (autosave writes a moment after the edit)."""
    seen = {}

    def probe():
        seen["last"] = read()
        return True if seen["last"] == expected else None
    poll(description, probe, DISK_TIMEOUT, 0.3,
         failure=lambda problem: f"{description}: on disk {seen.get('last')}, expected {expected}" + (f" ({problem})" if problem else ""))
    return seen["last"]


# MARK: The scenarios, the same in both browsers


class PrivacyScenarios:
    """One browser's run over its own gallery: `driver` acts on the page, `gallery` is the file."""

    def __init__(self, driver, origin, gallery, scratch, artifacts, screenshots):
        self.driver, self.origin, self.gallery = driver, origin, Path(gallery)
        self.scratch, self.artifacts, self.screenshots = scratch, Path(artifacts), screenshots
        self.browser = driver.name.lower()

    def open(self):
        self.driver.navigate(f"{self.origin}/#gallery={gallery_key(self.gallery)}")
        self.driver.wait("the gallery", lambda s: s["ready"] and len(s["cells"]) == len(PHOTOS))

    def shown(self, state):
        """Each photo's badges, by its name as the grid shows it."""
        return {cell["name"]: [badge["kind"] for badge in cell["badges"]] for cell in state["cells"]}

    def screenshot(self, name):
        path = self.artifacts / f"{name}-{self.browser}.png"
        self.driver.screenshot(path)
        self.screenshots.append(str(path))

    def badges(self):
        state = self.driver.wait("the badges and the gallery's line",
                                 lambda s: self.shown(s) == BADGES and s["summary"] == SUMMARY and s["lineShown"])
        for cell in state["cells"]:
            for badge in cell["badges"]:
                words = "Carries a location: EXIF GPS" if badge["kind"] == "location" else "Carries identity fields: EXIF"
                if badge["role"] != "img" or not (badge["label"] or "").startswith(words) or badge["title"] != badge["label"]:
                    raise CheckFailed(f"{cell['name']}: the {badge['kind']} badge is named {badge['label']!r} "
                                      f"(role {badge['role']}, title {badge['title']!r}), not {words}…")
                if not badge["visible"]:
                    raise CheckFailed(f"{cell['name']}: the {badge['kind']} badge is not visible inside the photo")
                if badge["label"] not in (cell["label"] or ""):
                    raise CheckFailed(f"{cell['name']}: the photo's name {cell['label']!r} does not say {badge['label']!r}")
        paris = next(cell for cell in state["cells"] if cell["name"] == "paris.jpg")
        if "XMP photoshop:City" not in paris["badges"][0]["label"]:
            raise CheckFailed(f"paris.jpg's badge does not name XMP photoshop:City: {paris['badges'][0]['label']!r}")
        self.driver.wait("the thumbnails", lambda s: s["thumbnails"])
        self.screenshot("privacy-badges")
        return f"{self.shown(state)}; {state['summary']!r}; paris.jpg: {paris['badges'][0]['label']!r}"

    def dialog_by_keyboard(self):
        self.driver.click("#strip-button")
        self.driver.wait("the dialog open, the focus in it",
                         lambda s: s["dialogOpen"] and s["focusInDialog"] and s["focused"] == "scope=location")
        self.screenshot("privacy-dialog")
        visited, rings = [], 0
        for shift in [False] * 6 + [True] * 3:
            self.driver.press("Tab", shift=shift)
            state = self.driver.state()
            if not state["dialogOpen"] or not state["focusInDialog"]:
                raise CheckFailed(f"{'Shift+' if shift else ''}Tab took the focus out of the dialog, to {state['focused']}")
            # Headless Firefox never gives its document the focus (document.hasFocus() is false, with
            # or without focusmanager.testmode), so :focus-visible cannot match there: the ring is
            # checked wherever the document has the focus, and always in Chromium.
            if state["documentFocused"] or self.driver.name == "Chromium":
                if state["focusOutline"] in (None, "none"):
                    raise CheckFailed(f"{state['focused']} has the focus and no visible ring")
                rings += 1
            visited.append(state["focused"])
        if "privacy-cancel" not in visited or "privacy-submit" not in visited:
            raise CheckFailed(f"Tab went through {visited}, not through the dialog's buttons")
        self.driver.press("Escape")
        self.driver.wait("Escape closing the dialog, the focus back on its button",
                         lambda s: not s["dialogOpen"] and s["focused"] == "strip-button")
        return (f"Tab and Shift+Tab went {visited} and stayed in the dialog, "
                + ("a focus ring on each" if rings else "the document without the focus (headless), no ring to see")
                + "; Escape closed it and gave the focus back")

    def remove_and_undo(self):
        before = len(self.driver.state()["messages"])
        self.driver.click("#strip-button")
        self.driver.wait("the dialog open", lambda s: s["dialogOpen"] and s["heading"] == "Remove metadata")
        self.driver.click('#privacy-form input[name="scope"][value="location"]')
        self.driver.click("#privacy-submit")
        state = self.driver.wait("the location badges gone, and a message",
                                 lambda s: self.shown(s) == STRIPPED and s["summary"] == STRIPPED_SUMMARY
                                 and len(s["messages"]) > before and not s["dialogOpen"])
        said = state["messages"][-1]
        for words in ("Removed location from 2 of 4 photos", "EXIF GPS", "XMP photoshop:City"):
            if words not in said:
                raise CheckFailed(f"the message {said!r} does not say {words!r}")
        wait_on_disk("the gallery after the strip", lambda: gallery_on_disk(self.gallery, self.scratch), STRIPPED)
        self.driver.click("#undo-button")
        self.driver.wait("Undo bringing the badges back", lambda s: self.shown(s) == BADGES and s["summary"] == SUMMARY)
        wait_on_disk("the gallery after the undo", lambda: gallery_on_disk(self.gallery, self.scratch), BADGES)
        return f"{said!r}; on disk without GPS, then with it again after Undo"

    def share(self, form, scope, expect):
        """Shares a copy by the dialog; returns the message once it says `expect`."""
        before = len(self.driver.state()["messages"])
        self.driver.click("#share-button")
        self.driver.wait("the share dialog open", lambda s: s["dialogOpen"] and s["heading"] == "Share a copy")
        self.driver.click(f'#privacy-form input[name="form"][value="{form}"]')
        self.driver.click(f'#privacy-form input[name="scope"][value="{scope}"]')
        self.driver.click("#privacy-submit")
        state = self.driver.wait(f"the message of the share ({form}, {scope})",
                                 lambda s: len(s["messages"]) > before or s["dialogStatus"].startswith("Not shared"))
        said = state["messages"][-1] if len(state["messages"]) > before else state["dialogStatus"]
        if expect not in said or state["dialogOpen"] or state["focused"] != "share-button":
            raise CheckFailed(f"after the share: {said!r} (expected {expect!r}), dialog open {state['dialogOpen']}, "
                              f"focus on {state['focused']}")
        return said

    def share_gallery(self):
        said = self.share("gallery", "location", "“Trip (shared).imagegallery”")
        if "Removed location from 2 of 4 photos" not in said or str(self.gallery.parent) not in said:
            raise CheckFailed(f"the message {said!r} does not say what went and where")
        copy = self.gallery.parent / "Trip (shared).imagegallery"
        expect = {"paris.jpg": [], "rome.png": [], "camera.jpg": ["identity"], "plain.jpg": []}
        found = gallery_on_disk(copy, self.scratch)
        if found != expect:
            raise CheckFailed(f"{copy.name}: exiftool finds {found}, expected {expect}")
        first = hashlib.sha256(copy.read_bytes()).hexdigest()
        self.share("gallery", "identity", "“Trip (shared 2).imagegallery”")
        second = gallery_on_disk(self.gallery.parent / "Trip (shared 2).imagegallery", self.scratch)
        if any(second.values()):
            raise CheckFailed(f"Trip (shared 2).imagegallery: exiftool finds {second}")
        if hashlib.sha256(copy.read_bytes()).hexdigest() != first:
            raise CheckFailed(f"the second share changed {copy.name}")
        original = gallery_on_disk(self.gallery, self.scratch)
        if original != BADGES:
            raise CheckFailed(f"the original gallery: exiftool finds {original}, expected {BADGES}")
        return f"{said!r}; exiftool: the copy {found}, the second copy {second}, the original {original}"

    def share_web(self):
        said = self.share("web", "identity", "the web gallery “Trip web”")
        found = web_gallery_on_disk(self.gallery.parent / "Trip web")
        if any(found.values()):
            raise CheckFailed(f"Trip web/images: exiftool finds {found}")
        original = gallery_on_disk(self.gallery, self.scratch)
        if original != BADGES:
            raise CheckFailed(f"the original gallery: exiftool finds {original}, expected {BADGES}")
        return f"{said!r}; exiftool: Trip web/images {found}, the original {original}"

    def run(self, steps):
        """Every scenario as a step of `steps`, named after the browser."""
        with steps.step(f"{self.driver.name}: badges") as record:
            self.open()
            record["detail"] = self.badges()
        for name, scenario in (("dialog by keyboard", self.dialog_by_keyboard), ("remove location and undo", self.remove_and_undo),
                               ("share a gallery file", self.share_gallery), ("share a web gallery", self.share_web)):
            with steps.step(f"{self.driver.name}: {name}") as record:
                record["detail"] = scenario()


# MARK: The browsers


class PrivacyCheck(Steps):
    def __init__(self, devtools, editor, arguments, folders, scratch):
        Steps.__init__(self)
        self.devtools, self.editor, self.arguments, self.folders, self.scratch = devtools, editor, arguments, folders, scratch
        self.page = None

    def run(self):
        self.page = MorePage(self.devtools)
        url = self.editor.announcement["url"]
        self.page.navigate(url)
        self.page.wait_for("the editor's page", lambda s: s["readyState"] == "complete")
        origin = "/".join(url.split("/", 3)[:3])
        gallery = self.folders["chromium"] / "Trip.imagegallery"
        PrivacyScenarios(ChromiumDriver(self.page), origin, gallery, self.scratch, self.arguments.artifacts,
                         self.screenshots).run(self)
        with self.step("Chromium: axe-core") as record:
            record["detail"] = self.accessibility(ChromiumDriver(self.page))
        with self.step("Chromium: no console error") as record:
            if self.page.console:
                raise CheckFailed(f"the page's console: {self.page.console}")
            record["detail"] = "none"
        self.firefox()

    def accessibility(self, driver):
        """axe-core on the gallery with its badges, and with the share dialog open, light and dark."""
        script, origin = axe_script(self.scratch)
        report = []
        for theme in ("light", "dark"):
            self.page.reduce_motion(True, theme)
            driver.wait("the badges", lambda s: any(cell["badges"] for cell in s["cells"]))
            report += [f"gallery ({theme}): {v['id']} ({v['impact']}) at {v['targets']}" for v in self.page.run_axe(script)]
            driver.click("#share-button")
            driver.wait("the share dialog", lambda s: s["dialogOpen"])
            report += [f"dialog ({theme}): {v['id']} ({v['impact']}) at {v['targets']}" for v in self.page.run_axe(script)]
            driver.press("Escape")
            driver.wait("the dialog closed", lambda s: not s["dialogOpen"])
        self.page.reduce_motion(True, "light")
        if report:
            raise CheckFailed(f"axe-core: {len(report)} violation(s): {report}")
        return f"axe-core {self.page.evaluate('axe.version')} ({origin}): no violation, badges and dialog, light and dark"

    def firefox(self):
        """Firefox ESR, headless, over BiDi, with an editor of its own (two_browsers.in_firefox)."""
        in_firefox(self, self.arguments, self.folders["firefox"], self.scratch, lambda firefox, origin: PrivacyScenarios(
            FirefoxDriver(firefox), origin, self.folders["firefox"] / "Trip.imagegallery", self.scratch,
            self.arguments.artifacts, self.screenshots).run(self))


def main():
    run_in_both(__doc__, 420, make_photos, "Trip.imagegallery", "Trip", PrivacyCheck)


if __name__ == "__main__":
    main()
