"""The scenarios of check-editor-more.py about versions of a gallery and an image's way out of the
page: conflicts (unsaved edits in the page while another program changes the file) settled by
keeping the page's version, by keeping the file as it is, and by a merge, in a second editor with
a 30 s autosave; and the detail view's picture and Download link dragged out of the page as a
file (Chromium's DownloadURL), its bytes fetched as a file manager would and compared with the
original's. A mixin of editor_more_scenarios.MoreScenarios, which gives it the page, the disk and
the recording; every outcome is checked on disk with `imagegallery list --json` and `info --json`.
"""

import contextlib
import hashlib
import urllib.error
import urllib.parse
import urllib.request

from devtools import ALT, CTRL
from editor_more_page import MorePage
from harness import CheckFailed, gallery_key

IDLE_MARGIN = 25  # seconds an editor may take to stop once its last page has closed (its idle delay is 2 s)
ORIGINS = ("ours", "theirs", "sync-copy", "replaced")  # DocumentVersion.Origin, as the page's data-origin


def captions_of(images):
    return {image["id"]: image.get("caption") for image in images}


class VersionScenarios:
    # MARK: Conflicts, in a second editor whose autosave waits 30 s

    @contextlib.contextmanager
    def conflict_page(self):
        """The second editor's page as `self.page` (its origin as `self.origin`) for the body of the
        `with`; the editor is started, and its page opened, the first time."""
        if self.conflict_editor is None:
            self.conflict_editor = self.start_conflict_editor()
        if not self.conflict_editor.announcement:
            raise CheckFailed(f"the second editor printed no link: {self.conflict_editor.log_text()}")
        main_page, main_origin = self.page, self.origin
        try:
            if self.other_page is None:
                self.other_page = MorePage(self.devtools)
                self.other_page.navigate(self.conflict_editor.announcement["url"])
                self.other_page.wait_for("the second editor's browser", lambda s: not s["browserHidden"] and s["cards"])
            self.page = self.other_page
            self.origin = self.page.evaluate("location.origin")
            yield self.page
        finally:
            self.page, self.origin = main_page, main_origin

    def make_conflict(self, path, ours, theirs):
        """In the second editor's page: `path` opened, the caption `ours` typed on its first image
        (unsaved: autosave waits 30 s), then `theirs` captioned on its second image by the command
        line behind the page's back. Returns (the first image's id, the second's, the problem
        change_elsewhere reports, the origins of the versions the conflict panel lists)."""
        images = self.images(path)
        self.open_gallery(path)
        mine, other = images[0]["id"], images[1]["id"]
        # The caption is edited in place on demand: the photo clicked, then F2.
        self.page.click_at(self.page.cell(self.page.state(), mine)["box"])
        self.press("F2")
        self.page.wait_for("the caption field focused", lambda s: s["focusedId"] == "INPUT")
        self.page.type_text(ours)
        self.press("Enter")
        self.page.wait_for("status Edited", lambda s: s["status"] == "Edited")
        problem = self.change_elsewhere(path, "caption", "2", theirs)
        _, extra = self.page.wait_extra(f"the conflict panel of {path.name} with a version",
                                        lambda s, e: not e["conflictHidden"] and e["versions"])
        unknown = [origin for origin in extra["versions"] if origin not in ORIGINS]
        if unknown:
            raise CheckFailed(f"the conflict panel lists versions of unknown origin {unknown}")
        return mine, other, problem, extra["versions"]

    def settled(self, description, path, expected):
        """The conflict panel hidden, status Saved and the grid's captions `expected` ({id: caption
        or None}), then the same captions on disk; returns the file's revision."""
        shown = {key: value or "" for key, value in expected.items()}
        self.page.wait_extra(f"{description}: the conflict panel hidden, Saved, the captions {expected}",
                             lambda s, e: e["conflictHidden"] and s["status"] == "Saved"
                             and {c["id"]: c["caption"] for c in s["cells"]} == shown)

        def holds(images, info):
            found = captions_of(images)
            return None if found == expected else f"captions {found}, expected {expected}"
        self.wait_disk(description, path, holds)
        return self.run_json("info", str(path)).get("revision")

    def keep_mine_and_keep_theirs(self):
        """Two conflicts: in one, Keep current (the file as the other program left it); in the
        other, Keep this version on the page's own version. Each by a mouse click on the button."""
        details, problems = [], []
        with self.conflict_page():
            path = self.conflicts["KeepCurrent"]
            before = captions_of(self.images(path))
            mine, other, problem, versions = self.make_conflict(path, "mine, dropped", "theirs, kept")
            problems.append(problem)
            self.page.click_when_still("document.getElementById('keep-current-button')")
            current = dict(before, **{other: "theirs, kept"})
            revision = self.settled("Keep current: the other program's caption, not the page's", path, current)
            self.press("s", CTRL)  # a save now must not bring the dropped edit back
            details.append(f"Keep current ({versions} listed): {path.name} holds the other program's caption only")

            path = self.conflicts["KeepMine"]
            before = captions_of(self.images(path))
            mine, other, problem, versions = self.make_conflict(path, "mine, kept", "theirs, dropped")
            problems.append(problem)
            if versions.count("ours") != 1:
                raise CheckFailed(f"the conflict panel lists {versions}, not one version of origin 'ours' (the page's edits)")
            button = "document.querySelector('#version-list li.version[data-origin=\"ours\"] button')"
            label = self.page.evaluate(f"{button}.textContent")
            self.page.click_when_still(button)
            kept = dict(before, **{mine: "mine, kept"})
            self.settled(f"{label} on the page's version: its caption, not the other program's", path, kept)
            details.append(f"{label!r} on 'ours' ({versions} listed): {path.name} holds the page's caption only")

            # Seconds later (the other conflict, a save asked for): the file kept as it was is unchanged.
            path = self.conflicts["KeepCurrent"]
            images, info = self.disk(path)
            if captions_of(images) != current or info.get("revision") != revision:
                raise CheckFailed(f"{path.name} changed after Keep current and Ctrl+S: captions {captions_of(images)}, "
                                  f"revision {info.get('revision')} (was {revision})")
        problem = "; ".join(p for p in problems if p)
        return self.failed_then(problem, "; ".join(details) + "; each panel hidden, status Saved")

    def conflict_merge(self):
        path = self.conflicts["Conflict"]
        with self.conflict_page():
            ours, theirs, problem, versions = self.make_conflict(path, "ours", "theirs")
            self.page.click_element("document.getElementById('merge-button')")
            self.page.wait_extra("the merge done: both captions in the grid",
                                 lambda s, e: self.page.cell(s, ours)["caption"] == "ours"
                                 and self.page.cell(s, theirs)["caption"] == "theirs")
            # The conflict is settled: its notice ("your edits are kept as a version") goes with it.
            self.page.wait_extra("the conflict's notice gone after the merge",
                                 lambda s, e: not any("kept as a version" in message for message in e["messages"]))
            self.press("s", CTRL)  # save now: this editor's autosave waits 30 s

            def merged(found, info):
                captions = captions_of(found)
                if (captions.get(ours), captions.get(theirs)) == ("ours", "theirs"):
                    return None
                return f"captions {list(captions.values())}"
            self.wait_disk("our caption and theirs, merged", path, merged)
            # The page closes: the editor's last page is gone, so it stops by itself after a final save.
            self.page.navigate("about:blank")
            self.devtools.call("Target.closeTarget", {"targetId": self.page.target})
            status = self.conflict_editor.wait(IDLE_MARGIN)
            if status != 0:
                raise CheckFailed(f"the second editor {'still runs' if status is None else f'exited {status}'} "
                                  f"{IDLE_MARGIN} s after its page closed: {self.conflict_editor.log_text()}")
            self.wait_disk("both captions after the editor stopped", path, merged)
            return self.failed_then(problem, f"versions listed: {versions}; merged and saved: captions 'ours' and "
                                    f"'theirs'; the editor exited 0 once its page closed")

    # MARK: Dragging an image out of the page

    def drag_out_to_download(self):
        """The detail view's picture (Alt-drag: a plain drag pans it) and its Download link dragged
        out of the page: each drag carries DownloadURL, "type:name:URL", whose URL gives the
        original file's bytes with the page's session cookie, as Chromium's download of it would."""
        path = self.galleries["Pages"]
        image = next(i for i in self.images(path) if i["mediaType"] == "image/png")
        original = (self.fixtures / image["filename"]).read_bytes()
        if hashlib.sha256(original).hexdigest() != image["sha256"]:
            raise CheckFailed(f"the fixture {image['filename']} is not the gallery's image (SHA-256 {image['sha256'][:12]}…)")
        self.page.navigate(f"{self.origin}/#gallery={gallery_key(path)}&image={image['id']}")
        self.page.wait_extra(f"the detail view of {image['filename']}, its picture loaded",
                             lambda s, e: not e["detailHidden"] and (e["currentHref"] or "").endswith(image["id"])
                             and e["picture"]["complete"] and e["picture"]["width"] > 0)
        details = []
        for what, expression, modifiers in (("the picture, Alt held", "document.getElementById('detail-image')", ALT),
                                            ("the Download link", "document.getElementById('download-link')", 0)):
            data = self.page.drag_out(expression, modifiers)
            if data is None:
                raise CheckFailed(f"pressing the mouse on {what} and moving it started no drag (no Input.dragIntercepted)")
            items = data.get("items") or []
            # setData lowercases the type, as the HTML standard says: Chromium reports "downloadurl".
            found = [item for item in items if item.get("mimeType", "").lower() == "downloadurl"]
            if len(found) != 1:
                raise CheckFailed(f"dragging {what}: {len(found)} DownloadURL items among {[i.get('mimeType') for i in items]}")
            size, sha = self.check_download_url(what, found[0]["data"], image)
            details.append(f"{what}: {found[0]['mimeType']} {found[0]['data'].split(':', 2)[:2]} among "
                           f"{[i.get('mimeType') for i in items]}; {size} bytes fetched with the session cookie, SHA-256 {sha[:12]}… "
                           f"as {image['filename']}'s")
        self.page.wait_extra("still the detail view after the drags", lambda s, e: not e["detailHidden"])
        return "; ".join(details) + "; drag interception turned off after each"

    def check_download_url(self, what, value, image):
        """`value` is "MIME:NAME:URL" with the image's type and name, and URL, fetched with the
        page's cookie, answers the original's bytes. Returns (their size, their SHA-256)."""
        parts = value.split(":", 2)
        if len(parts) != 3:
            raise CheckFailed(f"dragging {what}: DownloadURL {value!r} is not MIME:NAME:URL")
        mime, name, url = parts
        expected = f"{self.origin}/api/documents/{gallery_key(self.galleries['Pages'])}/images/{image['id']}"
        if (mime, name) != (image["mediaType"], image["filename"]) or url.split("?")[0] != expected:
            raise CheckFailed(f"dragging {what}: DownloadURL {value!r}; expected {image['mediaType']}:{image['filename']}:"
                              f"{expected}?…")
        cookies = self.page.call("Network.getCookies", {"urls": [url]})["cookies"]
        if not cookies:
            raise CheckFailed(f"the browser has no cookie for {url}")
        request = urllib.request.Request(url, headers={"Cookie": "; ".join(f"{c['name']}={c['value']}" for c in cookies)})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                body, kind = answer.read(), answer.headers.get("Content-Type")
                disposition = answer.headers.get("Content-Disposition") or ""
        except urllib.error.URLError as error:
            raise CheckFailed(f"dragging {what}: GET {url} failed: {error}") from None
        sha = hashlib.sha256(body).hexdigest()
        if sha != image["sha256"] or kind != image["mediaType"]:
            raise CheckFailed(f"dragging {what}: GET {url} gave {len(body)} bytes of {kind}, SHA-256 {sha[:12]}…; "
                              f"the original is {image['byteSize']} bytes of {image['mediaType']}, SHA-256 {image['sha256'][:12]}…")
        if "attachment" not in disposition or urllib.parse.quote(image["filename"]) not in disposition:
            raise CheckFailed(f"dragging {what}: GET {url} answered Content-Disposition {disposition!r}, "
                              f"not an attachment named {image['filename']}")
        return len(body), sha
