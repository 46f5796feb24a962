"""The editor's slideshow as check-editor-slideshow.py sees it, in Chromium (DevTools) and in
Firefox ESR (WebDriver BiDi) alike: what the page shows, read from the DOM, the colour a
screenshot finds in the middle of the slide, and real keys (never the page's own functions).
"""

import json
import tempfile
from pathlib import Path

from editor_privacy_page import WEBDRIVER_KEYS, ChromiumDriver, FirefoxDriver
from harness import CheckFailed, poll

# Seconds for the page to show what a key does (a slide's rendition is made on first request).
SLIDE_TIMEOUT = 60

# What the show and the grid show: the slide on top (its address and size), the show's state,
# the live region, the focus, and each cell with its cover badge.
SLIDE_STATE = """(() => {
  const root = document.getElementById('slideshow');
  const shown = !!root && !root.hidden;
  const slides = shown ? [...document.querySelectorAll('#slide-stage img.slide')] : [];
  const top = slides[slides.length - 1];
  const stage = document.getElementById('slide-stage');
  const box = stage ? stage.getBoundingClientRect() : null;
  const active = document.activeElement;
  const badge = (cell) => { const b = cell.querySelector('.cover-badge'); const r = b.getBoundingClientRect();
    return {label: b.getAttribute('aria-label'), role: b.getAttribute('role'),
            visible: r.width >= 12 && r.height >= 12 && getComputedStyle(b).display !== 'none'}; };
  return {
    shown, id: shown ? root.dataset.id ?? null : null, playing: shown && root.dataset.playing === 'true',
    fades: shown ? Number(root.dataset.fades || 0) : 0, animations: document.getAnimations().length,
    slide: top ? {src: top.getAttribute('src'), width: top.naturalWidth, height: top.naturalHeight, complete: top.complete} : null,
    live: document.getElementById('slide-live')?.textContent ?? null,
    caption: document.getElementById('slide-caption')?.textContent ?? null,
    pauseLabel: document.getElementById('slide-pause')?.getAttribute('aria-label') ?? null,
    screenSide: Math.max(screen.width, screen.height) * devicePixelRatio,
    centre: box ? {x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2)} : null,
    fullscreen: !!document.fullscreenElement, focusInShow: shown && root.contains(active),
    focusedCell: active && active.classList && active.classList.contains('image-cell') ? active.dataset.id : null,
    cells: [...document.querySelectorAll('#image-grid .image-cell[data-id]')].map((cell) => ({
      id: cell.dataset.id, name: cell.querySelector('.name').textContent, label: cell.getAttribute('aria-label'),
      selected: cell.getAttribute('aria-selected') === 'true', cover: cell.classList.contains('cover'), badge: badge(cell)})),
    gallery: !document.getElementById('gallery-view').hidden && document.readyState === 'complete',
  };
})()"""

# WebDriver's codes for the keys a slideshow takes, beside those editor_privacy_page.py names.
SLIDE_KEYS = {**WEBDRIVER_KEYS, "ArrowRight": "\ue014", "ArrowLeft": "\ue012", " ": " ", "p": "p", "u": "u", "z": "z"}


class SlideDriver:
    """What the slideshow check asks of either browser, over its driver (editor_privacy_page.py)."""

    def slides(self):
        return self.evaluate(SLIDE_STATE)

    def until(self, description, predicate, timeout=SLIDE_TIMEOUT):
        """Polls the page until `predicate(state)` holds; returns that state. CheckFailed shows the last state."""
        seen = {}

        def probe():
            seen["last"] = state = self.slides()
            return state if state and predicate(state) else None

        def failure(problem):
            last = dict(seen.get("last") or {})
            last["cells"] = [cell["name"] for cell in last.get("cells", [])]
            return f"{self.name}: {description}: not within {timeout} s (page: {json.dumps(last)[:1200]})" + (
                f"; {problem}" if problem and not seen.get("last") else "")
        return poll(description, probe, timeout, 0.05, failure=failure)

    def colour_at(self, x, y):
        """The colour painted at (x, y), from a screenshot of the page."""
        from PIL import Image
        # Two animation frames first: the slide the page has just put in is painted by then.
        self.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        with tempfile.TemporaryDirectory(prefix="slide-sample-") as folder:
            path = Path(folder) / "shot.png"
            self.screenshot(path)
            with Image.open(path) as image:
                return image.convert("RGB").getpixel((x, y))


class ChromiumSlides(SlideDriver, ChromiumDriver):
    def key(self, name, modifiers=0):
        self.page.press(name, modifiers)


class FirefoxSlides(SlideDriver, FirefoxDriver):
    def key(self, name, modifiers=0):
        if modifiers:
            raise CheckFailed("the Firefox scenario presses no modifier")
        code = SLIDE_KEYS[name]
        self.actions({"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]})
