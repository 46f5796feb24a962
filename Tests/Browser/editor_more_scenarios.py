"""More of the editor, as a person uses it (check-editor-more.py): drops from outside the page,
two galleries side by side, the detail view and a download here; the document browser, changes
made elsewhere and axe-core in editor_more_library.py; keys and a failed save in
editor_more_keys.py; conflicts settled (keep mine, keep current, merge) and an image dragged out
of the page in editor_more_versions.py. Each scenario works on a gallery of its own and is
checked on disk with `imagegallery list --json` and `info --json`.

A scenario whose check fails is recorded and the next one still runs.
"""

import hashlib
import json
import os
import struct
import zlib
from pathlib import Path

from devtools import CTRL
from editor_more_keys import KeyboardScenarios
from editor_more_library import LibraryScenarios
from editor_more_page import MorePage
from editor_more_versions import VersionScenarios
from editor_scenarios import Scenarios
from harness import CheckFailed, gallery_key, sha256, until, wait_disk

# Failed requests the scenarios cause on purpose: Chromium logs each as a network error.
EXPECTED_REFUSALS = ("/fetch?", "/images?")


def noise_png(path, width, height):
    """A PNG of random pixels (it does not compress): a large image, slow to upload and to check."""
    rows = b"".join(b"\0" + os.urandom(width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def corner(box, fraction=0.2):
    """A point in the top-left quarter of `box`: the page puts a drop there before that cell."""
    return box["left"] + box["width"] * fraction, box["top"] + box["height"] * fraction


class MoreScenarios(KeyboardScenarios, LibraryScenarios, VersionScenarios, Scenarios):
    def __init__(self, devtools, editor, imagegallery, fixtures, scratch, galleries, conflicts, start_conflict_editor,
                 links, artifacts):
        # Scenarios' recording (step, result, screenshot) and disk (run_json, disk) are reused; its galleries are not.
        self.devtools, self.editor, self.imagegallery, self.artifacts = devtools, editor, imagegallery, artifacts
        self.fixtures, self.scratch, self.galleries, self.links = Path(fixtures).resolve(), scratch, galleries, links
        self.folder = galleries["Drops"].parent
        self.conflicts, self.start_conflict_editor, self.conflict_editor = conflicts, start_conflict_editor, None
        self.steps, self.screenshots, self.page, self.other_page, self.origin = [], [], None, None, None
        self.axe = None

    def result(self):
        result = super().result()
        if self.other_page:
            result["console"] = result["console"] + self.other_page.console
        return result

    def stop_conflict_editor(self):
        return self.conflict_editor.stop() if self.conflict_editor else None

    # MARK: The disk

    def images(self, path):
        return self.run_json("list", str(path))

    def wait_disk(self, description, path, check):
        """Polls `path` until `check(images, info)` returns no problem (None); autosave writes some time after the edit."""
        found = {}

        def problem():
            found["images"], info = self.disk(path)
            return check(found["images"], info)
        wait_disk(description, problem, shows=self.page_shows)
        return found["images"]

    def page_shows(self):
        """What the page says while a wait fails (placeholders, messages, status): a failure
        on a busy machine then tells an edit never sent from one the editor refused or never saved."""
        try:
            extra = self.page.extra()
            status = self.page.evaluate("document.querySelector('#status')?.textContent ?? null")
            return f"the page shows {json.dumps({'pending': extra.get('pending'), 'messages': extra.get('messages'), 'status': status}, ensure_ascii=False)[:1000]}"
        except (CheckFailed, RuntimeError, TimeoutError) as error:
            return f"the page did not answer: {error}"

    def expect_names(self, description, path, names):
        def check(images, info):
            found = [image.get("filename") for image in images]
            return None if found == names else f"{found}, expected {names}"
        return self.wait_disk(description, path, check)

    # MARK: The page

    def open_gallery(self, path, beside=None):
        page = self.page
        order = [image["id"] for image in self.images(path)]
        fragment = f"#gallery={gallery_key(path)}" + (f"&beside={gallery_key(beside)}" if beside else "")
        page.navigate(self.origin + "/" + fragment)
        return page.wait_for(f"{path.name} open, its grid in the file's order, Saved",
                             lambda s: not s["galleryHidden"] and [c["id"] for c in s["cells"]] == order
                             and s["status"] == "Saved")

    def open_browser(self):
        self.page.navigate(self.origin + "/")
        return self.page.wait_for("the document browser", lambda s: not s["browserHidden"] and s["cards"])

    def message_count(self):
        return len(self.page.extra()["messages"])

    # MARK: Scenarios

    def run(self):
        self.page = MorePage(self.devtools)
        self.page.navigate(self.editor.announcement["url"])
        for scenario in (self.browser_opens, self.drop_files, self.drop_files_in_order, self.drop_links,
                         self.drop_failing_link, self.drop_tiff, self.drop_every_type, self.move_and_copy_beside, self.detail_paging,
                         self.download, self.drag_out_to_download, self.keys_move_and_copy_beside, self.add_by_file_chooser, self.detail_keys_pan,
                         self.save_fails_then_succeeds, self.large_gallery_scrolls_to_its_end, self.large_gallery_virtualised,
                         self.large_gallery_reuses_cells, self.large_gallery_opens_from_its_kept_look, self.hostile_file_names,
                         self.duplicate_and_sort, self.external_add,
                         self.rename, self.trash_and_restore,
                         self.import_cbz, self.accessibility, self.keep_mine_and_keep_theirs, self.conflict_merge,
                         self.screenshots_saved, self.no_console_errors):
            with self.step(scenario.__name__.replace("_", " ")) as record:
                record["detail"] = scenario() or ""

    def browser_opens(self):
        state = self.page.wait_for("the document browser with every gallery",
                                   lambda s: not s["browserHidden"] and len(s["cards"]) == len(self.galleries))
        self.origin = self.page.evaluate("location.origin")
        keys = {card["key"] for card in state["cards"]}
        expected = {gallery_key(path) for path in self.galleries.values()}
        if keys != expected:
            raise CheckFailed(f"the cards' keys {sorted(keys)} are not the SHA-256 of the galleries' paths {sorted(expected)}")
        return f"{len(keys)} galleries at {self.origin}"

    def drop_files(self):
        path = self.galleries["Drops"]
        state = self.open_gallery(path)
        target = corner(state["cells"][1]["box"])
        dropped = [self.fixtures / "4-dunes.jpg", self.fixtures / "6-bubbles.png"]
        pending = self.page.drop_from_outside(*target, files=dropped)
        names = ["1-sunset.jpg", "4-dunes.jpg", "6-bubbles.png", "2-tiles.png", "3-lighthouse.jpg"]
        self.page.wait_extra("both dropped files in the grid, no placeholder left",
                             lambda s, e: len(s["cells"]) == 5 and e["pending"] == 0)
        images = self.expect_names("two files dropped before the second image", path, names)
        self.page.wait_for("the grid as on disk", lambda s: [c["id"] for c in s["cells"]] == [i["id"] for i in images])
        return (f"placeholders right after the drop: {pending}" + ("" if pending else " (the uploads were quicker)")
                + f"; on disk: {names}")

    def drop_files_in_order(self):
        """Two files dropped together land in the order dropped, however long each takes: the first
        here is a 6.7 MB PNG of noise, the second a small one, so the second is ready first."""
        path = self.galleries["Order"]
        big = self.scratch / "big-noise.png"
        noise_png(big, 1500, 1500)
        state = self.open_gallery(path)
        pending = self.page.drop_from_outside(*corner(state["cells"][1]["box"]), files=[big, self.fixtures / "6-bubbles.png"])
        names = ["1-sunset.jpg", big.name, "6-bubbles.png", "2-tiles.png", "3-lighthouse.jpg"]

        def both(images, info):
            found = [image.get("filename") for image in images]
            return None if len(found) == len(names) else f"{found}"
        images = self.wait_disk("both files added", path, both)
        self.page.wait_extra("no placeholder left", lambda s, e: e["pending"] == 0 and len(s["cells"]) == len(names))
        found = [image.get("filename") for image in images]
        if found != names:
            raise CheckFailed(f"dropped together before the second image, they landed as {found}, not {names}")
        return f"placeholders right after the drop: {pending}; on disk: {found}"

    def drop_links(self):
        path = self.galleries["Drops"]
        before = self.images(path)
        self.open_gallery(path)
        details = []
        for kind, name in (("text/uri-list", "7-quilt-palette.png"), ("text/html", "8-deep-gradient.png")):
            url = f"{self.links}/{name}"
            data = url + "\r\n" if kind == "text/uri-list" else f'<meta charset="utf-8"><img src="{url}" alt="">'
            state = self.page.wait_for("the grid", lambda s: s["cells"] and s["status"] == "Saved")
            pending = self.page.drop_from_outside(*corner(state["cells"][0]["box"]), items=[{"mimeType": kind, "data": data}])
            count = len(before) + 1

            def landed(images, info, url=url, count=count):
                if len(images) != count or images[0].get("source") != url:
                    return f"{[(i.get('filename'), i.get('source')) for i in images]}: not {url} first of {count}"
                return None
            self.wait_disk(f"the link dropped as {kind} first", path, landed)
            self.page.wait_extra(f"the image of the {kind} drop in the grid, no placeholder",
                                 lambda s, e, count=count: len(s["cells"]) == count and e["pending"] == 0)
            before = self.images(path)
            details.append(f"{kind}: {name} first (placeholders just after the drop: {pending})")
        return "; ".join(details)

    def refused_drop(self, description, expected, **drop):
        """A drop that must be refused: a message containing every text of `expected`, its placeholder
        gone, and the file on disk as it was (same images, same revision)."""
        path = self.galleries["Drops"]
        state = self.open_gallery(path)
        images, info = self.disk(path)
        messages = self.message_count()
        pending = self.page.drop_from_outside(*corner(state["cells"][0]["box"]), **drop)
        _, extra = self.page.wait_extra(f"a message about {description}, its placeholder gone",
                                        lambda s, e: len(e["messages"]) > messages and e["pending"] == 0)
        message = extra["messages"][-1]
        missing = [text for text in expected if text not in message]
        if missing:
            raise CheckFailed(f"the message {message!r} does not say {missing}")
        if message.count(expected[0]) != 1:
            raise CheckFailed(f"the message {message!r} names {expected[0]!r} {message.count(expected[0])} times, not once")
        self.page.wait_for("the grid unchanged and Saved", lambda s: len(s["cells"]) == len(images) and s["status"] == "Saved")
        after, after_info = self.disk(path)
        if after != images or after_info.get("revision") != info.get("revision"):
            raise CheckFailed(f"the file changed: {len(images)} images, revision {info.get('revision')} before; "
                              f"{len(after)}, revision {after_info.get('revision')} after")
        self.dismiss_messages()
        return f"message: {message!r}; placeholders just after the drop: {pending}; the file unchanged"

    def dismiss_messages(self):
        """Clicks each message's Dismiss, as a person does once they have read it."""
        for _ in range(self.message_count()):
            self.page.click_element("document.querySelector('#messages .message button')")
        self.page.wait_extra("the messages dismissed", lambda s, e: not e["messages"])

    def drop_failing_link(self):
        url = f"{self.links}/no-such-image.png"
        return self.refused_drop(f"the link {url} that answers 404", [url, "404"],
                                 items=[{"mimeType": "text/uri-list", "data": url + "\r\n"}])

    def drop_tiff(self):
        """A TIFF, a type no version of the format takes: refused by name."""
        tiff = self.scratch / "scan.tiff"
        tiff.write_bytes(b"II*\x00" + struct.pack("<IH", 8, 1) + struct.pack("<HHII", 0x0100, 3, 1, 1) + struct.pack("<I", 0))
        return self.refused_drop("a TIFF file", ["scan.tiff", "TIFF"], files=[tiff])

    def drop_every_type(self):
        """A WebP, an animated GIF, an AVIF and a HEIC dropped from the file manager: each lands as
        what it is (list --json), the file becomes format 2.0 (info --json), the HEIC is shown
        through a JPEG rendition and downloads as the original bytes."""
        path = self.galleries["Types"]
        state = self.open_gallery(path)
        samples = self.fixtures.parent / "format-2.0"
        expected = {"lossy.webp": "image/webp", "anim.gif": "image/gif", "sunset.avif": "image/avif",
                    "sunset.heic": "image/heic"}
        pending = self.page.drop_from_outside(*corner(state["cells"][0]["box"]), files=[samples / n for n in expected])

        def landed(images, info):
            found = {image.get("filename"): image.get("mediaType") for image in images}
            if any(found.get(name) != kind for name, kind in expected.items()):
                return f"{found}"
            return None if info.get("formatVersion") == "2.0" else f"formatVersion {info.get('formatVersion')!r}"
        images = self.wait_disk(f"the four images, each of its own type, in a format 2.0 file "
                                f"({pending} placeholders right after the drop)", path, landed)
        self.page.wait_extra("no placeholder left", lambda s, e: e["pending"] == 0 and len(s["cells"]) == len(images))
        heic = next(image for image in images if image.get("filename") == "sunset.heic")
        base = f"/api/documents/{gallery_key(path)}/images/{heic['id']}"
        # The rendition is named for what it is: the name a browser gives the picture dragged out of the detail view.
        shown, named = self.page.evaluate(f"fetch('{base}/display').then(r => [r.headers.get('content-type'), "
                                          "r.headers.get('content-disposition')])", True)
        original = self.page.evaluate(f"fetch('{base}?download').then(async r => [r.headers.get('content-type'), "
                                      "(await r.arrayBuffer()).byteLength])", True)
        size = (samples / "sunset.heic").stat().st_size
        if shown != "image/jpeg" or original != ["image/heic", size]:
            raise CheckFailed(f"the HEIC is shown as {shown!r} (expected image/jpeg) and downloads as {original!r} "
                              f"(expected ['image/heic', {size}])")
        if named != "inline; filename=\"sunset.jpg\"; filename*=UTF-8''sunset.jpg":
            raise CheckFailed(f"the HEIC's JPEG rendition is named {named!r}, not inline sunset.jpg")
        return f"placeholders right after the drop: {pending}; on disk: {sorted(expected.values())}, format 2.0; HEIC shown as JPEG"

    def move_and_copy_beside(self):
        left, right = self.galleries["Left"], self.galleries["Right"]
        left_images, right_images = self.images(left), self.images(right)
        try:
            self.open_gallery(left, beside=right)
            self.page.wait_extra("the other gallery beside, its images shown",
                                 lambda s, e: not e["besideHidden"]
                                 and [c["id"] for c in e["beside"]] == [i["id"] for i in right_images])
            details = []
            for what, modifiers, index in (("move", 0, 0), ("copy", CTRL, 0)):
                state, extra = self.page.wait_extra("both grids", lambda s, e: s["cells"] and e["beside"])
                moving = state["cells"][index]
                source = (moving["box"]["x"], moving["box"]["y"])
                self.page.drag(source, corner(extra["beside"][0]["box"]), modifiers)
                sha = next(i["sha256"] for i in left_images if i["id"] == moving["id"])
                kept = [i["id"] for i in left_images if what == "copy" or i["id"] != moving["id"]]
                self.wait_disk(f"the {what}d image {'still' if what == 'copy' else 'gone'} in {left.name}", left,
                               lambda images, info, kept=kept: None if [i["id"] for i in images] == kept
                               else f"{[i['filename'] for i in images]}")
                expected = [sha] + [i["sha256"] for i in right_images]
                right_now = self.wait_disk(f"the {what}d image first in {right.name}", right,
                                           lambda images, info, expected=expected: None if [i["sha256"] for i in images] == expected
                                           else f"{[i['filename'] for i in images]}")
                left_images, right_images = self.images(left), right_now
                self.page.wait_extra(f"both grids as on disk after the {what}",
                                     lambda s, e: [c["id"] for c in s["cells"]] == [i["id"] for i in left_images]
                                     and [c["id"] for c in e["beside"]] == [i["id"] for i in right_images])
                details.append(f"{what}: {moving['name']} → {right.name} ({len(left_images)} left, {len(right_images)} beside)")
            return "; ".join(details)
        finally:
            self.screenshot_quietly("editor-beside.png", "#image-grid img, #beside-grid img")

    def screenshot_quietly(self, name, images):
        """Taken whatever the checks found, once `images` have loaded (unless it was saved already)."""
        if str(self.artifacts / name) not in self.screenshots:
            try:
                self.page.images(images)
                self.screenshot(name)
            except (RuntimeError, TimeoutError):
                pass  # a missing screenshot is reported by screenshots saved, not here over the real failure

    def detail_paging(self):
        path = self.galleries["Pages"]
        images = self.images(path)
        try:
            state = self.open_gallery(path)
            self.page.click_cell(images[0]["id"])
            self.page.wait_for("the first cell focused", lambda s: s["focusedCell"] == images[0]["id"])
            self.press("Enter")
            for index in (0, 1, 2):
                _, extra = self.page.wait_extra(f"the detail view of image {index + 1}",
                                                lambda s, e, index=index: not e["detailHidden"]
                                                and (e["currentHref"] or "").endswith(f"&image={images[index]['id']}"))
                if index < 2:
                    self.press("ArrowRight")
            _, extra = self.page.wait_extra("the third image loaded",
                                            lambda s, e: e["picture"]["complete"] and e["picture"]["width"] > 0)
            self.screenshot_quietly("editor-detail.png", "#strip img, #detail-image")
            problems = []
            strip, current = extra["stripBox"], extra["currentBox"]
            off = abs(current["x"] - strip["x"])
            if off > current["width"] + 6:
                problems.append(f"the current item's centre is {off:.0f} px from the strip's centre "
                                f"(one cell is {current['width']:.0f} px; strip {strip['left']:.0f}–{strip['left'] + strip['width']:.0f}, "
                                f"{len(extra['stripItems'])} items)")
            if extra["picture"]["width"] != images[2]["width"]:
                problems.append(f"the big image is {extra['picture']['width']} px wide, not {images[2]['width']} as on disk")
            self.press("Escape")
            state = self.page.wait_for("Escape back to the grid", lambda s: not s["galleryHidden"] and s["cells"])
            if state["hash"] != f"#gallery={gallery_key(path)}":
                problems.append(f"Escape went to {state['hash']}")
            if problems:
                raise CheckFailed("; ".join(problems))
            return (f"third image current, {off:.0f} px from the strip's centre; naturalWidth {extra['picture']['width']}; "
                    f"Escape back to the grid")
        finally:
            self.screenshot_quietly("editor-detail.png", "#strip img, #detail-image")

    def download(self):
        path = self.galleries["Pages"]
        images = self.images(path)
        image = images[1]
        folder = self.scratch / "downloads"
        folder.mkdir(exist_ok=True)
        self.devtools.call("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder), "eventsEnabled": True})
        self.page.navigate(f"{self.origin}/#gallery={gallery_key(path)}&image={image['id']}")
        self.page.wait_extra("the detail view of the second image",
                             lambda s, e: not e["detailHidden"] and (e["currentHref"] or "").endswith(image["id"]))
        self.page.click_element("document.getElementById('download-link')")
        target = folder / image["filename"]
        if until(lambda: target.is_file() and sha256(target) == image["sha256"]):
            return f"{target.name}: {target.stat().st_size} bytes, the original's SHA-256"
        found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:12] for p in folder.iterdir()}
        raise CheckFailed(f"no {image['filename']} with SHA-256 {image['sha256'][:12]}… in the download folder: {found}")

    def screenshots_saved(self):
        missing = [name for name in ("editor-detail.png", "editor-beside.png")
                   if str(self.artifacts / name) not in self.screenshots or not (self.artifacts / name).is_file()]
        if missing:
            raise CheckFailed(f"not saved: {missing}")
        return ", ".join(self.screenshots)

    def no_console_errors(self):
        pages = [self.page] + ([self.other_page] if self.other_page else [])
        entries = [entry for page in pages for entry in page.console]
        unexpected = [entry for entry in entries
                      if not (entry.startswith("log.network") and any(part in entry for part in EXPECTED_REFUSALS))]
        # The failed save's Ctrl+S (save_fails_then_succeeds): as many as it expected, no more.
        save_failures = [entry for entry in unexpected
                         if entry.startswith("log.network") and "status of 422" in entry and "/edits?" in entry]
        for entry in save_failures[:getattr(self, "expected_save_failures", 0)]:
            unexpected.remove(entry)
        if unexpected:
            raise CheckFailed(f"{len(unexpected)} console error(s), exception(s) or dialog(s): {unexpected}")
        return f"{len(entries) - len(unexpected)} refused request(s) logged, as the failing drops expect"

