"""What every browser check in this folder shares: the failure it raises, the bounded waits, the
imagegallery command line, the editor server (watched by a page, or spoken to over HTTP), the
hang guard, the recording of steps and the one JSON document each check prints; and one page
API over both browsers (Chromium over devtools.py, Firefox ESR over bidi.py).

Each check's scenarios stay in their own files; only the machinery they run on is here.
"""

import argparse
import errno
import hashlib
import http.client
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from devtools import CHROMIUM_MISSING, BrowserGone, DevTools, Tab, find_chromium

# Autosave is 0.5 s after the last edit; this only guards against a hang. A clean-clone run beside
# the other suites on two cores once took more than 10 s to save four dropped format 2.0 images.
DISK_TIMEOUT = 120.0
# What a bounded wait retries on: a check not met yet, a file caught between saves, a page mid-navigation.
RETRIED = (ValueError, RuntimeError, TimeoutError)


class CheckFailed(Exception):
    """A check of the page or of the disk did not hold."""


def log_tail(path, size=4000):
    path = Path(path)
    return path.read_bytes()[-size:].decode(errors="replace") if path.exists() else ""


# MARK: The result


def finish(result, status):
    """Prints the check's one JSON document and exits with `status` (0 passed, 1 failed, 2 could not check)."""
    print(json.dumps(result, indent=2, ensure_ascii=False))
    sys.exit(status)


def could_not_check(error):
    finish({"ok": False, "failures": [str(error)], "steps": [], "screenshots": [], "error": str(error)}, 2)


def http_check(prefix, body):
    """Runs a check over HTTP (security, locks) on its arguments (--editor, --imagegallery,
    --fixtures) and a scratch folder, and prints {ok, failures, checks}; returns the exit status.

    `body(check, options, work, start)` calls `check(name, ok, detail)` for each of its checks and
    `start(folder, xdg, *arguments, log_in=True)` for each editor (an EditorServer), killed at the
    end if still running. A crash of the checker is a failure to check (2), with the checks so far."""
    parser = argparse.ArgumentParser()
    for name in ("--editor", "--imagegallery", "--fixtures"):
        parser.add_argument(name, required=True)
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix=prefix))
    checks, editors = [], []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": detail})

    def start(folder, xdg, *arguments, log_in=True):
        editors.append(EditorServer(options.editor, folder, xdg, *arguments, log_in=log_in))
        return editors[-1]
    try:
        body(check, options, work, start)
    except Exception as error:  # noqa: BLE001 (reported as such)
        print(json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}", "checks": checks}))
        return 2
    finally:
        for editor in editors:
            editor.kill()
        shutil.rmtree(work, ignore_errors=True)
    failures = [f"{c['name']}: {c['detail']}" for c in checks if not c["ok"]]
    print(json.dumps({"ok": not failures, "failures": failures, "checks": checks}))
    return 0 if not failures else 1


class Steps:
    """The scenarios of a browser check, each a step {name, ok, detail} that passes when its body
    returns; what stops one (a check, an error of the page or the protocol) fails it with the
    reason, and the next still runs. Only a browser that went away stops them all."""

    def __init__(self):
        self.steps, self.screenshots = [], []

    @contextmanager
    def step(self, name):
        record = {"name": name, "ok": False, "detail": ""}
        self.steps.append(record)
        try:
            yield record
            record["ok"] = True
        except BrowserGone:
            record["detail"] = "Chromium went away"
            raise
        except CheckFailed as failure:
            record["detail"] = str(failure)
            self.stop_if_crashed()
        except Exception as error:  # noqa: BLE001 (a scenario that cannot run fails, with why)
            record["detail"] = f"could not run: {type(error).__name__}: {error}"
            self.stop_if_crashed()

    def stop_if_crashed(self):
        """Overridden where a crashed page would make every later step fail for no fault of the editor."""

    def failures(self):
        return [f"{step['name']}: {step['detail']}" for step in self.steps if not step["ok"]]

    def result(self):
        """The check's JSON document: {ok, failures, steps, screenshots, console}; a run in which no
        scenario ran fails. `console` is the page's (`self.page`, where there is one)."""
        failures = self.failures()
        if not self.steps:
            failures.append("no scenario ran")
        page = getattr(self, "page", None)
        return {"ok": not failures, "failures": failures, "steps": self.steps, "screenshots": self.screenshots,
                "console": page.console if page else []}


@contextmanager
def hang_guard(timeout, stop):
    """Calls `stop` (which ends every process the check started) if the body takes over `timeout` s."""
    timer = threading.Timer(timeout, stop)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


# MARK: Bounded waits


def until(condition, timeout=DISK_TIMEOUT, interval=0.2):
    """Calls `condition` until it returns something truthy or `timeout` s pass; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def poll(description, probe, timeout=DISK_TIMEOUT, interval=0.25, retried=(CheckFailed,) + RETRIED, failure=None):
    """Calls `probe` until it returns a value other than None, and returns it. Past `timeout` s
    raises CheckFailed: `failure(last problem)` when given, else the description and the last
    problem (an exception of `retried` that `probe` raised)."""
    last = None

    def attempt():
        nonlocal last
        try:
            value = probe()
            return None if value is None else (value,)
        except retried as error:
            last = error
            return None
    found = until(attempt, timeout, interval)
    if found:
        return found[0]
    raise CheckFailed(failure(last) if failure else f"{description}: not within {timeout:.0f} s" + (f" ({last})" if last else ""))


def wait_disk(description, problem, timeout=DISK_TIMEOUT, shows=lambda: None):
    """Polls until `problem()` is None (autosave writes some time after the edit, so the wait is
    bounded but never asserted on); else raises CheckFailed with the last problem and `shows()`."""
    def probe():
        found = problem()
        if found is not None:
            raise CheckFailed(found)
        return True

    def failure(last):
        said = shows()
        return f"{description}: on disk after {timeout:.0f} s: {last}" + (f"; {said}" if said else "")
    poll(description, probe, timeout, 0.2, (CheckFailed, ValueError), failure)


# MARK: The command line and the galleries


def imagegallery_json(binary, *arguments, timeout=60):
    """`imagegallery ARGUMENTS --json`, its output read; CheckFailed when it fails."""
    for attempt in range(50):
        try:
            result = subprocess.run([binary, *arguments, "--json"], capture_output=True, text=True, timeout=timeout)
            break
        except OSError as error:
            # ETXTBSY: the binary is being rebuilt at this moment (a developer's build); it is there again soon.
            if error.errno != errno.ETXTBSY or attempt == 49:
                raise
            time.sleep(0.2)
    if result.returncode != 0:
        raise CheckFailed(f"imagegallery {' '.join(arguments)} failed ({result.returncode}): {result.stderr.strip()}")
    return json.loads(result.stdout)


def fixture_images(fixtures, suffixes=(".jpg", ".png")):
    """The fixture folder's images, sorted by path."""
    return sorted(path for path in Path(fixtures).iterdir() if path.suffix.lower() in suffixes)


def create_gallery(binary, path, title, sources):
    """`imagegallery create PATH --title TITLE SOURCES...`; RuntimeError when it fails (the check cannot check)."""
    result = subprocess.run([binary, "create", str(path), "--title", title, *map(str, sources)], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"imagegallery create {Path(path).name} failed ({result.returncode}): {result.stderr}")
    return Path(path)


def gallery_key(path):
    """The editor's name for a gallery: the first 24 hex digits of the SHA-256 of its resolved path."""
    return hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:24]


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# MARK: The editor server


def read_line(stream, timeout):
    """The first line a child writes on `stream` (a pipe, or its descriptor) within `timeout` s; b"" when none."""
    descriptor = stream if isinstance(stream, int) else stream.fileno()
    line = b""
    deadline = time.monotonic() + timeout
    while not line.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([descriptor], [], [], 0.2)
        if ready:
            chunk = os.read(descriptor, 4096)
            if not chunk:
                break
            line += chunk
    return line


def first_line(stream, timeout):
    """The first line `stream` gives within `timeout` s, as JSON; None when there is none."""
    try:
        return json.loads(read_line(stream, timeout))
    except ValueError:
        return None


class Editor:
    """One editor server, started directly so that its delays can be short, with XDG folders of
    its own, for a browser to open (its log kept in the scratch folder)."""

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
        # --first-page-seconds is long: a browser may take a while to start on a loaded machine.
        self.process = subprocess.Popen(
            [editor, str(folder), "--no-open", "--json", "--autosave-seconds", str(autosave_seconds),
             "--idle-seconds", str(idle_seconds), "--first-page-seconds", "120"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=self.environment)
        self.announcement = first_line(self.process.stdout, timeout=30)

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


def xdg_folders(work, state="state", cache="cache", run="run"):
    """An editor's XDG state, cache and runtime folders in `work` (its own: no running one is reused)."""
    return {"XDG_STATE_HOME": work / state, "XDG_CACHE_HOME": work / cache, "XDG_RUNTIME_DIR": work / run}


class EditorServer:
    """One editor server spoken to over HTTP, as a page or another client would (the security and
    lock checks), with the XDG folders of `xdg` ({name: path}; a running one is reused otherwise).
    With `log_in`, its launch link is used at once and its cookie kept; else that is the caller's
    (the cookie None until then)."""

    def __init__(self, binary, folder, xdg, *arguments, log_in=True):
        environment = dict(os.environ, **{name: str(path) for name, path in xdg.items()})
        self.process = subprocess.Popen([binary, "--no-open", "--json", "--first-page-seconds", "120", *arguments, str(folder)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        line = self.process.stdout.readline().decode()
        if not line:
            raise RuntimeError("the editor printed nothing: " + self.process.stderr.read().decode())
        url = json.loads(line)["url"]
        self.port = int(re.search(r":(\d+)/", url).group(1))
        self.origin = f"http://127.0.0.1:{self.port}"
        self.launch = url.split(str(self.port), 1)[1]
        self.cookie = None
        if log_in:
            status, headers, _ = self.request("GET", self.launch)
            if status != 303:
                raise RuntimeError(f"the launch link answered {status}")
            self.cookie = headers.get("set-cookie", "").split(";", 1)[0]

    def request(self, method, path, body=None, host=None, cookie=True, origin=None, family="127.0.0.1", timeout=30):
        """One request on a connection of its own: `cookie` True sends the session's, a string
        that one, False none. Returns (status, headers with lowercase names, body)."""
        connection = http.client.HTTPConnection(family, self.port, timeout=timeout)
        headers = {"Host": host or f"127.0.0.1:{self.port}"}
        if cookie is True and self.cookie:
            headers["Cookie"] = self.cookie
        elif isinstance(cookie, str):
            headers["Cookie"] = cookie
        if origin:
            headers["Origin"] = origin
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def stop(self):
        """SIGTERM, then its exit status (within 30 s)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# MARK: Starting a check


def editor_arguments(description, imagegallery_help, editor_help, timeout, firefox=False):
    """The arguments every editor browser check takes (`artifacts` a Path, the folder made), and
    the Chromium to run; a missing browser or binary is a failure to check (exit 2)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--imagegallery", required=True, help=imagegallery_help)
    parser.add_argument("--editor", required=True, help=editor_help)
    parser.add_argument("--fixtures", required=True, help="a folder of JPEG and PNG images")
    parser.add_argument("--artifacts", required=True, help="where to save the screenshots")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    if firefox:
        parser.add_argument("--firefox", help="Firefox (default: firefox-esr on PATH)")
    parser.add_argument("--timeout", type=float, default=timeout, help="give up after this many seconds (a hang guard)")
    arguments = parser.parse_args()
    chromium = find_chromium(arguments.chromium)
    if not chromium:
        could_not_check(CHROMIUM_MISSING)
    for name in ("imagegallery", "editor"):
        path = getattr(arguments, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            could_not_check(f"--{name} {path}: no executable file there")
    arguments.artifacts = Path(arguments.artifacts)
    arguments.artifacts.mkdir(parents=True, exist_ok=True)
    return arguments, chromium


def start_editor(arguments, folder, scratch, autosave_seconds, idle_seconds):
    """The editor under test on `folder`; one that announces no address is a failure to check."""
    editor = Editor(arguments.editor, folder, scratch, autosave_seconds, idle_seconds)
    if not editor.announcement or "url" not in editor.announcement:
        editor.stop()
        could_not_check(f"the editor printed no {{url, pid}} line: {editor.log_text()}")
    return editor


def headless_chromium(chromium, scratch):
    """Headless Chromium, 1280×900, in which every name but 127.0.0.1 stays unresolvable, so
    nothing the page asks for leaves the machine."""
    return DevTools(chromium, scratch / "profile", scratch / "chromium.log", window_size=(1280, 900),
                    host_rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")


def run_and_report(scenarios, devtools, editor, timeout, chromium, editor_path, scratch, stop=()):
    """Runs `scenarios` (killing Chromium after `timeout` s), stops Chromium, the editor and each
    of `stop`, then prints the result and exits: 0 when every check passed, 1 when one failed, 2
    when the run could not finish."""
    error = None
    try:
        with hang_guard(timeout, devtools.process.kill):
            scenarios.run()
    except (BrowserGone, TimeoutError, RuntimeError) as problem:
        error = f"{type(problem).__name__}: {problem}"
    finally:
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


# MARK: Pages


def console_entry(devtools, session, message):
    """What a DevTools event says went wrong in a page, {kind, text[, url]}, or None: a console
    error, an uncaught exception, an error in the browser's log, a dialog (dismissed here) or a crash."""
    method, params = message.get("method"), message.get("params", {})
    if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
        text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
        return {"kind": "console." + params["type"], "text": text}
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        return {"kind": "exception", "text": str(details.get("exception", {}).get("description") or details.get("text")),
                "url": details.get("url")}
    if method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
        entry = params["entry"]
        return {"kind": "log." + entry.get("source", "other"), "text": entry.get("text"), "url": entry.get("url")}
    if method == "Page.javascriptDialogOpening":
        devtools.post("Page.handleJavaScriptDialog", {"accept": False}, session)
        return {"kind": "dialog", "text": f"a {params.get('type')} dialog opened: {params.get('message')}"}
    if method in ("Inspector.targetCrashed", "Target.targetCrashed"):
        return {"kind": "crash", "text": "the page crashed"}
    return None


def describe(entry):
    """A console entry as one line: its kind, its text and where."""
    return f"{entry['kind']}: {entry['text']}" + (f" ({entry['url']})" if entry.get("url") else "")


class BrowserPage:
    """The page API both browsers share: navigate, evaluate (a value through JSON, a promise
    awaited), wait_until, kill, close and log. ChromiumPage and FirefoxPage speak their protocols."""

    name = "a browser"

    def wait_until(self, description, expression, timeout=DISK_TIMEOUT):
        """Polls until `expression` is truthy in the page; returns its value."""
        return poll(f"{self.name}: {description}", lambda: self.evaluate(expression) or None, timeout)


class ChromiumPage(BrowserPage):
    """A headed Chromium on $DISPLAY with one tab, activated (the desktop drag checks)."""

    name = "Chromium"

    def __init__(self, path, scratch):
        self.devtools = DevTools(path, scratch / "chromium-profile", scratch / "chromium.log", window_size=(1280, 900),
                                 host_rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", headless=False)
        self.tab = Tab(self.devtools)
        self.tab.call("Page.enable")
        self.tab.call("Target.activateTarget", {"targetId": self.tab.target})

    def navigate(self, url):
        self.tab.navigate(url)

    def evaluate(self, expression):
        text = self.tab.evaluate(f"(async () => JSON.stringify(await ({expression})))()", await_promise=True, timeout=60)
        return None if text is None else json.loads(text)

    def screenshot(self, path):
        self.tab.screenshot(path)

    def kill(self):
        self.devtools.process.kill()

    def close(self):
        self.devtools.close()

    def log(self):
        return log_tail(self.devtools.log.name)


class FirefoxPage(BrowserPage):
    """A headed Firefox ESR on $DISPLAY and its first tab, over WebDriver BiDi."""

    name = "Firefox"

    def __init__(self, path, scratch):
        from bidi import Firefox  # websocket-client only where Firefox is used
        self.firefox = Firefox(path, scratch / "firefox-profile", scratch / "firefox.log")

    @classmethod
    def wrapping(cls, firefox):
        """The page API over a Firefox started by the caller (a headless one, with preferences of its own)."""
        page = cls.__new__(cls)
        page.firefox = firefox
        return page

    def navigate(self, url):
        self.firefox.navigate(url)

    def evaluate(self, expression):
        return self.firefox.evaluate(expression)

    def screenshot(self, path):
        self.firefox.screenshot(path)

    def kill(self):
        self.firefox.process.kill()

    def close(self):
        self.firefox.close()

    def log(self):
        return log_tail(self.firefox.log_path)
