"""The scenarios of check-editor-more.py about the document browser (rename, the Trash, import),
a change made elsewhere while the page has the gallery open (a clean reload; change_elsewhere
also makes the conflicts of editor_more_versions.py) and accessibility: a mixin of
editor_more_scenarios.MoreScenarios, which gives it the page, the disk and the recording.
"""

import os
import shutil
import subprocess
import urllib.parse
import zipfile
from pathlib import Path

from devtools import CTRL
from editor_more_page import axe_script
from harness import CheckFailed, gallery_key, until

LOCK_WAIT = "5"  # seconds the command line waits for the editor's lock (`--wait`)


class LibraryScenarios:
    def change_elsewhere(self, path, command, *arguments):
        """`imagegallery COMMAND PATH ARGUMENTS` while the page has the gallery open. Returns None when
        it ran; when it could not (the editor holds the gallery's lock: exit 75), the reason, after
        making the same change as another program's save would reach the editor: run on a copy,
        then renamed over the file. The caller fails the step with that reason once the rest is checked."""
        ran = subprocess.run([self.imagegallery, command, str(path), *arguments, "--wait", LOCK_WAIT],
                             capture_output=True, text=True, timeout=60)
        if ran.returncode == 0:
            return None
        problem = (f"`imagegallery {command} {path.name} {' '.join(arguments)}` while the page has it open exited "
                   f"{ran.returncode}: {ran.stderr.strip()}")
        elsewhere = self.scratch / "elsewhere"
        elsewhere.mkdir(exist_ok=True)
        copy = elsewhere / path.name
        shutil.copy2(path, copy)
        again = subprocess.run([self.imagegallery, command, str(copy), *arguments], capture_output=True, text=True, timeout=60)
        if again.returncode != 0:
            raise CheckFailed(f"{problem}; and on a copy it exited {again.returncode}: {again.stderr.strip()}")
        os.replace(copy, path)
        return problem

    @staticmethod
    def failed_then(problem, detail):
        if problem:
            raise CheckFailed(f"{problem}. The same change saved by another program instead (the command run on a copy, "
                              f"renamed over the file): {detail}")
        return detail

    def external_add(self):
        """`imagegallery add --wait` while the page has the gallery open: let in, its image shown
        without a reload, and the page's "Read only: … is changing it" notice gone once editing
        works again (the add takes well under a second)."""
        path = self.galleries["Watched"]
        before = self.images(path)
        self.open_gallery(path)
        # Every notice the page shows meanwhile, however briefly.
        self.page.evaluate("""window.noticesSeen = []; new MutationObserver(() => {
            for (const node of document.querySelectorAll('#messages .message span')) window.noticesSeen.push(node.textContent);
          }).observe(document.getElementById('messages'), {subtree: true, childList: true, characterData: true}); true""")
        problem = self.change_elsewhere(path, "add", str(self.fixtures / "3-lighthouse.jpg"))
        images = self.expect_names("the image added from outside", path, [i["filename"] for i in before] + ["3-lighthouse.jpg"])
        self.page.wait_for("the page showing the added image without a reload",
                           lambda s: [c["id"] for c in s["cells"]] == [i["id"] for i in images] and s["status"] == "Saved")
        self.page.wait_for("no Read only notice left once editing works again",
                           lambda s: not any("Read only" in m or "is changing it" in m for m in s["messages"]))
        seen = sorted(set(self.page.evaluate("window.noticesSeen")))
        return self.failed_then(problem, f"{len(images)} images on disk and in the page, without a reload; "
                                f"notices shown meanwhile, now gone: {seen}")

    def rename(self):
        path = self.galleries["Named"]
        key = gallery_key(path)
        self.open_browser()
        self.page.card_action(key, "Rename")
        self.page.wait_for("the rename form, its title field focused", lambda s: s["focusedId"] == f"rename-title-{key}")
        self.press("a", CTRL)
        self.page.type_text("A new title")
        self.press("Tab")
        self.page.wait_for("the file name field focused", lambda s: s["focusedId"] == f"rename-name-{key}")
        self.press("a", CTRL)
        self.page.type_text("Renamed")
        self.press("Enter")
        renamed = path.with_name("Renamed.imagegallery")
        self.wait_disk("the renamed gallery", renamed,
                       lambda images, info: None if info.get("title") == "A new title" else f"title {info.get('title')!r}")
        if path.exists():
            raise CheckFailed(f"{path.name} is still there beside {renamed.name}")
        self.page.wait_for("the card with the new title", lambda s: any(c["title"] == "A new title" for c in s["cards"]))
        self.galleries["Named"] = renamed
        return f"{path.name} → {renamed.name}, titled 'A new title'"

    def trash_and_restore(self):
        path = self.galleries["Doomed"]
        key = gallery_key(path)
        images = self.images(path)
        self.open_browser()
        # Another program adds a gallery to the folder while the card's menu is open: the
        # listing changes under it, and the menu stays open with the focus where it was.
        card = self.page.open_card_menu(key)
        arrived = self.folder / "Arrived meanwhile.imagegallery"
        shutil.copyfile(path, arrived)
        self.page.wait_extra("the gallery that arrived listed", lambda s, e: gallery_key(arrived) in e["cardKeys"])
        kept = self.page.evaluate(f"({card}.card-actions').hidden === false && document.activeElement === "
                                  f"{card}.card-actions button'))")
        arrived.unlink()
        self.page.wait_extra("the gallery that arrived gone again", lambda s, e: gallery_key(arrived) not in e["cardKeys"])
        if not kept:
            raise CheckFailed("a change to the folder closed the card's open menu, or took the focus from it")
        self.page.click_element(card + "button[aria-label^=\"Delete\"]')")
        trash = self.editor.data_home / "Trash"
        trashed, info = trash / "files" / path.name, trash / "info" / (path.name + ".trashinfo")
        until(lambda: not path.exists() and trashed.exists() and info.exists())
        if path.exists() or not trashed.is_file() or not info.is_file():
            listing = sorted(str(p.relative_to(trash)) for p in trash.rglob("*")) if trash.exists() else "no Trash folder"
            where = "still" if path.exists() else "no longer"
            raise CheckFailed(f"after Delete: {path.name} {where} in the folder; Trash: {listing}")
        text = info.read_text()
        recorded = [urllib.parse.unquote(line[5:]) for line in text.splitlines() if line.startswith("Path=")]
        if recorded != [str(path)] or not text.startswith("[Trash Info]") or "DeletionDate=" not in text:
            raise CheckFailed(f"{info.name} says {text!r}; expected Path={path}")
        self.page.wait_extra("the card gone", lambda s, e: key not in e["cardKeys"])
        # Restored as a file manager does: the file moved back, its .trashinfo removed.
        os.rename(trashed, path)
        info.unlink()
        self.page.wait_extra("the restored gallery listed again without a reload", lambda s, e: key in e["cardKeys"])
        if [i["id"] for i in self.images(path)] != [i["id"] for i in images]:
            raise CheckFailed("the restored gallery's images differ")
        return f"{trashed} with {info.name} (Path={recorded[0]}); restored and listed again"

    def import_cbz(self):
        comic = self.scratch / "Comic.cbz"
        with zipfile.ZipFile(comic, "w") as archive:
            for index, name in enumerate(("1-sunset.jpg", "2-tiles.png"), start=1):
                archive.write(self.fixtures / name, f"page-{index:02}{Path(name).suffix}")
        before = {p.name for p in self.folder.iterdir()}
        self.open_browser()
        zone = self.page.box("document.getElementById('import-zone')")
        self.page.drop_from_outside(zone["x"], zone["y"], files=[comic])
        made = until(lambda: sorted(n for n in {p.name for p in self.folder.iterdir()} - before if n.endswith(".imagegallery")))
        if len(made) != 1:
            extra = self.page.extra()
            raise CheckFailed(f"the folder gained {made or 'no gallery'}, not one new gallery; import status: "
                              f"{extra['importStatus']!r}; messages: {extra['messages']}")
        path = self.folder / made[0]
        images = self.wait_disk("the imported gallery", path,
                                lambda images, info: None if len(images) == 2 else f"{len(images)} images")
        self.page.wait_extra("the imported gallery listed", lambda s, e: gallery_key(path) in e["cardKeys"])
        return f"{made[0]}: {[i['filename'] for i in images]}"

    def accessibility(self):
        if self.axe is None:
            self.axe = axe_script(self.scratch)
        script, origin = self.axe
        report = []
        pages = self.galleries["Pages"]
        views = (("browser", self.open_browser), ("gallery", lambda: self.open_gallery(pages)),
                 ("detail", lambda: self.open_detail(pages)))
        version = None
        # Every view in both themes, and a violation of any impact (minor included) fails.
        for theme in ("light", "dark"):
            self.page.reduce_motion(True, theme)
            for name, show in views:
                show()
                self.page.frames()
                violations = self.page.run_axe(script)
                version = version or self.page.evaluate("axe.version")
                report += [f"{name} ({theme}): {v['id']} ({v['impact']}) at {v['targets']}" for v in violations]
        self.page.reduce_motion(True, "light")
        if report:
            raise CheckFailed(f"axe-core {version}: {len(report)} violation(s): {report}")
        return f"axe-core {version} ({origin}): no violation of any impact on the three views, light and dark"

    def open_detail(self, path):
        image = self.images(path)[0]
        self.page.navigate(f"{self.origin}/#gallery={gallery_key(path)}&image={image['id']}")
        self.page.wait_extra("the detail view", lambda s, e: not e["detailHidden"] and e["picture"]["width"] > 0)
