"""The web gallery's slideshow in Firefox ESR, headless over WebDriver BiDi (bidi.py): it plays in
the gallery's order (read from pixels) and follows the keyboard. Used by check-web-slideshow.py."""

import json
from pathlib import Path

from harness import CheckFailed, poll
from web_slides import PLAYING_INTERVAL, STATE_SCRIPT, WINDOW, firefox_pixel, read_while_still, still

# WebDriver's key values.
KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "Escape": "\ue00c", " ": " "}
TOLERANCE = 24


class FirefoxSlides:
    def __init__(self, firefox):
        self.firefox = firefox

    def press(self, name):
        value = KEYS[name]
        self.firefox.command("input.performActions", {"context": self.firefox.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]}]})

    def click(self, selector):
        box = self.firefox.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                                    " return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; })()")
        self.firefox.command("input.performActions", {"context": self.firefox.context, "actions": [
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": box[0], "y": box[1], "origin": "viewport"},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def state(self):
        return self.firefox.evaluate(STATE_SCRIPT)

    def wait(self, description, predicate, timeout=30):
        return poll(f"Firefox: {description}", lambda: (lambda s: s if predicate(s) else None)(self.state()), timeout, 0.1,
                    failure=lambda _last: f"Firefox: {description}: not reached (last state: {json.dumps(self.state())})")

    def stage_pixel(self):
        box = self.firefox.evaluate("(() => { const r = document.querySelector('.slideshow-stage').getBoundingClientRect();"
                                    " return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; })()")
        return firefox_pixel(self.firefox, box[0], box[1])

    def expect_slide(self, number, why):
        state = self.wait(f"slide {number} shown and still", lambda s: still(s, number))
        reading = read_while_still(self.stage_pixel, self.state, number)
        if reading is None:
            raise CheckFailed(f"Firefox: {why}: slide {number} moved on before its pixels were read")
        seen, distance = reading
        if seen != number or distance > TOLERANCE:
            raise CheckFailed(f"Firefox: {why}: slide {number} is announced, the screen shows colour {seen} ({distance:.0f} off)")
        if "/sized/" not in (state["src"] or ""):
            raise CheckFailed(f"Firefox: {why}: slide {number} shows {state['src']}, not a rendition")


def firefox_plays_in_order(index, scratch, artifacts, screenshots, explicit=None):
    """Plays from the third tile by the keyboard alone and checks order, Space, arrows and Escape."""
    from bidi import Firefox, find_firefox
    path = find_firefox(explicit)
    if path is None:
        raise CheckFailed("firefox-esr is not installed: scripts/install-deps test installs it")
    firefox = Firefox(path, Path(scratch) / "firefox-profile", Path(scratch) / "firefox.log", headless=True)
    try:
        firefox.set_viewport(*WINDOW)
        firefox.navigate(index.as_uri())
        slides = FirefoxSlides(firefox)
        for _ in range(3):
            slides.press("ArrowRight")
        slides.wait("the third tile focused", lambda s: s["focusedTile"] == "i3")
        # A click on Play (BiDi's synthesized Enter reaches keydown but does not press a button in
        # Firefox ESR 153): it starts from the tile chosen last by the keyboard.
        slides.click("#play")
        slides.expect_slide(3, "Play from the third tile")
        firefox.evaluate("(() => { const s = document.querySelector('.slideshow select'); s.value = '%s';"
                         " s.dispatchEvent(new Event('change')); return true; })()" % PLAYING_INTERVAL)
        for number in (4, 5):
            slides.expect_slide(number, "playing on")
        # Space on the page pauses (on a focused button Space presses the button, which BiDi's
        # synthesized keys do not do in Firefox ESR 153): the focus off the pause button first.
        firefox.evaluate("(document.activeElement.blur(), true)")
        slides.press(" ")
        paused = slides.wait("paused by Space", lambda s: s["mode"] == "paused")
        here = int(paused["slide"])
        slides.press("ArrowRight")
        slides.expect_slide(here % 6 + 1, "ArrowRight")
        slides.press("ArrowLeft")
        slides.expect_slide(here, "ArrowLeft")
        shot = Path(artifacts) / "slideshow-firefox.png"
        firefox.screenshot(shot)
        screenshots.append(str(shot))
        slides.press("Escape")
        slides.wait(f"the grid again on tile {here}", lambda s: not s["open"] and s["focusedTile"] == f"i{here}")
        return f"played 3, 4, 5 in order; Space paused on {here}; arrows moved; Escape focused tile i{here}"
    finally:
        firefox.close()
