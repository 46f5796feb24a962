"""Headless Chromium over the DevTools protocol, with the standard library only.

Chromium is started with --remote-debugging-pipe: it reads commands on its fd 3 and writes
replies on its fd 4, each a JSON text ended by NUL, so no websocket library is needed. Shared by
the browser checks in this folder, through harness.py.
"""

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

STEP_TIMEOUT = 30.0  # seconds for one command or one page to settle; a guard against hangs only

CHROMIUM_MISSING = ("chromium is not installed (Debian: apt-get install chromium; "
                    "scripts/install-deps test installs it)")


class BrowserGone(Exception):
    pass


def find_chromium(explicit=None):
    """The browser to run: `explicit`, else chromium on PATH; None when there is none."""
    return explicit or shutil.which("chromium") or shutil.which("chromium-browser")


class DevTools:
    """A DevTools protocol connection over Chromium's pipe."""

    def __init__(self, chromium, profile, log_path, window_size=(1280, 800), host_rules="MAP * ~NOTFOUND", headless=True):
        """`headless=False`: a real window at the screen's top left, on $DISPLAY (Xvfb in the
        desktop drag checks), which takes part in the desktop's drag and drop."""
        command_read, command_write = os.pipe()
        reply_read, reply_write = os.pipe()
        # Chromium wants the pipe on fds 3 and 4 exactly; bash puts them there (dash takes single-digit
        # fds only). The ends are
        # first moved above 9 so that the redirections cannot clobber one another.
        child_read = fcntl.fcntl(command_read, fcntl.F_DUPFD, 10)
        child_write = fcntl.fcntl(reply_write, fcntl.F_DUPFD, 10)
        os.close(command_read)
        os.close(reply_write)
        width, height = window_size
        flags = [
            "--headless=new" if headless else "--window-position=0,0", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
            "--disable-dev-shm-usage", f"--window-size={width},{height}", "--force-device-scale-factor=1",
            f"--host-resolver-rules={host_rules}", "about:blank",
        ]
        script = f'exec "$0" "$@" 3<&{child_read} 4>&{child_write} {child_read}<&- {child_write}>&-'
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(["/bin/bash", "-c", script, chromium] + flags,
                                        pass_fds=(child_read, child_write), stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=self.log)
        os.close(child_read)
        os.close(child_write)
        self.writer = os.fdopen(command_write, "wb", buffering=0)
        self.reader = os.fdopen(reply_read, "rb", buffering=0)
        self.write_lock = threading.Lock()
        self.next_id = 0
        self.replies = {}
        self.replies_ready = threading.Condition()
        self.events = queue.Queue()
        self.listeners = []
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = self.reader.read(65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                text, buffer = buffer.split(b"\0", 1)
                message = json.loads(text)
                if "id" in message:
                    with self.replies_ready:
                        self.replies[message["id"]] = message
                        self.replies_ready.notify_all()
                else:
                    for listener in self.listeners:
                        listener(message)
        with self.replies_ready:
            self.closed = True
            self.replies_ready.notify_all()

    def post(self, method, params=None, session=None):
        """Sends a command; returns its id without waiting."""
        with self.write_lock:
            self.next_id += 1
            message = {"id": self.next_id, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            try:
                self.writer.write(json.dumps(message).encode() + b"\0")
            except OSError as error:
                raise BrowserGone(f"cannot send {method}: {error}")
            return self.next_id

    def call(self, method, params=None, session=None, timeout=STEP_TIMEOUT):
        number = self.post(method, params, session)
        deadline = time.monotonic() + timeout
        with self.replies_ready:
            while number not in self.replies:
                if self.closed:
                    raise BrowserGone(f"Chromium closed the pipe during {method}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no reply to {method} in {timeout:.0f} s")
                self.replies_ready.wait(left)
            reply = self.replies.pop(number)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def close(self):
        try:
            self.post("Browser.close")
        except BrowserGone:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for stream in (self.writer, self.reader, self.log):
            try:
                stream.close()
            except OSError:
                pass


# name: (windowsVirtualKeyCode, code, text typed or None)
KEYS = {
    "ArrowRight": (39, "ArrowRight", None), "ArrowLeft": (37, "ArrowLeft", None),
    "ArrowDown": (40, "ArrowDown", None), "ArrowUp": (38, "ArrowUp", None),
    "Home": (36, "Home", None), "End": (35, "End", None), "Escape": (27, "Escape", None),
    "Enter": (13, "Enter", "\r"), "+": (107, "NumpadAdd", "+"), "-": (109, "NumpadSubtract", "-"),
    "0": (48, "Digit0", "0"), "Delete": (46, "Delete", None), "Tab": (9, "Tab", None),
    "a": (65, "KeyA", "a"), "z": (90, "KeyZ", "z"), "s": (83, "KeyS", "s"), "y": (89, "KeyY", "y"),
    "m": (77, "KeyM", "m"), "c": (67, "KeyC", "c"), "d": (68, "KeyD", "d"),
    "F2": (113, "F2", None), "p": (80, "KeyP", "p"), "u": (85, "KeyU", "u"), " ": (32, "Space", " "),
}

# Input.dispatchKeyEvent's modifier bits.
ALT, CTRL, META, SHIFT = 1, 2, 4, 8


class Tab:
    """One page target, attached with a flat session: commands, scripts, keys, the mouse."""

    def __init__(self, devtools, url="about:blank"):
        self.devtools = devtools
        self.target = devtools.call("Target.createTarget", {"url": url})["targetId"]
        self.session = devtools.call("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]

    def call(self, method, params=None, timeout=STEP_TIMEOUT):
        return self.devtools.call(method, params, self.session, timeout=timeout)

    def post(self, method, params=None):
        return self.devtools.post(method, params, self.session)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression, await_promise=False, timeout=STEP_TIMEOUT):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text", "evaluation failed"))
        return result["result"].get("value")

    def frames(self, count=2):
        """Waits for `count` animation frames, so that layout after a change is done."""
        self.evaluate("new Promise(r => { let n = %d; const f = () => --n ? requestAnimationFrame(f) : r(); "
                      "requestAnimationFrame(f); })" % max(1, count), True)

    def press(self, name, modifiers=0):
        code, key_code, text = KEYS[name]
        key = name
        if text and modifiers & SHIFT and len(text) == 1:
            key = text.upper()
        # A key with Ctrl or Alt types nothing; sending text with it would type the letter.
        typed = text if text and not modifiers & (CTRL | ALT | META) else None
        down = {"type": "keyDown" if typed else "rawKeyDown", "key": key, "code": key_code, "modifiers": modifiers,
                "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        if typed:
            down["text"] = down["unmodifiedText"] = typed
        self.call("Input.dispatchKeyEvent", down)
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": key_code, "modifiers": modifiers,
                                             "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})

    def mouse(self, kind, x, y, buttons=0, modifiers=0, click_count=0):
        params = {"type": kind, "x": x, "y": y, "modifiers": modifiers, "buttons": buttons}
        if kind in ("mousePressed", "mouseReleased") or buttons:
            params["button"] = "left"
        if click_count:
            params["clickCount"] = click_count
        self.call("Input.dispatchMouseEvent", params)

    def click(self, x, y, modifiers=0):
        self.mouse("mouseMoved", x, y, modifiers=modifiers)
        self.mouse("mousePressed", x, y, buttons=1, modifiers=modifiers, click_count=1)
        self.mouse("mouseReleased", x, y, buttons=0, modifiers=modifiers, click_count=1)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        Path(path).write_bytes(base64.b64decode(data))
