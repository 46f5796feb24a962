"""What the editor's browser checks (check-editor.py, check-editor-more.py) share: the editor
server each starts, the run of its scenarios in Chromium, and the JSON document each prints."""

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from devtools import CHROMIUM_MISSING, BrowserGone, find_chromium, log_tail


def finish(result, status):
    print(json.dumps(result, indent=2, ensure_ascii=False))
    sys.exit(status)


def could_not_check(error):
    finish({"ok": False, "failures": [str(error)], "steps": [], "screenshots": [], "error": str(error)}, 2)


class Editor:
    """One editor server, started directly so that its delays can be short, with XDG folders of its own."""

    def __init__(self, editor, folder, scratch, autosave_seconds=0.5, idle_seconds=2):
        scratch.mkdir(mode=0o700, exist_ok=True)
        self.environment = dict(os.environ)
        for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "HOME"):
            path = scratch / name.lower()
            path.mkdir(mode=0o700, exist_ok=True)
            self.environment[name] = str(path)
        self.data_home = Path(self.environment["XDG_DATA_HOME"])
        self.log_path = scratch / "editor.log"
        self.log = open(self.log_path, "wb")
        # --first-page-seconds is long: Chromium may take a while to start on a loaded machine.
        self.process = subprocess.Popen(
            [editor, str(folder), "--no-open", "--json", "--autosave-seconds", str(autosave_seconds),
             "--idle-seconds", str(idle_seconds), "--first-page-seconds", "120"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=self.environment)
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
        if not self.log.closed:
            self.log.close()
        return self.process.returncode

    def log_text(self):
        return log_tail(self.log_path)


def arguments_and_chromium(description, imagegallery_help, editor_help, timeout):
    """The arguments every check takes, and the Chromium to run; a missing browser or binary is a
    failure to check (exit 2)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--imagegallery", required=True, help=imagegallery_help)
    parser.add_argument("--editor", required=True, help=editor_help)
    parser.add_argument("--fixtures", required=True, help="a folder of JPEG and PNG images")
    parser.add_argument("--artifacts", required=True, help="where to save the screenshots")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    parser.add_argument("--timeout", type=float, default=timeout, help="give up after this many seconds (a hang guard)")
    arguments = parser.parse_args()
    chromium = find_chromium(arguments.chromium)
    if not chromium:
        could_not_check(CHROMIUM_MISSING)
    for name in ("imagegallery", "editor"):
        path = getattr(arguments, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            could_not_check(f"--{name} {path}: no executable file there")
    return arguments, chromium


def run_and_report(scenarios, devtools, editor, timeout, chromium, editor_path, scratch, stop=()):
    """Runs `scenarios` (killing Chromium after `timeout` s), stops Chromium, the editor and each
    of `stop`, then prints the result and exits: 0 when every check passed, 1 when one failed, 2
    when the run could not finish."""
    timer = threading.Timer(timeout, devtools.process.kill)
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
        for stopping in stop:
            stopping()
    result = scenarios.result()
    result.update({"chromium": chromium, "editor": editor_path, "editorExit": editor.process.returncode,
                   "editorLog": editor.log_text()})
    if error is not None:
        result["ok"] = False
        result["error"] = error
        result["failures"].append(f"the check could not finish: {error}")
        result["chromiumLog"] = log_tail(scratch / "chromium.log")
        finish(result, 2)
    finish(result, 0 if result["ok"] else 1)
