"""The editor's page as check-editor-privacy.py uses it, in Chromium (DevTools) and in Firefox ESR
(WebDriver BiDi) alike: what it shows about privacy, read from the DOM, and real input (the mouse
pressed on an element's centre, keys pressed), never the page's own functions.
"""

import json

from harness import CheckFailed, poll

# Seconds for the page to show what an action does (a strip reads every photo, a share writes a copy).
PAGE_TIMEOUT = 60

# What the page shows about privacy: each photo's badges (with their names and whether they sit
# inside the photo's cell, visible), the gallery's line, the messages, the dialog and the focus.
PRIVACY_STATE = """(() => {
  const inside = (node, outer) => { const r = node.getBoundingClientRect(), c = outer.getBoundingClientRect();
    return r.width >= 12 && r.height >= 12 && r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom; };
  const cells = [...document.querySelectorAll('#image-grid .image-cell[data-id]')].map((cell) => ({
    id: cell.dataset.id, name: cell.querySelector('.name').textContent, label: cell.getAttribute('aria-label'),
    badges: [...cell.querySelectorAll('.badge')].map((badge) => ({
      kind: badge.classList.contains('location') ? 'location' : badge.classList.contains('identity') ? 'identity' : '?',
      role: badge.getAttribute('role'), label: badge.getAttribute('aria-label'), title: badge.getAttribute('title'),
      visible: inside(badge, cell) && getComputedStyle(badge).visibility === 'visible'}))}));
  const dialog = document.getElementById('privacy-dialog');
  const active = document.activeElement;
  const line = document.getElementById('privacy-line');
  return {
    ready: document.readyState === 'complete' && !document.getElementById('gallery-view').hidden && cells.length > 0,
    cells, summary: document.getElementById('privacy-summary').textContent,
    thumbnails: [...document.querySelectorAll('#image-grid .image-cell img')].every((img) => img.complete && img.naturalWidth > 0),
    lineShown: !line.hidden && line.getBoundingClientRect().height > 0,
    messages: [...document.querySelectorAll('#messages .message span')].map((node) => node.textContent),
    dialogOpen: dialog.open, heading: document.getElementById('privacy-heading').textContent,
    dialogStatus: document.getElementById('privacy-status').textContent,
    focusInDialog: dialog.contains(active), documentFocused: document.hasFocus(),
    focused: active ? (active.id || (active.name ? `${active.name}=${active.value}` : active.tagName)) : null,
    focusOutline: active ? getComputedStyle(active).outlineStyle : null,
    canUndo: !document.getElementById('undo-button').disabled,
  };
})()"""

# The centre of the element a selector finds, scrolled into view as a person would.
BOX = """(() => { const node = document.querySelector(%s); if (!node) return null;
  node.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = node.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()"""


class Driver:
    """What both browsers share: the page's privacy state, waits on it, clicks by selector."""

    name = "a browser"

    def state(self):
        return self.evaluate(PRIVACY_STATE)

    def wait(self, description, predicate, timeout=PAGE_TIMEOUT):
        """Polls the page until `predicate(state)` holds; returns that state. CheckFailed names the last state."""
        seen = {}

        def probe():
            seen["last"] = state = self.state()
            return state if state and predicate(state) else None

        def failure(problem):
            last = seen.get("last") or {}
            shown = {key: last.get(key) for key in ("summary", "messages", "dialogOpen", "dialogStatus", "focused")}
            shown["badges"] = {cell["name"]: [badge["kind"] for badge in cell["badges"]] for cell in last.get("cells", [])}
            return f"{self.name}: {description}: not within {timeout} s (page: {json.dumps(shown, ensure_ascii=False)})" + (
                f"; {problem}" if problem and not last else "")
        return poll(description, probe, timeout, 0.1, failure=failure)

    def click(self, selector):
        box = self.evaluate(BOX % json.dumps(selector))
        if not box:
            raise CheckFailed(f"{self.name}: nothing on the page for {selector}")
        self.click_at(box["x"], box["y"])


class ChromiumDriver(Driver):
    """An EditorPage (editor_page.py): Chromium's input events over DevTools."""

    name = "Chromium"

    def __init__(self, page):
        self.page = page

    def navigate(self, url):
        self.page.navigate(url)

    def evaluate(self, expression):
        text = self.page.evaluate(f"(async () => JSON.stringify(await ({expression})))()", await_promise=True, timeout=60)
        return None if text is None else json.loads(text)

    def click_at(self, x, y):
        self.page.click(x, y)

    def press(self, key, shift=False):
        from devtools import SHIFT
        self.page.press(key, SHIFT if shift else 0)

    def screenshot(self, path):
        self.page.frames(3)
        self.page.screenshot(path)


# WebDriver's codes for the keys the scenarios press.
WEBDRIVER_KEYS = {"Tab": "\ue004", "Escape": "\ue00c", "Enter": "\ue007", "Shift": "\ue008"}


class FirefoxDriver(Driver):
    """A Firefox (bidi.py) with BiDi's input.performActions: a real pointer and keyboard."""

    name = "Firefox"

    def __init__(self, firefox):
        self.firefox = firefox

    def navigate(self, url):
        self.firefox.navigate(url)

    def evaluate(self, expression):
        return self.firefox.evaluate(expression)

    def actions(self, source):
        self.firefox.command("input.performActions", {"context": self.firefox.context, "actions": [source]})

    def click_at(self, x, y):
        self.actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
            {"type": "pointerMove", "x": int(round(x)), "y": int(round(y)), "origin": "viewport"},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]})

    def press(self, key, shift=False):
        code = WEBDRIVER_KEYS[key]
        keys = [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        if shift:
            keys = [{"type": "keyDown", "value": WEBDRIVER_KEYS["Shift"]}] + keys + [{"type": "keyUp", "value": WEBDRIVER_KEYS["Shift"]}]
        self.actions({"type": "key", "id": "keyboard", "actions": keys})

    def screenshot(self, path):
        self.firefox.screenshot(path)
