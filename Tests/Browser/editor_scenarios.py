"""The editor's scenarios, in the order a person might do them, each checked on disk.

They share one page and one gallery ("First"), so each starts from what the previous ones left;
`self.order`, `self.captions` and `self.title` are what the file must hold after each of them.
A scenario whose check fails is recorded and the next one still runs: a later failure may then
only be a consequence, which its detail (the page and the disk as they were) shows.
"""

import json
import time

from devtools import CTRL, SHIFT, BrowserGone
from editor_layout import GEOMETRY_SCRIPT, check_justified, nearest_below, rows_of
from editor_page import EditorPage, query
from harness import CheckFailed, Steps, imagegallery_json, wait_disk

HOSTILE = "<img src=x onerror=alert(1)>\u202e<script>alert(2)</script>"
LONG_CAPTION = ("A long caption, ten thousand characters: é ✓ " * 300)[:10_000]
# The focused element as a person sees it: its text, its size, and whether a focus ring shows.
FOCUS_SCRIPT = """(() => { const a = document.activeElement; const r = a.getBoundingClientRect(); const s = getComputedStyle(a);
  return {id: a.id, tag: a.tagName, text: (a.textContent || '').trim(), width: r.width, height: r.height,
          outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0, boxShadow: s.boxShadow}; })()"""
# How long the page stays away in undo_after_reload: longer than the server takes to see that its
# event stream ended (it writes to each stream every second), as a slow reload would.
AWAY_SECONDS = 3


class Scenarios(Steps):
    def __init__(self, devtools, editor, imagegallery, folder, galleries, image_count, artifacts, idle_seconds):
        self.devtools = devtools
        self.editor = editor
        self.imagegallery = imagegallery
        self.folder = folder
        self.first = galleries["First"]
        self.second = galleries["Second"]
        self.image_count = image_count
        self.artifacts = artifacts
        self.idle_seconds = idle_seconds
        Steps.__init__(self)
        self.page = None
        self.order, self.captions, self.title = [], {}, "First"
        self.removed, self.removed_captions, self.second_order = None, {}, None

    # MARK: Recording

    def stop_if_crashed(self):
        """A crashed page makes every later step fail for no fault of the editor: the check could not check."""
        if self.page and any(entry.startswith("crash:") for entry in self.page.console):
            raise BrowserGone("the page crashed")

    def screenshot(self, name):
        path = self.artifacts / name
        self.page.screenshot(path)
        self.screenshots.append(str(path))

    # MARK: The disk

    def run_json(self, *arguments):
        return imagegallery_json(self.imagegallery, *arguments)

    def disk(self, path=None):
        path = str(path or self.first)
        return self.run_json("list", path), self.run_json("info", path)

    def expect_disk(self, description, path=None, order=None, captions=None, title=None):
        """Polls the file until it holds `order` (image ids), `captions` and `title`; autosave writes
        it some time after the edit, so the wait is bounded but never asserted on."""
        order = self.order if order is None else order
        captions = self.captions if captions is None else captions
        title = self.title if title is None else title

        def problem():
            images, info = self.disk(path)
            problems = []
            if [image["id"] for image in images] != order:
                problems.append(f"order {short([image['id'] for image in images])}, expected {short(order)}")
            for image in images:
                if image.get("caption") != captions.get(image["id"]):
                    problems.append(f"caption of {image['id'][:8]} is {clip(image.get('caption'))}, "
                                    f"expected {clip(captions.get(image['id']))}")
            if info.get("title") != title:
                problems.append(f"title {clip(info.get('title'))}, expected {clip(title)}")
            return "; ".join(problems) or None
        wait_disk(description, problem)

    # MARK: The page

    def grid_order(self, state):
        return [cell["id"] for cell in state["cells"]]

    def wait_grid(self, description, order=None):
        order = self.order if order is None else order
        return self.page.wait_for(description, lambda s: self.grid_order(s) == order and not s["galleryHidden"])

    def wait_saved(self, description):
        return self.page.wait_for(description, lambda s: s["status"] == "Saved" and s["statusState"] == "saved")

    def wait_drag_ended(self, description):
        return self.page.wait_for(description, lambda s: s["placeholders"] == 0
                                  and not any(cell["dragging"] for cell in s["cells"]) and not s["trashTarget"])

    def press(self, key, modifiers=0):
        self.page.press(key, modifiers)

    # MARK: Scenarios

    def run(self):
        self.page = EditorPage(self.devtools)
        self.page.navigate(self.editor.announcement["url"])
        for scenario in (self.browser_lists_galleries, self.import_button_focus, self.open_gallery, self.add_button_focus,
                         self.reorder_by_drag, self.keyboard_move, self.touch_reorder, self.justified_layout,
                         self.caption, self.title_edit, self.trash_by_drag, self.multi_select_delete,
                         self.undo_redo, self.undo_after_reload, self.hostile_text, self.back_to_browser, self.new_gallery,
                         self.closing, self.no_console_errors):
            with self.step(scenario.__name__.replace("_", " ")) as record:
                record["detail"] = scenario() or ""

    def browser_lists_galleries(self):
        state = self.page.wait_for("the document browser with two galleries",
                                   lambda s: not s["browserHidden"] and len(s["cards"]) == 2
                                   and all(card["details"] for card in s["cards"]))
        cards = {card["title"]: card for card in state["cards"]}
        for title, count in (("First", self.image_count), ("Second", 3)):
            card = cards.get(title)
            if card is None:
                raise CheckFailed(f"no card titled {title!r}: {[c['title'] for c in state['cards']]}")
            if not card["details"].startswith(f"{count} images · "):
                raise CheckFailed(f"{title}'s card says {card['details']!r}, not {count} images")
        broken = [image["src"] for image in self.page.images("#gallery-list img") if image["width"] <= 0]
        if broken:
            raise CheckFailed(f"gallery thumbnails that did not load: {broken}")
        self.screenshot("editor-browser.png")
        return "; ".join(f"{card['title']}: {card['details']}" for card in state["cards"])

    def tab_to(self, start, label):
        """Clicks the element `start` (a CSS selector), then presses Tab until the focus is on the
        control whose text is `label`; checks that a person sees it there (a box of its own, a
        focus ring) and that Enter on it opens the file chooser. Returns what it found."""
        self.page.click_element(query(start))
        visited = []
        for _ in range(12):
            self.press("Tab")
            focused = self.page.evaluate(FOCUS_SCRIPT)
            visited.append(focused["id"] or focused["tag"])
            if focused["text"] == label:
                break
        else:
            raise CheckFailed(f"Tab from {start} never reached {label!r}: the focus went to {visited} "
                              f"(the last one {focused['width']}×{focused['height']} px)")
        ring = focused["outline"] not in ("none", "") and focused["outlineWidth"] >= 1 or focused["boxShadow"] not in ("none", "")
        if focused["width"] < 20 or focused["height"] < 10 or not ring:
            raise CheckFailed(f"{label!r} has the focus but a person cannot see it: {focused}")
        opened = []

        def chooser(message):
            if message.get("method") == "Page.fileChooserOpened":
                opened.append(message.get("params", {}).get("mode"))
        self.devtools.listeners.append(chooser)
        self.page.call("Page.setInterceptFileChooserDialog", {"enabled": True})
        try:
            self.press("Enter")
            deadline = time.monotonic() + 30
            while not opened and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            self.page.call("Page.setInterceptFileChooserDialog", {"enabled": False})
            self.devtools.listeners.remove(chooser)
        if not opened:
            raise CheckFailed(f"Enter on {label!r} opened no file chooser")
        return f"Tab reached {label!r} after {visited}: {focused['width']:.0f}×{focused['height']:.0f} px, " \
               f"outline {focused['outline']} {focused['outlineWidth']} px; Enter opened the file chooser ({opened[0]})"

    def import_button_focus(self):
        return self.tab_to("#new-gallery-title", "Import a file…")

    def add_button_focus(self):
        return self.tab_to("#gallery-title", "Add images…")

    def open_gallery(self):
        images, _ = self.disk()
        self.order = [image["id"] for image in images]
        self.second_order = [image["id"] for image in self.disk(self.second)[0]]
        card = next(card for card in self.page.state()["cards"] if card["title"] == "First")
        self.page.click_at(card["box"])
        state = self.wait_grid("the gallery's grid in the file's order")
        if state["hash"] != card["link"] or state["galleryTitle"] != "First":
            raise CheckFailed(f"opened {state['hash']} titled {state['galleryTitle']!r}, not {card['link']} First")
        self.wait_saved("the status of a gallery just opened")
        images = self.page.images("#image-grid img")
        broken = [image["src"] for image in images if image["width"] <= 0]
        if len(images) != len(self.order) or broken:
            raise CheckFailed(f"{len(images)} thumbnails for {len(self.order)} images; not loaded: {broken}")
        return f"{len(state['cells'])} images"

    def reorder_by_drag(self):
        state = self.page.state()
        source, first = state["cells"][3]["box"], state["cells"][0]["box"]
        # Over the first cell's top-left quarter: the page puts the placeholder before that cell.
        self.page.drag((source["x"], source["y"]), (first["left"] + first["width"] * 0.2, first["top"] + first["height"] * 0.2))
        self.order.insert(0, self.order.pop(3))
        self.wait_grid("the fourth image first in the grid")
        self.wait_drag_ended("the drag's placeholder and highlight gone")
        self.expect_disk("the fourth image moved first")
        self.wait_saved("the status after autosave")
        return f"order {short(self.order)}; status Saved"

    def keyboard_move(self):
        moving = self.order[0]
        self.page.click_cell(moving)
        self.page.wait_for("the clicked cell focused", lambda s: s["focusedCell"] == moving)
        self.press("ArrowRight", CTRL)
        self.order.insert(1, self.order.pop(0))
        self.wait_grid("Ctrl+ArrowRight moved the image one place right")
        self.expect_disk("Ctrl+ArrowRight")
        # Focus follows the image, so that repeated Ctrl+Arrows keep moving it.
        state = self.page.state()
        return f"focused cell after the move: {(state['focusedCell'] or 'none')[:8]} (the moved image: {moving[:8]})"

    def touch_reorder(self):
        """A finger held on the first photo lifts it; moved onto the fourth photo's left edge and
        lifted, it lands before that photo (real touch input: CDP Input.dispatchTouchEvent)."""
        state = self.page.state()
        start, target = state["cells"][0]["box"], state["cells"][3]["box"]
        end = (target["left"] + target["width"] * 0.2, target["top"] + target["height"] * 0.2)
        touch = lambda kind, points: self.page.call("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})  # noqa: E731
        touch("touchStart", [{"x": start["x"], "y": start["y"]}])
        time.sleep(0.7)  # held: longer than the page's 350 ms
        steps = 10
        for step in range(1, steps + 1):
            touch("touchMove", [{"x": start["x"] + (end[0] - start["x"]) * step / steps,
                                 "y": start["y"] + (end[1] - start["y"]) * step / steps}])
        touch("touchEnd", [])
        self.order.insert(2, self.order.pop(0))
        self.wait_grid("the touched photo before the fourth, third in the grid")
        self.wait_drag_ended("the touch drag's placeholder gone")
        self.expect_disk("the touch drag")
        return f"order {short(self.order)}"

    def justified_layout(self):
        """The grid's rows at the window's width and at a phone's (390 px): one height a row, every
        photo at its own ratio, no overlap, full rows (editor_layout.py measures the boxes). Up and
        Down go to the photo nearest in x in the row below and above."""
        desktop = check_justified(self.page)
        cells = self.page.evaluate(GEOMETRY_SCRIPT)["cells"]
        start = rows_of(cells)[0][-1]
        self.page.click_at(self.page.cell(self.page.state(), start["id"])["box"])
        below = nearest_below(cells, start, 1)
        self.press("ArrowDown")
        self.page.wait_for(f"ArrowDown from {start['id'][:8]} to {below['id'][:8]}, the photo below nearest in x",
                           lambda s: s["focusedCell"] == below["id"])
        above = nearest_below(cells, below, -1)
        self.press("ArrowUp")
        self.page.wait_for(f"ArrowUp from {below['id'][:8]} to {above['id'][:8]}",
                           lambda s: s["focusedCell"] == above["id"])
        self.page.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
        try:
            self.page.frames(4)
            phone = check_justified(self.page)
        finally:
            self.page.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                                                                   "mobile": False})
            self.page.frames(4)
        return f"{desktop}; at 390 px: {phone}; Down then Up: {start['id'][:8]} → {below['id'][:8]} → {above['id'][:8]}"

    def caption(self):
        image = self.order[2]
        # The caption is edited in place on demand: the photo clicked, then F2.
        self.page.click_at(self.page.cell(self.page.state(), image)["box"])
        self.press("F2")
        self.page.wait_for("the caption field focused", lambda s: s["focusedId"] == "INPUT")
        self.page.type_text("Harbour at dusk")
        self.press("Enter")
        self.captions[image] = "Harbour at dusk"
        self.page.wait_for("the caption shown after Enter",
                           lambda s: self.page.cell(s, image)["caption"] == "Harbour at dusk" and s["focusedId"] != "INPUT")
        self.expect_disk("the caption typed in the grid")

    def set_title(self, text):
        self.page.click_element(query("#gallery-title"))
        self.page.wait_for("the title field focused", lambda s: s["focusedId"] == "gallery-title")
        self.press("a", CTRL)
        self.page.type_text(text)
        self.press("Enter")
        self.title = text
        # Enter commits the title and leaves the focus where it was, in the field.
        self.page.wait_for("the title committed by Enter (the crumb shows it), the focus still in the field",
                           lambda s: s["crumb"] == text and s["focusedId"] == "gallery-title")

    def title_edit(self):
        self.set_title("First, renamed")
        self.page.wait_for("the new title in the page", lambda s: s["galleryTitle"] == self.title and s["crumb"] == self.title)
        self.expect_disk("the title edited in place")

    def trash_by_drag(self):
        state = self.page.state()
        victim = self.order[5]
        source = self.page.cell(state, victim)["box"]
        self.page.drag((source["x"], source["y"]), (state["trash"]["x"], state["trash"]["y"]))
        self.order.remove(victim)
        self.captions.pop(victim, None)
        self.wait_grid("the image dropped on the trash gone from the grid")
        self.wait_drag_ended("the drag's placeholder and the trash's highlight gone")
        self.expect_disk("the image dropped on the trash")
        return f"removed {victim[:8]}"

    def multi_select_delete(self):
        first, second, third = self.order[1], self.order[2], self.order[4]
        self.page.click_cell(first)
        self.page.click_cell(second, CTRL)
        self.page.click_cell(third, CTRL)
        self.page.click_cell(first, CTRL)  # Ctrl+click again takes it out of the selection
        state = self.page.wait_for("two cells selected", lambda s: [c["id"] for c in s["cells"] if c["selected"]] == [second, third])
        if state["focusedCell"] != first:
            raise CheckFailed(f"the focus is on {state['focusedCell']}, not on the last cell clicked ({first})")
        self.press("Delete")
        self.removed = (self.order.index(second), second, self.order.index(third), third)
        self.removed_captions = {image: self.captions.pop(image) for image in (second, third) if image in self.captions}
        self.order = [image for image in self.order if image not in (second, third)]
        self.wait_grid("both selected images gone from the grid")
        self.expect_disk("Delete with two images selected")
        return f"removed {second[:8]} and {third[:8]}"

    def undo_redo(self):
        if self.removed is None:
            raise CheckFailed("nothing to undo: the removal of two selected images did not happen")
        at_second, second, at_third, third = self.removed
        self.press("z", CTRL)
        self.order.insert(at_second, second)
        self.order.insert(at_third, third)
        self.captions.update(self.removed_captions)
        self.wait_grid("Ctrl+Z brought both images back in place")
        self.press("s", CTRL)
        self.expect_disk("after Ctrl+Z and Ctrl+S")
        self.wait_saved("the status after Ctrl+S")
        self.press("z", CTRL | SHIFT)
        self.order = [image for image in self.order if image not in (second, third)]
        for image in (second, third):
            self.captions.pop(image, None)
        self.wait_grid("Ctrl+Shift+Z removed them again")
        self.press("s", CTRL)
        self.expect_disk("after Ctrl+Shift+Z and Ctrl+S")
        self.wait_saved("the status after the second Ctrl+S")

    def undo_after_reload(self):
        """A caption typed, then the page reloaded slowly (away for a moment, longer than the server
        takes to see that its event stream ended): the new page finds the gallery's undo history,
        and Ctrl+Z there takes the caption back, on disk."""
        image = self.order[0]
        # The caption is edited in place on demand: the photo clicked, then F2.
        self.page.click_at(self.page.cell(self.page.state(), image)["box"])
        self.press("F2")
        self.page.wait_for("the caption field focused", lambda s: s["focusedId"] == "INPUT")
        self.page.type_text("typed before the reload")
        self.press("Enter")
        self.captions[image] = "typed before the reload"
        self.expect_disk("the caption typed before the reload")
        address = self.page.evaluate("location.href")
        self.page.navigate("about:blank")
        time.sleep(AWAY_SECONDS)
        self.page.navigate(address)
        self.wait_grid("the gallery again after the reload")
        state = self.wait_saved("the gallery after the reload, Saved")
        undo = self.page.evaluate("!document.getElementById('undo-button').disabled")
        if not undo:
            raise CheckFailed("after the reload the Undo button is disabled: the gallery's undo history is gone")
        self.press("z", CTRL)
        del self.captions[image]
        self.page.wait_for("the caption gone from the grid after Ctrl+Z", lambda s: self.page.cell(s, image)["caption"] == "")
        self.expect_disk("Ctrl+Z after the reload took the caption back")
        return f"Undo enabled after the reload ({len(state['cells'])} images); Ctrl+Z removed the caption on disk"

    def hostile_text(self):
        try:
            return self.hostile_edits()
        finally:
            # Taken whatever the checks found: the picture is what a person would look at first.
            try:
                if not self.page.state()["galleryHidden"]:
                    self.page.images("#image-grid img")
                    self.screenshot("editor-gallery.png")
            except (RuntimeError, TimeoutError):
                pass  # a missing screenshot is reported by whoever expects it, not here over the real failure

    def hostile_edits(self):
        before = len(self.page.console)
        hostile_image, long_image = self.order[0], self.order[1]
        self.set_title(HOSTILE)
        for image, text in ((hostile_image, HOSTILE), (long_image, LONG_CAPTION)):
            # The caption is edited in place on demand: the photo clicked, then F2.
            self.page.click_at(self.page.cell(self.page.state(), image)["box"])
            self.press("F2")
            self.page.wait_for("the caption field focused", lambda s: s["focusedId"] == "INPUT")
            self.press("a", CTRL)
            self.page.type_text(text)
            self.press("Enter")
            self.captions[image] = text
        state = self.page.wait_for("the hostile caption, long caption and title shown as typed",
                                   lambda s: self.page.cell(s, hostile_image)["caption"] == HOSTILE
                                   and self.page.cell(s, long_image)["caption"] == LONG_CAPTION
                                   and s["galleryTitle"] == HOSTILE and s["focusedId"] != "INPUT")
        self.expect_disk("the hostile caption, the 10,000-character caption and the hostile title, exactly")
        state = self.wait_saved("the status after the hostile edits")
        problems = []
        if state["crumb"] != HOSTILE or state["documentTitle"] != HOSTILE:
            problems.append(f"the crumb shows {state['crumb']!r} and the tab {state['documentTitle']!r}")
        if state["foreign"]:
            problems.append(f"{state['foreign']} element(s) the text made (an <img> or <script>)")
        if len(self.page.console) > before:
            problems.append(f"console or dialog: {self.page.console[before:]}")
        if problems:
            raise CheckFailed("; ".join(problems))
        return "shown literally in the fields, the crumb and the tab's title; no dialog; no console error"

    def back_to_browser(self):
        self.page.click_element(query("#home-link"))
        state = self.page.wait_for("the document browser, First's card showing its title as typed",
                                   lambda s: not s["browserHidden"] and any(card["title"] == self.title for card in s["cards"]))
        card = next(card for card in state["cards"] if card["title"] == self.title)
        if not card["details"].startswith(f"{len(self.order)} images · ") or state["foreign"]:
            raise CheckFailed(f"the card says {card['details']!r} for {len(self.order)} images; "
                              f"{state['foreign']} element(s) made from text")
        self.expect_disk("after leaving the gallery (its document closed, with a final save)")
        return card["details"]

    def new_gallery(self):
        before = {path.name for path in self.folder.iterdir()}
        self.page.click_element(query("#new-gallery-title"))
        self.page.type_text("Third")
        self.press("Enter")
        state = self.page.wait_for("the new gallery opened", lambda s: not s["galleryHidden"] and s["galleryTitle"] == "Third")
        # The sidecar lock (.Third.imagegallery.lock) comes with the open document; only galleries count.
        made = sorted(name for name in {path.name for path in self.folder.iterdir()} - before if not name.startswith("."))
        if made != ["Third.imagegallery"]:
            raise CheckFailed(f"the folder gained {made}, not Third.imagegallery")
        self.expect_disk("the new gallery's file", path=self.folder / "Third.imagegallery", order=[], captions={}, title="Third")
        if state["cells"]:
            raise CheckFailed(f"the new gallery shows {len(state['cells'])} images")
        return "Third.imagegallery, empty, titled Third"

    def closing(self):
        # Both ways a person leaves: the page goes elsewhere, then the tab closes.
        self.page.navigate("about:blank")
        self.devtools.call("Target.closeTarget", {"targetId": self.page.target})
        margin = 20
        status = self.editor.wait(self.idle_seconds + margin)
        if status is None:
            raise CheckFailed(f"the editor still runs {self.idle_seconds + margin} s after its last page closed")
        if status != 0:
            raise CheckFailed(f"the editor exited {status}: {self.editor.log_text()}")
        self.expect_disk("every edit of First after the editor stopped")
        self.expect_disk("Second untouched", path=self.second, order=self.second_order, captions={}, title="Second")
        self.expect_disk("Third after the editor stopped", path=self.folder / "Third.imagegallery", order=[], captions={},
                         title="Third")
        left = sorted(path.name for path in self.folder.iterdir() if path.name.startswith("."))
        return f"the editor exited 0; hidden files left in the folder: {left or 'none'}"

    def no_console_errors(self):
        if self.page.console:
            raise CheckFailed(f"{len(self.page.console)} console error(s), exception(s) or dialog(s): {self.page.console}")


def short(ids):
    return "[" + " ".join(image[:8] for image in ids) + "]"


def clip(text):
    if text is None:
        return "none"
    return json.dumps(text if len(text) < 80 else f"{text[:60]}… ({len(text)} characters)", ensure_ascii=False)
