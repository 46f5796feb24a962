#!/usr/bin/python3
"""Checks the gallery editor (`imagegallery edit`) in headless Chromium, as a person uses it.

    check-editor.py --imagegallery BIN --editor EDITOR --fixtures IMAGES --artifacts DIR [--chromium PATH]

Makes two galleries in a temporary folder ("First" of every fixture image, "Second" of three),
starts EDITOR on that folder with short autosave and idle delays, opens its one-time link in
headless Chromium (driven over --remote-debugging-pipe, devtools.py) and works through the
scenarios of editor_scenarios.py with real mouse, keyboard and drag events. Every edit is then
checked on disk with `imagegallery list --json` and `info --json`, never only in the page.

Saves screenshots of the document browser and of a gallery into DIR, prints one JSON document
{ok, failures, steps: [{name, ok, detail}], screenshots, ...} and exits 0 when every check passed,
1 when a check failed, 2 when it could not check (Chromium missing or crashed, no editor).
"""

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# Run as a script from any folder: the shared modules sit beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from devtools import CHROMIUM_MISSING, BrowserGone, DevTools, find_chromium, log_tail  # noqa: E402
from editor_scenarios import Scenarios  # noqa: E402

AUTOSAVE_SECONDS = 0.5
IDLE_SECONDS = 2
SECOND_GALLERY = ["1-sunset.jpg", "2-tiles.png", "3-lighthouse.jpg"]


def finish(result, status):
    print(json.dumps(result, indent=2, ensure_ascii=False))
    sys.exit(status)


class Editor:
    """The editor's server, started directly so that its delays can be short."""

    def __init__(self, editor, folder, scratch):
        environment = dict(os.environ)
        for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "HOME"):
            path = scratch / name.lower()
            path.mkdir(mode=0o700, exist_ok=True)
            environment[name] = str(path)
        self.log_path = scratch / "editor.log"
        self.log = open(self.log_path, "wb")
        # --first-page-seconds is long: Chromium may take a while to start on a loaded machine.
        self.process = subprocess.Popen(
            [editor, str(folder), "--no-open", "--json", "--autosave-seconds", str(AUTOSAVE_SECONDS),
             "--idle-seconds", str(IDLE_SECONDS), "--first-page-seconds", "120"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=environment)
        self.announcement = self._first_line(timeout=30)

    def _first_line(self, timeout):
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
        try:
            return json.loads(line)
        except ValueError:
            return None

    def wait(self, timeout):
        """The exit status, or None if it is still running after `timeout` seconds."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            if self.wait(20) is None:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def log_text(self):
        return log_tail(self.log_path)


def make_galleries(imagegallery, fixtures, folder):
    """Two galleries; returns their paths. A gallery that cannot be made is an error (exit 2)."""
    images = sorted(path for path in Path(fixtures).iterdir() if path.suffix.lower() in (".jpg", ".png"))
    made = {}
    for title, sources in (("First", [str(path) for path in images]),
                           ("Second", [str(Path(fixtures) / name) for name in SECOND_GALLERY])):
        path = folder / f"{title}.imagegallery"
        result = subprocess.run([imagegallery, "create", str(path), "--title", title] + sources,
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"imagegallery create {path.name} failed ({result.returncode}): {result.stderr}")
        made[title] = path
    return made, len(images)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--imagegallery", required=True, help="the imagegallery binary (for create, list, info)")
    parser.add_argument("--editor", required=True, help="the imagegallery-editor binary under test")
    parser.add_argument("--fixtures", required=True, help="a folder of JPEG and PNG images")
    parser.add_argument("--artifacts", required=True, help="where to save the screenshots")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    parser.add_argument("--timeout", type=float, default=300, help="give up after this many seconds (a hang guard)")
    arguments = parser.parse_args()

    chromium = find_chromium(arguments.chromium)
    if not chromium:
        finish({"ok": False, "failures": [CHROMIUM_MISSING], "steps": [], "screenshots": [], "error": CHROMIUM_MISSING}, 2)
    for name in ("imagegallery", "editor"):
        path = getattr(arguments, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            error = f"--{name} {path}: no executable file there"
            finish({"ok": False, "failures": [error], "steps": [], "screenshots": [], "error": error}, 2)
    artifacts = Path(arguments.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="check-editor-") as scratch:
        scratch = Path(scratch)
        folder = scratch / "galleries"
        folder.mkdir()
        try:
            galleries, image_count = make_galleries(arguments.imagegallery, arguments.fixtures, folder)
        except (RuntimeError, OSError) as error:
            finish({"ok": False, "failures": [str(error)], "steps": [], "screenshots": [], "error": str(error)}, 2)
        editor = Editor(arguments.editor, folder, scratch)
        if not editor.announcement or "url" not in editor.announcement:
            editor.stop()
            error = f"the editor printed no {{url, pid}} line: {editor.log_text()}"
            finish({"ok": False, "failures": [error], "steps": [], "screenshots": [], "error": error}, 2)

        # Every name but the editor's address stays unresolvable, so nothing the page asks for leaves the machine.
        devtools = DevTools(chromium, scratch / "profile", scratch / "chromium.log", window_size=(1280, 900),
                            host_rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
        scenarios = Scenarios(devtools, editor, arguments.imagegallery, folder, galleries, image_count, artifacts,
                              idle_seconds=IDLE_SECONDS)
        timer = threading.Timer(arguments.timeout, devtools.process.kill)
        timer.start()
        error = None
        try:
            scenarios.run()
        except (BrowserGone, TimeoutError, RuntimeError) as problem:
            error = f"{type(problem).__name__}: {problem}"
        finally:
            timer.cancel()
            devtools.close()
            editor.stop()
        chromium_log = log_tail(scratch / "chromium.log")
        editor_log = editor.log_text()

    result = scenarios.result()
    result.update({"chromium": chromium, "editor": arguments.editor, "editorExit": editor.process.returncode,
                   "editorLog": editor_log})
    if error is not None:
        result["ok"] = False
        result["error"] = error
        result["failures"].append(f"the check could not finish: {error}")
        result["chromiumLog"] = chromium_log
        finish(result, 2)
    finish(result, 0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
