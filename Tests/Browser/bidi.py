"""Firefox ESR (Debian's firefox-esr) over WebDriver BiDi, for the browser checks that run in
Firefox as well as Chromium.

Firefox is started with --remote-debugging-port and a profile of its own; BiDi is its WebSocket
at ws://127.0.0.1:PORT/session, spoken with Python's websocket-client (Debian's
python3-websocket). Two things this Firefox insists on: the handshake must carry no Origin
header (`suppress_origin=True`, else 400), and a session must be ended with `session.end`
(else the next one is refused).
"""

import base64
import itertools
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

from harness import log_tail

STEP_TIMEOUT = 60.0  # seconds for one command; a guard against hangs only

FIREFOX_MISSING = ("firefox-esr is not installed (Debian: apt-get install firefox-esr; "
                   "scripts/install-deps test installs it)")

# What a test profile wants: no first-run pages or updates, and no menu bar toggled by Alt (a
# drag with Alt held would otherwise move the page down when Alt is let go).
PREFERENCES = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.enabled": False,
    "browser.tabs.warnOnClose": False,
    "ui.key.menuAccessKeyFocuses": False,
    "network.proxy.type": 0,
}


def find_firefox(explicit=None):
    return explicit or shutil.which("firefox-esr") or shutil.which("firefox")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Firefox:
    """One headed (or headless) Firefox and one BiDi session on its first tab."""

    def __init__(self, firefox, profile, log_path, headless=False, start_timeout=120, preferences=None):
        import websocket  # python3-websocket; imported here so that a missing one is reported by the caller

        profile = Path(profile)
        profile.mkdir(parents=True, exist_ok=True)
        chosen = {**PREFERENCES, **(preferences or {})}
        (profile / "user.js").write_text("".join(f'user_pref("{name}", {json.dumps(value)});\n'
                                                 for name, value in chosen.items()))
        port = free_port()
        self.log_path = Path(log_path)
        self.log = open(self.log_path, "wb")
        command = [firefox, "--no-remote", "--new-instance", "--profile", str(profile),
                   f"--remote-debugging-port={port}", "about:blank"]
        if headless:
            command.insert(1, "--headless")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        self.numbers = itertools.count(1)
        self.socket = None
        # Firefox says "WebDriver BiDi listening on ws://..." once the port is open: until then, retry.
        deadline = time.monotonic() + start_timeout
        last = None
        while self.socket is None:
            if self.process.poll() is not None:
                raise RuntimeError(f"Firefox exited ({self.process.returncode}) before BiDi answered: {log_tail(self.log_path)}")
            try:
                self.socket = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=STEP_TIMEOUT,
                                                          suppress_origin=True)
            except (OSError, websocket.WebSocketException) as error:
                last = error
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Firefox's BiDi did not answer on port {port} in {start_timeout} s: {last}")
                time.sleep(0.5)
        self.command("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": False}}})
        self.session_open = True
        self.context = self.command("browsingContext.getTree", {})["contexts"][0]["context"]

    def command(self, method, params, timeout=STEP_TIMEOUT):
        number = next(self.numbers)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = json.loads(self.socket.recv())
            except Exception as error:  # a timeout or a closed socket: the browser is stuck or gone
                raise TimeoutError(f"no reply to {method}: {type(error).__name__}: {error}")
            if message.get("id") != number:
                continue  # an event, or the reply to an earlier command
            if message.get("type") == "error":
                raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message.get("result", {})

    def navigate(self, url):
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression, timeout=STEP_TIMEOUT):
        """The value of `expression` (awaited if a promise), through JSON."""
        wrapped = f"(async () => JSON.stringify(await ({expression})))()"
        result = self.command("script.evaluate", {"expression": wrapped, "target": {"context": self.context},
                                                  "awaitPromise": True, "resultOwnership": "none"}, timeout=timeout)
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise RuntimeError(details.get("text") or json.dumps(details)[:500])
        value = result.get("result", {})
        return json.loads(value["value"]) if value.get("type") == "string" else None

    def set_viewport(self, width, height):
        self.command("browsingContext.setViewport", {"context": self.context, "viewport": {"width": width, "height": height}})

    def screenshot(self, path):
        data = self.command("browsingContext.captureScreenshot", {"context": self.context})["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def set_files(self, selector, paths):
        """Chooses `paths` in the file input `selector`, as a person does in the file chooser."""
        found = self.command("script.evaluate", {"expression": f"document.querySelector({json.dumps(selector)})",
                                                 "target": {"context": self.context}, "awaitPromise": False,
                                                 "resultOwnership": "root"})
        node = found.get("result", {})
        if node.get("type") != "node":
            raise RuntimeError(f"no element {selector} to choose files in: {found}")
        self.command("input.setFiles", {"context": self.context, "element": {"sharedId": node["sharedId"]},
                                        "files": [str(path) for path in paths]})

    def close(self):
        if self.socket is not None:
            try:
                if getattr(self, "session_open", False):
                    self.command("session.end", {}, timeout=10)
                    self.session_open = False
            except Exception:  # noqa: BLE001 (closing anyway)
                pass
            try:
                self.socket.close()
            except Exception:  # noqa: BLE001
                pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if not self.log.closed:
            self.log.close()
