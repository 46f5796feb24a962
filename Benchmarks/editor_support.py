"""What Benchmarks/editor.py needs around the measurements: the editor's process, its HTTP
interface as a script uses it, a Chromium tab, the file on disk, figures and the markdown.
Standard library only, plus Tests/Browser/devtools.py.
"""

import hashlib
import http.client
import json
import os
import select
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "Browser"))
from devtools import CTRL, DevTools, Tab, find_chromium  # noqa: E402,F401

MARK = "imagegallery-grid-painted"
MARK_SCRIPT = ("(() => { const m = performance.getEntriesByName(%s)[0]; "
               "return m ? {start: m.startTime, origin: performance.timeOrigin} : null; })()" % json.dumps(MARK))


def private_env(root):
    """The environment with this run's own cache, state, runtime folder and home."""
    env = dict(os.environ)
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "HOME"):
        path = Path(root).resolve() / name.lower()  # relative XDG paths are ignored, by the spec
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        env[name] = str(path)
    return env


class Editor:
    """An editor server started by `argv` (imagegallery edit … or imagegallery-editor …): the
    wall-clock time of the spawn, of its {pid, url} line, and its stop."""

    def __init__(self, argv, env, log_path, timeout=60):
        self.log = open(log_path, "wb")
        self.spawn_epoch, self.spawn = time.time(), time.monotonic()
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=self.log, env=env)
        line, deadline = b"", self.spawn + timeout
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            if select.select([self.process.stdout], [], [], 0.05)[0]:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
        self.announced = time.monotonic()
        try:
            self.info = json.loads(line)
        except ValueError:
            self.stop()
            raise RuntimeError(f"no {{pid, url}} line from {' '.join(map(str, argv))}: {line!r}; "
                               f"log: {Path(log_path).read_text(errors='replace')[-800:]}")
        self.url, self.pid = self.info["url"], self.info["pid"]
        self.port = urllib.parse.urlsplit(self.url).port
        self.origin = f"http://127.0.0.1:{self.port}"

    def memory_kib(self):
        """{VmHWM, VmRSS} in KiB from /proc/PID/status."""
        out = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0])
        return out

    def stop(self, timeout=180):
        """SIGTERM (the final save), then its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


def gallery_key(path):
    return hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:24]


class Session:
    """The HTTP interface as a script uses it (Specs/editor.md section 3): the launch link's
    redirect gives the session cookie; state-changing requests carry a matching Origin."""

    def __init__(self, editor):
        self.editor, self.page = editor, uuid.uuid4().hex
        parts = urllib.parse.urlsplit(editor.url)
        self.conn = http.client.HTTPConnection("127.0.0.1", editor.port, timeout=600)
        self.conn.request("GET", f"{parts.path}?{parts.query}", headers={"Host": f"127.0.0.1:{editor.port}"})
        answer = self.conn.getresponse()
        answer.read()
        if answer.status != 303 or not answer.getheader("Set-Cookie"):
            raise RuntimeError(f"GET /open answered {answer.status}, not 303 with a cookie")
        self.cookie = answer.getheader("Set-Cookie").split(";")[0]
        self.location = answer.getheader("Location") or ""

    def request(self, method, path, body=None):
        sep = "&" if "?" in path else "?"
        headers = {"Host": f"127.0.0.1:{self.editor.port}", "Cookie": self.cookie}
        data = None
        if method == "POST":
            headers.update({"Origin": self.editor.origin, "Content-Type": "application/json"})
            data = json.dumps(body or {}).encode()
        self.conn.request(method, f"{path}{sep}page={self.page}", body=data, headers=headers)
        answer = self.conn.getresponse()
        text = answer.read()
        if answer.status >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status} {text[:300]!r}")
        return json.loads(text)


class Page(Tab):
    """A 1280 × 900 tab of the one Chromium the benchmarks share."""

    def __init__(self, devtools):
        super().__init__(devtools)
        for domain in ("Page", "Runtime", "Network"):
            self.call(domain + ".enable")
        self.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1,
                                                         "mobile": False})

    def clear_cache(self):
        self.call("Network.clearBrowserCache")

    def open_until_painted(self, url, timeout=60):
        """Navigates to the launch link and polls every 10 ms until the first-paint mark exists.
        Returns (monotonic time of Page.navigate, monotonic time the mark was seen, the mark).
        The caller clears Chromium's cache (clear_cache) before it starts the editor: the time
        that takes is the harness's, not the editor's."""
        sent = time.monotonic()
        self.call("Page.navigate", {"url": url})
        deadline = sent + timeout
        while time.monotonic() < deadline:
            try:
                mark = self.evaluate(MARK_SCRIPT)
            except RuntimeError:
                mark = None  # the document changed under the call (the redirect)
            if mark:
                return sent, time.monotonic(), mark
            time.sleep(0.01)
        raise TimeoutError(f"no {MARK} mark {timeout} s after navigating to {url}")

    def box(self, selector):
        return self.evaluate("(() => { const n = document.querySelector(%s); if (!n) return null; "
                             "const r = n.getBoundingClientRect(); return {x: r.left + r.width / 2, "
                             "y: r.top + r.height / 2, left: r.left, top: r.top, width: r.width, "
                             "height: r.height}; })()" % json.dumps(selector))

    def images_loaded(self, timeout=60):
        """Waits until every grid thumbnail in view has loaded or failed; returns how many there are."""
        return self.evaluate("""(async () => {
          const inView = [...document.querySelectorAll('#image-grid .image-cell img')].filter((img) => {
            const b = img.getBoundingClientRect(); return b.bottom > 0 && b.top < innerHeight; });
          await Promise.all(inView.map((img) => img.complete ? null : new Promise((done) => {
            img.addEventListener('load', done, {once: true}); img.addEventListener('error', done, {once: true});
            setTimeout(done, %d); })));
          return inView.length; })()""" % int(timeout * 1000), await_promise=True, timeout=timeout + 5)

    def wheel(self, x, y, dy):
        self.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": dy})

    def drop_files(self, x, y, files):
        """A file manager's drop: dragEnter, dragOver, drop, with the files' absolute paths."""
        data = {"items": [], "files": [str(Path(f).resolve()) for f in files], "dragOperationsMask": 19}
        for kind, (px, py) in (("dragEnter", (x, y)), ("dragOver", (x - 2, y - 2)), ("dragOver", (x, y)),
                               ("drop", (x, y))):
            self.call("Input.dispatchDragEvent", {"type": kind, "x": px, "y": py, "data": data})


def busy_fraction(every=0.25):
    """The share of the machine's processor time spent working over the next EVERY seconds."""
    def sample():
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait
    (all0, idle0), _ = sample(), time.sleep(every)
    all1, idle1 = sample()
    return 1 - (idle1 - idle0) / max(all1 - all0, 1)


def settle(quiet=0.2, limit=15.0):
    """Waits until the machine is at most QUIET busy over a quarter second (a browser just started
    settling), for LIMIT seconds at most; returns {seconds, busy} as it ended, for the record."""
    start = time.monotonic()
    busy = busy_fraction()
    while busy > quiet and time.monotonic() - start < limit:
        busy = busy_fraction()
    return {"seconds": round(time.monotonic() - start, 2), "busy": round(busy, 3)}


def file_stamp(path):
    s = os.stat(path)
    return (s.st_mtime_ns, s.st_size, s.st_ino)


def wait_for_change(path, before, confirm, timeout=30, every=0.01):
    """Polls `path` every 10 ms until its (mtime, size, inode) differs from `before` and
    `confirm()` holds (a `list --json` check, run only after a change). Returns the monotonic
    time of the first change that was confirmed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            stamp = file_stamp(path)
        except FileNotFoundError:
            stamp = None  # between the swap's steps
        if stamp and stamp != before:
            seen = time.monotonic()
            if confirm():
                return seen
            before = stamp
        time.sleep(every)
    raise TimeoutError(f"{path} did not change as expected in {timeout} s")


def list_json(imagegallery, path):
    out = subprocess.run([imagegallery, "list", str(path), "--json"], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


def summary(values):
    """{median, min, max, runs} of a list of seconds (or MiB)."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values),
            "values": values}


def q(*args):
    """One shell-quoted command line."""
    import shlex
    return " ".join(shlex.quote(str(a)) for a in args)


def fmt(v, unit="s"):
    if v is None:
        return "—"
    if unit == "MiB":
        return f"{v:.1f}"
    if unit == "ms":
        return f"{v * 1e3:.1f}"
    return f"{v:.3f}" if v < 10 else f"{v:.2f}"


def table(rows, unit="s"):
    """Markdown rows: (label, summary, target text, ok or None)."""
    head = "median (ms)" if unit == "ms" else f"median ({unit})"
    rng = "min – max (ms)" if unit == "ms" else f"min – max ({unit})"
    out = [f"| measurement | {head} | {rng} | runs | target | result |", "|---|---:|---:|---:|---|---|"]
    for label, s, target, ok in rows:
        result = "n/a" if ok is None else "**pass**" if ok else "**FAIL**"
        if s is None:
            out.append(f"| {label} | not measured | — | 0 | {target} | {result} |")
        else:
            out.append(f"| {label} | {fmt(s['median'], unit)} | {fmt(s['min'], unit)} – {fmt(s['max'], unit)} | "
                       f"{s['n']} | {target} | {result} |")
    return out + [""]
