"""The gallery editor's page as a person uses it: what it shows, and the mouse, keys and drags
that act on it. Everything goes through Chromium's input events, never through the page's own
functions, so a handler that is missing or wrong shows up here as it would for a person.
"""

import json
import queue
from contextlib import contextmanager

from devtools import STEP_TIMEOUT, Tab
from harness import CheckFailed, console_entry, describe, poll

# What the page shows, read back from the DOM (textContent and value: what a person sees).
STATE_SCRIPT = """(() => {
  const box = (node) => { if (!node) return null; const r = node.getBoundingClientRect();
                          return {x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, top: r.top,
                                  width: r.width, height: r.height}; };
  const text = (id) => { const node = document.getElementById(id); return node ? node.textContent : null; };
  const active = document.activeElement;
  return {
    readyState: document.readyState, hash: location.hash, documentTitle: document.title,
    browserHidden: document.getElementById('browser-view').hidden,
    galleryHidden: document.getElementById('gallery-view').hidden,
    status: text('status'), statusState: document.getElementById('status').dataset.state || '',
    crumb: text('crumb'), galleryTitle: document.getElementById('gallery-title').value,
    messages: [...document.querySelectorAll('#messages .message span')].map((node) => node.textContent),
    cards: [...document.querySelectorAll('#gallery-list li.gallery-card')].map((card) => ({
      // null, not left out, while a card shows its rename form instead of its title.
      key: card.dataset.key, title: card.querySelector('.title')?.textContent ?? null,
      details: card.querySelector('.details')?.textContent ?? null,
      link: (card.querySelector('a') || {}).getAttribute && card.querySelector('a').getAttribute('href'),
      box: box(card.querySelector('a'))})),
    cells: [...document.querySelectorAll('#image-grid .image-cell')].map((cell) => ({
      id: cell.dataset.id, selected: cell.getAttribute('aria-selected') === 'true',
      caption: cell.querySelector('input') ? cell.querySelector('input').value : (cell.querySelector('.caption') || {}).textContent,
      name: cell.querySelector('.name').textContent,
      dragging: cell.classList.contains('dragging'), box: box(cell.querySelector('.frame'))})),
    placeholders: document.querySelectorAll('.drop-placeholder').length,
    trash: box(document.getElementById('trash')),
    trashTarget: document.getElementById('trash').classList.contains('drop-target'),
    focusedCell: active && active.classList && active.classList.contains('image-cell') ? active.dataset.id : null,
    focusedId: active ? active.id || active.tagName : null,
    // What the hostile text would make if it ever became markup: an <img src=x> or an inline script.
    foreign: document.querySelectorAll('img[src="x"], script:not([src])').length,
  };
})()"""


# The centre of the element `%s` finds (a script expression), scrolled into view as a person would.
BOX_SCRIPT = """(() => { const node = %s; if (!node) return null;
  node.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = node.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2, left: r.left, top: r.top, width: r.width, height: r.height}; })()"""


def query(selector):
    """The script expression for the first element `selector` matches."""
    return f"document.querySelector({json.dumps(selector)})"


class EditorPage(Tab):
    def __init__(self, devtools):
        self.console = []        # every console error, exception, error log entry, dialog or crash
        self.intercepted = queue.Queue()
        devtools.listeners.append(self._on_event)
        super().__init__(devtools)
        for domain in ("Page", "Runtime", "Log"):
            self.call(domain + ".enable")
        self.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        # The scenarios read boxes and click on them right after a change: photos gliding to their
        # new places (FLIP) would be caught mid-way. check-editor-looks.py checks the animation.
        self.reduce_motion(True)

    def reduce_motion(self, reduce, scheme=None):
        """Emulates prefers-reduced-motion (and prefers-color-scheme, if given)."""
        features = [{"name": "prefers-reduced-motion", "value": "reduce" if reduce else "no-preference"}]
        if scheme:
            features.append({"name": "prefers-color-scheme", "value": scheme})
        self.call("Emulation.setEmulatedMedia", {"features": features})

    # Events arrive on the reader thread, for every target; only this page's count.
    def _on_event(self, message):
        if message.get("sessionId") not in (None, getattr(self, "session", None)):
            return
        entry = console_entry(self.devtools, getattr(self, "session", None), message)
        if entry:
            self.console.append(describe(entry))
        elif message.get("method") == "Input.dragIntercepted":
            self.intercepted.put(message.get("params", {}).get("data"))

    def state(self):
        return self.evaluate(STATE_SCRIPT)

    def wait_for(self, description, predicate, timeout=STEP_TIMEOUT):
        """Polls what the page shows until `predicate` holds; raises CheckFailed with the last state."""
        seen = {}

        def probe():
            seen["last"] = last = self.state()
            if last and last["readyState"] == "complete" and predicate(last):
                self.frames()
                return self.state()
            return None

        def failure(problem):  # a problem: the document went away mid-call (a navigation)
            last = seen.get("last")
            summary = last and {key: last[key] for key in ("hash", "status", "galleryTitle", "messages", "placeholders")}
            if last:
                summary["cells"] = [cell["id"][:8] for cell in last["cells"]]
            return (f"{description}: not reached in {timeout:.0f} s (page: {json.dumps(summary, ensure_ascii=False)}"
                    + (f"; {problem}" if problem and not last else "") + ")")
        return poll(description, probe, timeout, 0.05, (RuntimeError, TimeoutError), failure)

    def images(self, selector):
        """The images under `selector` once each has loaded or failed: [{src, width}]. One with no
        source yet (the grid's first screen, whose photos come in one answer) is still to load,
        though the browser calls it complete."""
        return self.evaluate("""(async () => {
          const images = [...document.querySelectorAll(%s)];
          await Promise.all(images.map((image) => image.complete && image.getAttribute('src') ? null : new Promise((done) => {
            image.addEventListener('load', done, {once: true});
            image.addEventListener('error', done, {once: true});
            setTimeout(done, 20000);
          })));
          return images.map((image) => ({src: image.getAttribute('src'), width: image.naturalWidth}));
        })()""" % json.dumps(selector), await_promise=True, timeout=60)

    def cell(self, state, image_id):
        found = next((cell for cell in state["cells"] if cell["id"] == image_id), None)
        if found is None:
            raise CheckFailed(f"the image {image_id} is not in the grid")
        return found

    def click_cell(self, image_id, modifiers=0):
        box = self.cell(self.state(), image_id)["box"]
        self.click(box["x"], box["y"], modifiers)

    def box(self, expression):
        found = self.evaluate(BOX_SCRIPT % expression)
        if not found:
            raise CheckFailed(f"nothing on the page for {expression}")
        return found

    def click_element(self, expression, modifiers=0):
        box = self.box(expression)
        self.click(box["x"], box["y"], modifiers)
        return box

    def click_when_still(self, expression):
        """A mouse click on the element once a person could hit it: its box the same two frames
        apart (a panel still sliding in, or a message pushing it down, moves it under the pointer)
        and the element itself, not something over it, at its middle. Returns its box."""
        def still():
            first = self.box(expression)
            self.frames()
            second = self.box(expression)
            hit = self.evaluate(f"(() => {{ const node = {expression}; const at = document.elementFromPoint({second['x']}, {second['y']});"
                                " return Boolean(node && at && node.contains(at)); })()")
            return second if first == second and hit else None
        box = poll(f"{expression} still and in reach", still, STEP_TIMEOUT, 0.05)
        self.click(box["x"], box["y"])
        return box

    def open_card_menu(self, key):
        """Opens the menu of the card of gallery `key` with its button; returns the selector's start."""
        card = f"document.querySelector('li.gallery-card[data-key=\"{key}\"] "
        self.click_element(card + "button.card-menu-button')")
        self.wait_for(f"the menu of {key[:8]} open", lambda s: self.evaluate(card + ".card-actions').hidden === false"))
        return card

    def card_action(self, key, action):
        """Rename, Duplicate or Delete of the card of gallery `key`, as a person reaches it: its
        menu button clicked, then the action in the menu that opens."""
        card = self.open_card_menu(key)
        self.click_element(card + f"button[aria-label^=\"{action}\"]')")

    def click_at(self, box, modifiers=0):
        self.click(box["x"], box["y"], modifiers)

    def type_text(self, text):
        self.call("Input.insertText", {"text": text})

    @contextmanager
    def pressed_drag(self, start, points, modifiers=0):
        """The mouse pressed at `start` and moved through `points` until Chromium starts a drag
        (intercepted, since a headless browser has no system drag loop), `modifiers` held. Yields
        (the drag's data or None, the last point); interception is off again afterwards."""
        self.call("Input.setInterceptDrags", {"enabled": True})
        while not self.intercepted.empty():
            self.intercepted.get_nowait()
        try:
            x, y = start
            self.mouse("mouseMoved", x, y, modifiers=modifiers)
            self.mouse("mousePressed", x, y, buttons=1, modifiers=modifiers, click_count=1)
            data = None
            for x, y in points:
                self.mouse("mouseMoved", x, y, buttons=1, modifiers=modifiers)
                try:
                    data = self.intercepted.get(timeout=0.2)
                    break
                except queue.Empty:
                    continue
            yield data, (x, y)
        finally:
            self.call("Input.setInterceptDrags", {"enabled": False})

    def deliver_drop(self, data, x, y, modifiers=0):
        """What a drag over the page at (x, y) ending in a drop sends: dragEnter, dragOver and drop."""
        for kind, (px, py) in (("dragEnter", (x, y)), ("dragOver", (x - 2, y - 2)), ("dragOver", (x, y)), ("drop", (x, y))):
            self.call("Input.dispatchDragEvent", {"type": kind, "x": px, "y": py, "data": data, "modifiers": modifiers})

    def drag(self, source, target, modifiers=0):
        """A real drag that starts in the page: the mouse is pressed on `source` and moved, Chromium
        starts the drag, and the drag's own data is delivered as dragEnter, dragOver and drop at
        `target`, with `modifiers` (Ctrl: a copy) held on every mouse and drag event.

        Returns the drag data the page put on the drag."""
        (sx, sy), (tx, ty) = source, target
        points = [(sx + (tx - sx) * step / 10, sy + (ty - sy) * step / 10) for step in range(1, 11)]
        with self.pressed_drag(source, points, modifiers) as (data, _):
            if data is None:
                self.mouse("mouseReleased", tx, ty, modifiers=modifiers, click_count=1)
                raise CheckFailed("pressing the mouse on the image and moving it started no drag (no Input.dragIntercepted)")
            self.deliver_drop(data, tx, ty, modifiers)
            self.mouse("mouseReleased", tx, ty, modifiers=modifiers, click_count=1)
            return data
