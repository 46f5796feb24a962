#!/usr/bin/python3
"""Real desktop drags with the gallery editor, in Chromium and in Firefox ESR, both headed under Xvfb.

    check-editor-desktop-drops.py --imagegallery BIN --editor EDITOR --fixtures IMAGES --artifacts DIR
                                  [--chromium PATH] [--firefox PATH] [--timeout S]

The browser suite's other drops from outside the page are made with the DevTools protocol, which
skips the desktop's drag protocol. Here nothing is simulated inside a browser: an X server
(Xvfb), two small GTK 3 windows of another application (xdnd_window.py), and the mouse and keys
of xdotool. For each browser, with an editor of its own on the same folder:

  "<browser>: drop from another application"  the GTK source window offers a phone-like photo
      (a JPEG with GPS EXIF and an ICC profile, checked with exiftool) by XDND as text/uri-list;
      xdotool drags it onto the editor's grid; the gallery on disk (`imagegallery list --json`)
      then holds it at its end, byte for byte (SHA-256), under its own name.
  "<browser>: drag out to another application"  the photo opened in the detail view is Alt-dragged
      onto the GTK target window, which takes a file as a file manager does (XdndDirectSave, its
      application/octet-stream fallback, or a file:// URI list); the file it gets is the original,
      byte for byte, under the image's name.

Chromium is driven over its DevTools pipe (devtools.py), Firefox over WebDriver BiDi (bidi.py).
Prints one JSON document {ok, failures, steps: [{name, ok, detail}], screenshots, ...} and exits
0 when every check passed, 1 when one failed, 2 when it could not check (a tool missing).
"""

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bidi import FIREFOX_MISSING, find_firefox  # noqa: E402
from devtools import BrowserGone, find_chromium  # noqa: E402
from editor_layout import ROOM_SCRIPT, closed_up, stands_aside  # noqa: E402
from harness import (DISK_TIMEOUT, CheckFailed, ChromiumPage, Editor, FirefoxPage, Steps, could_not_check,  # noqa: E402
                     create_gallery, editor_arguments, finish, fixture_images, gallery_key, hang_guard, imagegallery_json,
                     log_tail, poll, read_line, sha256)

SCREEN = (1700, 1000)   # the browser's window at 0,0 (1280 wide), the GTK windows to its right
SOURCE_WINDOW = (1320, 80, 300)   # x, y, size
TARGET_WINDOW = (1320, 560, 300)
PHOTO_NAME = "PXL_20260815_093012345.jpg"
HERE = Path(__file__).resolve().parent


# MARK: The desktop: Xvfb, the other application's windows, xdotool


class Desktop:
    def __init__(self, scratch):
        self.processes = []
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                                      "-nolisten", "tcp"],
                                     pass_fds=(write,), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=open(scratch / "xvfb.log", "wb"))
        os.close(write)
        number = read_line(read, 60)
        os.close(read)
        if not number.strip():
            raise RuntimeError(f"Xvfb gave no display number: {log_tail(scratch / 'xvfb.log')}")
        os.environ["DISPLAY"] = f":{number.strip().decode()}"
        # No desktop session here: the browsers must not look for a D-Bus of one, nor a window manager.
        os.environ.pop("WAYLAND_DISPLAY", None)
        os.environ["GDK_BACKEND"] = "x11"
        os.environ["MOZ_ENABLE_WAYLAND"] = "0"

    def window(self, mode, path, place, log):
        """Starts an xdnd_window.py window; returns (process, a reader of its JSON lines)."""
        x, y, size = place
        process = subprocess.Popen(["/usr/bin/python3", str(HERE / "xdnd_window.py"), mode, str(path), str(x), str(y), str(size)],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=open(log, "wb"))
        self.processes.append(process)
        lines = Lines(process)
        ready = lines.next(lambda m: m.get("ready"), 60)
        if ready is None:
            raise RuntimeError(f"the GTK {mode} window did not show: {log_tail(log)}")
        return process, lines

    def close(self):
        for process in self.processes + [self.xvfb]:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


class Lines:
    """The JSON lines a child prints, read on a thread of their own."""

    def __init__(self, process):
        self.items, self.ready = [], threading.Condition()
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            try:
                item = json.loads(line)
            except ValueError:
                continue
            with self.ready:
                self.items.append(item)
                self.ready.notify_all()

    def next(self, predicate, timeout, start=0):
        deadline = time.monotonic() + timeout
        with self.ready:
            while True:
                for item in self.items[start:]:
                    if predicate(item):
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.ready.wait(left)

    def count(self):
        with self.ready:
            return len(self.items)


def xdotool(*arguments):
    subprocess.run(["xdotool", *map(str, arguments)], check=True, capture_output=True, timeout=30)


def drag(start, end, alt=False, ready=None, timeout=60.0):
    """A person's drag: press, a few small moves past the drag threshold, a glide to `end`, a rest
    over the target, moving a little, until `ready()` says the target has taken the drag in (its
    answer to XdndPosition must reach the source before the release, or the source cancels the
    drop; a slow machine takes a while), then release. Returns whether `ready` was met."""
    (x0, y0), (x1, y1) = [(int(round(x)), int(round(y))) for x, y in (start, end)]
    xdotool("mousemove", x0, y0)
    time.sleep(0.3)
    if alt:
        xdotool("keydown", "alt")
    xdotool("mousedown", 1)
    time.sleep(0.3)
    for step in range(1, 7):
        xdotool("mousemove", x0 + 4 * step, y0 + 3 * step)
        time.sleep(0.1)
    for step in range(1, 11):
        xdotool("mousemove", x0 + (x1 - x0) * step // 10, y0 + (y1 - y0) * step // 10)
        time.sleep(0.15)
    deadline = time.monotonic() + timeout
    met = False
    for wiggle in itertools.cycle((3, -3)):
        xdotool("mousemove", x1 + wiggle, y1)
        time.sleep(0.3)
        try:
            met = ready is None or bool(ready())
        except (RuntimeError, TimeoutError, ValueError):
            met = False
        if met or time.monotonic() > deadline:
            break
    # Two more moves after the target took it in, so that the source has its latest answer.
    for wiggle in (-3, 0):
        xdotool("mousemove", x1 + wiggle, y1)
        time.sleep(0.3)
    xdotool("mouseup", 1)
    if alt:
        xdotool("keyup", "alt")
    time.sleep(0.3)
    return met


# MARK: The scenarios


GRID_SCRIPT = """(() => {
  const box = (node) => { const r = node.getBoundingClientRect();
                          return {left: r.left, top: r.top, width: r.width, height: r.height}; };
  return {ready: document.readyState, galleryHidden: document.getElementById('gallery-view').hidden,
          status: (document.getElementById('status') || {}).textContent,
          cells: [...document.querySelectorAll('#image-grid .image-cell:not(.pending)')].map((cell) => ({
            id: cell.dataset.id, box: box(cell)})),
          grid: box(document.getElementById('image-grid'))};
})()"""

DETAIL_SCRIPT = """(() => {
  const picture = document.getElementById('detail-image');
  const r = picture.getBoundingClientRect();
  // Fitted: the photo's middle in the window (before the view fits it, a large photo's box runs
  // past the window's foot, and a pointer sent there lands on no page at all).
  return {shown: !document.getElementById('detail-view').hidden, loaded: picture.complete && picture.naturalWidth > 0,
          fitted: r.width > 0 && r.top + r.height / 2 < innerHeight && r.left + r.width / 2 < innerWidth,
          src: picture.getAttribute('src'), box: {left: r.left, top: r.top, width: r.width, height: r.height}};
})()"""

# The page's origin on the screen: recorded from a real pointer event, so that the browser's own
# toolbars (whatever their height) are measured, not guessed.
CALIBRATE_SCRIPT = """new Promise((resolve) => {
  window.__calibration = null;
  document.addEventListener('mousemove', (event) => {
    window.__calibration = {screenX: event.screenX, screenY: event.screenY, clientX: event.clientX, clientY: event.clientY};
  }, {once: true});
  resolve(true);
})"""


class Run(Steps):
    def __init__(self, arguments, scratch):
        Steps.__init__(self)
        self.arguments, self.scratch = arguments, scratch
        self.editor_exits, self.logs = [], {}
        self.folder = scratch / "galleries"
        self.folder.mkdir()
        self.gallery = None  # each browser's own gallery
        self.drops = scratch / "dropped-out"
        self.desktop = self.browser = self.editor = None
        self.aborted = False

    def abort(self):
        """The hang guard: stops every process this check started, so that the run ends and reports."""
        self.aborted = True
        for stop in (lambda: self.browser.kill(), lambda: self.editor.process.kill(), lambda: self.desktop.close()):
            try:
                stop()
            except Exception:  # noqa: BLE001 (not started, or gone already)
                pass

    # The disk

    def images(self):
        return imagegallery_json(self.arguments.imagegallery, "list", str(self.gallery), timeout=DISK_TIMEOUT)

    # Setting up

    def make_photo(self):
        """A phone's photo: 3:4 pixels, an sRGB ICC profile, the camera, the time and a GPS position."""
        from PIL import Image, ImageCms, ImageDraw

        fixtures = fixture_images(self.arguments.fixtures, (".jpg",))
        base = Image.open(fixtures[0]).convert("RGB").resize((1512, 2016))
        ImageDraw.Draw(base).text((40, 40), "imagegallery desktop drop", fill=(255, 255, 255))
        photos = self.scratch / "phone"
        photos.mkdir()
        photo = photos / PHOTO_NAME
        profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        base.save(photo, "JPEG", quality=88, icc_profile=profile)
        tags = ["-Make=Google", "-Model=Pixel 8", "-DateTimeOriginal=2026:08:15 09:30:12",
                "-GPSLatitude=48.858370", "-GPSLatitudeRef=N", "-GPSLongitude=2.294481", "-GPSLongitudeRef=E",
                "-GPSAltitude=35", "-GPSAltitudeRef=0"]
        result = subprocess.run(["exiftool", "-q", "-overwrite_original", *tags, str(photo)], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"exiftool could not tag the photo: {result.stderr}")
        read = json.loads(subprocess.run(["exiftool", "-json", "-n", "-GPSLatitude", "-GPSLongitude", "-Model",
                                          "-ICC_Profile:ProfileDescription", str(photo)],
                                         capture_output=True, text=True, check=True).stdout)[0]
        if not (abs(read.get("GPSLatitude", 0) - 48.85837) < 1e-4 and read.get("ProfileDescription") and read.get("Model")):
            raise RuntimeError(f"the photo is not phone-like: exiftool reads {read}")
        self.photo, self.photo_sha = photo, sha256(photo)
        return read

    def make_gallery(self, title):
        return create_gallery(self.arguments.imagegallery, self.folder / f"{title}.imagegallery", title,
                              fixture_images(self.arguments.fixtures)[:3])

    # The page

    def state(self, browser, script=GRID_SCRIPT):
        return browser.evaluate(script)

    def origin_on_screen(self, browser, inside):
        """Where the page's (0, 0) is on the screen, from a real pointer move to a point inside it."""
        browser.evaluate(CALIBRATE_SCRIPT)
        x, y = inside
        for offset in (0, 7, 14):
            xdotool("mousemove", x + offset, y + offset)
            time.sleep(0.3)
            seen = browser.evaluate("window.__calibration")
            if seen:
                return seen["screenX"] - seen["clientX"], seen["screenY"] - seen["clientY"]
        raise CheckFailed(f"{browser.name} saw no pointer move at ({x}, {y}) on the screen")

    def open_gallery(self, browser, url):
        browser.navigate(url)
        key = gallery_key(self.gallery)
        browser.wait_until("the editor's document browser",
                           "document.readyState === 'complete' && !document.getElementById('browser-view').hidden")
        origin = browser.evaluate("location.origin")
        browser.navigate(f"{origin}/#gallery={key}")
        count = len(self.images())
        return origin, poll(f"{browser.name}: the gallery's grid of {count}",
                            lambda: (lambda s: s if not s["galleryHidden"] and len(s["cells"]) == count else None)(self.state(browser)))

    # The scenarios

    def drop_in(self, browser, origin_on_screen, before):
        grid = self.state(browser)
        last = grid["cells"][-1]["box"]
        # The right half of the last cell: the page puts the drop after it, at the gallery's end.
        point = (origin_on_screen[0] + last["left"] + last["width"] * 0.8,
                 origin_on_screen[1] + last["top"] + last["height"] * 0.5)
        source = (SOURCE_WINDOW[0] + SOURCE_WINDOW[2] // 2, SOURCE_WINDOW[1] + SOURCE_WINDOW[2] // 2)
        given = self.source_lines.count()
        held = {}

        def taken_in():
            """The page has taken the drag in when its grid shows where the drop will land; the
            first time, how the held drop looks (a screenshot) and where the photos stand."""
            if not browser.evaluate("document.querySelector('#image-grid .drop-placeholder') !== null"):
                return False
            if "room" not in held:
                time.sleep(0.3)  # the photos' glide aside
                held["room"] = browser.evaluate(ROOM_SCRIPT)
                shot = self.arguments.artifacts / f"drop-{browser.name.lower()}.png"
                browser.screenshot(shot)
                self.screenshots.append(str(shot))
            return True
        over = drag(source, point, ready=taken_in)
        offered = self.source_lines.next(lambda m: "gave" in m, 30, start=given)

        def landed():
            images = self.images()
            if len(images) != len(before) + 1:
                raise CheckFailed(f"{len(images)} images on disk, expected {len(before) + 1}"
                                  + ("" if over else "; the grid never showed where the drop would land")
                                  + ("" if offered else "; the GTK window was never asked for its data"))
            new = images[-1]
            if new.get("sha256") != self.photo_sha or new.get("filename") != PHOTO_NAME:
                raise CheckFailed(f"the last image is {new.get('filename')} {str(new.get('sha256'))[:12]}…, expected "
                                  f"{PHOTO_NAME} {self.photo_sha[:12]}…")
            return new
        new = poll(f"{browser.name}: the dropped photo on disk", landed)
        self.dropped_id = new["id"]
        if not stands_aside(held.get("room") or {"before": [], "after": [], "elsewhere": []}):
            raise CheckFailed(f"while the drop was held, the photos beside it did not stand aside: {held.get('room')}")
        poll(f"{browser.name}: the photos back in place after the drop",
             lambda: (lambda room: True if closed_up(room) else None)(browser.evaluate(ROOM_SCRIPT)))
        return (f"{PHOTO_NAME} ({self.photo.stat().st_size} bytes) is image {len(before) + 1} on disk, byte for byte; "
                f"while it was held {len(held['room']['before'])} photos stood aside")

    def drag_out(self, browser, origin):
        browser.navigate(f"{origin}/#gallery={gallery_key(self.gallery)}&image={self.dropped_id}")
        detail = poll(f"{browser.name}: the photo in the detail view",
                      lambda: (lambda s: s if s["shown"] and s["loaded"] and s["fitted"] and self.dropped_id in s["src"] else None)(
                          browser.evaluate(DETAIL_SCRIPT)))
        box = detail["box"]
        centre = (box["left"] + box["width"] / 2, box["top"] + box["height"] / 2)
        origin_on_screen = self.origin_on_screen(browser, (int(centre[0]) + 20, int(centre[1]) + 20))
        for old in self.drops.iterdir():
            old.unlink()
        start = self.target_lines.count()
        target = (TARGET_WINDOW[0] + TARGET_WINDOW[2] // 2, TARGET_WINDOW[1] + TARGET_WINDOW[2] // 2)
        drag((origin_on_screen[0] + centre[0], origin_on_screen[1] + centre[1]), target, alt=True,
             ready=lambda: self.target_lines.next(lambda m: m.get("motion"), 0, start=start))
        record = self.target_lines.next(lambda m: m.get("drop"), 60, start=start)
        if record is None:
            raise CheckFailed(f"the GTK target window saw no drop from {browser.name}")
        if not record["saved"]:
            raise CheckFailed(f"{browser.name} gave no file: it offered {record['targets']}, "
                              f"XdndDirectSave {record.get('directSave')!r}, URIs {record['uris']}, {record.get('texts')}")
        saved = Path(record["saved"][0])

        def complete():
            if not saved.exists():
                raise CheckFailed(f"{saved} is not there")
            if sha256(saved) != self.photo_sha:
                raise CheckFailed(f"{saved.name} has {saved.stat().st_size} bytes, SHA-256 {sha256(saved)[:12]}…, "
                                  f"not the original's {self.photo.stat().st_size} bytes, {self.photo_sha[:12]}…")
            return saved
        poll(f"{browser.name}: the file dragged out", complete)
        if saved.name != PHOTO_NAME:
            raise CheckFailed(f"the file dragged out is named {saved.name!r}, not {PHOTO_NAME!r}")
        how = ("XdndDirectSave, written by the browser" if record.get("directSave") == "S" else
               "XdndDirectSave's application/octet-stream" if record.get("octetStream") else "a file:// URI list")
        return f"{saved.name}, the original's bytes, through {how}"

    def browser_run(self, kind, path):
        self.gallery = self.galleries[kind.name]
        editor = self.editor = Editor(self.arguments.editor, self.folder, self.scratch / f"editor-{kind.name}", 0.5, 2)
        browser = None
        try:
            if not editor.announcement or "url" not in editor.announcement:
                raise CheckFailed(f"the editor printed no {{url, pid}} line: {editor.log_text()}")
            browser = self.browser = kind(path, self.scratch)
            before = self.images()
            opened = {}

            def open_and_drop():
                origin, grid = self.open_gallery(browser, editor.announcement["url"])
                opened["origin"] = origin
                # The browser's window sits at the screen's origin, 1280 wide: this point is in its page.
                on_screen = self.origin_on_screen(browser, (640, 450))
                return self.drop_in(browser, on_screen, before)
            with self.step(f"{kind.name}: drop from another application") as record:
                record["detail"] = open_and_drop()
            if self.aborted:
                raise RuntimeError("stopped by the hang guard")
            with self.step(f"{kind.name}: drag out to another application") as record:
                if not self.steps[-2]["ok"]:
                    raise CheckFailed("not run: the drop before it failed")
                record["detail"] = self.drag_out(browser, opened["origin"])
        finally:
            if browser is not None:
                self.logs[kind.name] = browser.log()
                browser.close()
            self.editor_exits.append(editor.stop())
            self.logs[f"editor ({kind.name})"] = editor.log_text()

    def run(self):
        self.galleries = {name: self.make_gallery(name) for name in ("Chromium", "Firefox")}
        read = self.make_photo()
        self.steps.append({"name": "a phone-like photo", "ok": True,
                           "detail": f"{PHOTO_NAME}: {read.get('Model')}, GPS {read.get('GPSLatitude')}, "
                                     f"{read.get('GPSLongitude')}, ICC {read.get('ProfileDescription')!r} (exiftool)"})
        self.desktop = Desktop(self.scratch)
        self.drops.mkdir()
        _, self.source_lines = self.desktop.window("source", self.photo, SOURCE_WINDOW, self.scratch / "source.log")
        _, self.target_lines = self.desktop.window("target", self.drops, TARGET_WINDOW, self.scratch / "target.log")
        chromium = find_chromium(self.arguments.chromium)
        firefox = find_firefox(self.arguments.firefox)
        self.browser_run(ChromiumPage, chromium)
        self.browser_run(FirefoxPage, firefox)


def main():
    arguments, _ = editor_arguments(__doc__.split("\n")[0], "the imagegallery binary (for create, list)",
                                    "the imagegallery-editor binary under test", 600, firefox=True)
    missing = []
    if not find_firefox(arguments.firefox):
        missing.append(FIREFOX_MISSING)
    for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("exiftool", "libimage-exiftool-perl")):
        if not shutil.which(tool):
            missing.append(f"{tool} is not installed (Debian: {package}; scripts/install-deps test installs it)")
    for module, package in (("websocket", "python3-websocket"), ("gi", "python3-gi and gir1.2-gtk-3.0"), ("PIL", "python3-pil")):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"Python's {module} is missing (Debian: {package}; scripts/install-deps test installs it)")
    if missing:
        could_not_check("; ".join(missing))

    with tempfile.TemporaryDirectory(prefix="check-editor-desktop-") as scratch:
        run = Run(arguments, Path(scratch))
        error = None
        try:
            # A hang guard: past the timeout, everything this check started is stopped and it reports.
            with hang_guard(arguments.timeout, run.abort):
                run.run()
        except (BrowserGone, RuntimeError, OSError, subprocess.SubprocessError) as problem:
            error = f"{type(problem).__name__}: {problem}"
        finally:
            if run.desktop:
                run.desktop.close()
        if run.aborted and error is None:
            error = f"stopped by the hang guard after {arguments.timeout:.0f} s"
        exits = [code for code in run.editor_exits if code is not None]
        failures = run.failures()
        result = {"ok": error is None and not failures and len(run.steps) >= 5, "failures": failures,
                  "steps": run.steps, "screenshots": run.screenshots, "console": [],
                  "editorExit": max(exits, key=abs) if exits and len(exits) == len(run.editor_exits) else None,
                  "logs": {name: text[-2000:] for name, text in run.logs.items()}}
        if error is not None:
            result["error"] = error
            result["failures"].append(f"the check could not finish: {error}")
            finish(result, 2)
        finish(result, 0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
