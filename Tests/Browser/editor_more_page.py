"""What the scenarios of editor_more_scenarios.py need of the page beyond editor_page.py: drops
from outside the page (files and links, as a file manager or another tab gives them), drags with
Ctrl held, a drag out of the page, the other gallery's grid, the conflict panel, the detail view,
and axe-core.

Everything still goes through Chromium's input events; scripts only read what the page shows.
"""

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

from devtools import STEP_TIMEOUT
from editor_page import EditorPage
from harness import CheckFailed

# Input.dispatchDragEvent's operations: copy 1, link 2, move 16. The page's dropEffect must be among them.
EVERY_OPERATION = 19
AXE_PACKAGE, AXE_VERSION = "axe-playwright-python", "0.1.8"

EXTRA_SCRIPT = """(() => {
  const box = (node) => { const r = node.getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, top: r.top, width: r.width, height: r.height}; };
  const strip = document.getElementById('strip');
  const current = strip.querySelector('[aria-current="page"]');
  const picture = document.getElementById('detail-image');
  return {
    pending: document.querySelectorAll('#image-grid .image-cell.pending').length,
    messages: [...document.querySelectorAll('#messages .message span')].map((node) => node.textContent),
    besideHidden: document.getElementById('beside-pane').hidden,
    beside: [...document.querySelectorAll('#beside-grid .image-cell')].map((cell) => ({id: cell.dataset.id, box: box(cell)})),
    conflictHidden: document.getElementById('conflict-panel').hidden,
    versions: [...document.querySelectorAll('#version-list li.version')].map((item) => item.dataset.origin),
    mergeConflicts: [...document.querySelectorAll('#merge-conflicts li')].map((item) => item.textContent),
    detailHidden: document.getElementById('detail-view').hidden,
    stripItems: [...strip.querySelectorAll('a')].map((link) => link.getAttribute('href')),
    stripBox: box(strip), currentBox: current ? box(current) : null,
    currentHref: current ? current.getAttribute('href') : null,
    picture: {src: picture.getAttribute('src'), complete: picture.complete, width: picture.naturalWidth},
    download: {href: document.getElementById('download-link').getAttribute('href'),
               name: document.getElementById('download-link').getAttribute('download')},
    cardKeys: [...document.querySelectorAll('#gallery-list li.gallery-card')].map((card) => card.dataset.key),
    importStatus: document.getElementById('import-status').textContent,
  };
})()"""


class MorePage(EditorPage):
    def extra(self):
        return self.evaluate(EXTRA_SCRIPT)

    def wait_extra(self, description, predicate, timeout=STEP_TIMEOUT):
        """Waits until `predicate(page state, extra state)` holds; raises CheckFailed with both."""
        last = {}

        def holds(state):
            last["state"], last["extra"] = state, self.extra()
            return predicate(state, last["extra"])
        try:
            self.wait_for(description, holds, timeout=timeout)
        except CheckFailed as failure:
            extra = last.get("extra") or {}
            shown = {key: extra.get(key) for key in ("pending", "messages", "beside", "versions", "currentHref", "cardKeys")}
            raise CheckFailed(f"{failure}; also {json.dumps(shown, ensure_ascii=False)[:1500]}") from None
        return last["state"], last["extra"]

    def double_click(self, x, y):
        self.mouse("mouseMoved", x, y)
        for count in (1, 2):
            self.mouse("mousePressed", x, y, buttons=1, click_count=count)
            self.mouse("mouseReleased", x, y, click_count=count)

    def drop_from_outside(self, x, y, files=(), items=()):
        """What a file manager (files) or another tab (items: {mimeType, data}) does: dragEnter,
        dragOver and drop at (x, y). Returns how many placeholder cells the grid showed just after."""
        data = {"items": list(items), "dragOperationsMask": EVERY_OPERATION}
        if files:
            data["files"] = [str(Path(path).resolve()) for path in files]
        self.deliver_drop(data, x, y)
        return self.evaluate("document.querySelectorAll('#image-grid .image-cell.pending').length")

    def drag_out(self, expression, modifiers=0, steps=8):
        """A drag that starts in the page and leaves it (to a file manager, say): the mouse pressed
        on the element `expression` finds and moved away in `steps` steps, `modifiers` held.
        Chromium's drag is intercepted (a headless browser has no system drag loop), then cancelled
        as a drop outside the browser ends it, and the mouse released; interception is off again
        afterwards. Returns the drag's data ({items: [{mimeType, data}], ...}), None when the
        press and moves started no drag."""
        box = self.box(expression)
        points = [(box["x"] + 12 * step, box["y"] + 8 * step) for step in range(1, steps + 1)]
        with self.pressed_drag((box["x"], box["y"]), points, modifiers) as (data, (x, y)):
            if data is not None:
                self.call("Input.dispatchDragEvent", {"type": "dragCancel", "x": x, "y": y, "data": data, "modifiers": modifiers})
            self.mouse("mouseReleased", x, y, modifiers=modifiers, click_count=1)
            return data

    def run_axe(self, source):
        """axe-core on the page as it is: every violation, [{id, impact, help, targets}]."""
        if not self.evaluate("typeof window.axe === 'object'"):
            self.evaluate(source + "\n;true")
        return self.evaluate("""axe.run(document, {resultTypes: ['violations']}).then((result) => result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((node) => node.target.join(' '))})))""",
                             await_promise=True, timeout=120)


def axe_script(scratch):
    """axe.min.js as axe-playwright-python ships it: from this Python, else from `python3` on PATH
    (scripts/install-deps installs it there), else installed now into `scratch` with pip.
    Returns (the script, where it came from); raises CheckFailed with pip's reason."""
    places = []
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec and spec.submodule_search_locations:
        places.append(Path(list(spec.submodule_search_locations)[0]))
    other = shutil.which("python3")
    if not places and other and Path(other).resolve() != Path(sys.executable).resolve():
        found = subprocess.run([other, "-c", "import importlib.util as u; s = u.find_spec('axe_playwright_python'); "
                                "print(list(s.submodule_search_locations)[0] if s else '')"], capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip():
            places.append(Path(found.stdout.strip()))
    if not places:
        target = Path(scratch) / "axe"
        installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                                    "--target", str(target), f"{AXE_PACKAGE}=={AXE_VERSION}"],
                                   capture_output=True, text=True, timeout=300)
        if installed.returncode != 0:
            raise CheckFailed(f"{AXE_PACKAGE} is not installed (scripts/install-deps test installs it) and "
                              f"pip install failed ({installed.returncode}): {(installed.stderr or installed.stdout).strip()[-800:]}")
        places.append(target / "axe_playwright_python")
    script = places[0] / "axe.min.js"
    if not script.is_file():
        raise CheckFailed(f"{AXE_PACKAGE} at {places[0]} has no axe.min.js")
    return script.read_text(encoding="utf-8"), str(script)
