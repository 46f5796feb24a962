"""The editor at 100,000 images (issue 34), for Benchmarks/editor.py --only scale.

The gallery holds 100,000 distinct small photos. Identical images are stored once, so copies
would not test scale: each photo is one of a few dozen 200-pixel thumbnails of the corpus's
photos (made once by vipsthumbnail) with two entries of its luminance quantisation table changed,
which gives other pixels and other bytes at no cost (a valid JPEG whatever the values). The
photos and the gallery (`imagegallery create`) are made once, under WORK and CORPUS.
"""

import json
import os
import shutil
import subprocess
import threading
import time
import zipfile
from pathlib import Path

from editor_support import Editor, private_env, q, wait_for_change, file_stamp

COUNT = 100_000
BASES = 40
SIDE = 200

# In the page: every animation frame, whether a grid cell was in view when it was drawn. The look
# is taken in a task posted from the frame's callback, so after the frame's other callbacks (the
# grid draws its rows in one) and its paint; since the sweep below may scroll again before that
# task runs, the cells are placed in page coordinates and held against the scroll position of the
# frame. The longest time between two frames with a cell in view is the longest the user saw no
# photo (a blank or frozen screen). A first look's stand-in (`later`: an empty frame until the
# whole list has come) is no photo.
FRAMES_START = """(() => {
  const grid = document.getElementById('image-grid');
  const log = window.scaleFrames = {times: [], drawn: [], run: true, long: []};
  // The page's tasks of 100 ms or more meanwhile, to tell a long frame's cause.
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.duration >= 100) log.long.push([Math.round(e.startTime), Math.round(e.duration)]); })
    .observe({type: 'longtask'});
  const inView = (y) => { for (const cell of grid.children) { if (!cell.classList.contains('image-cell') || cell.classList.contains('later')) continue;
    const box = cell.getBoundingClientRect(), top = box.top + scrollY;
    if (box.height > 0 && top + box.height > y && top < y + innerHeight) return true; }
    return false; };
  const after = new MessageChannel();
  let pending = null;
  after.port1.onmessage = () => { log.times.push(pending.t); log.drawn.push(inView(pending.y)); };
  const frame = (t) => { pending = {t, y: scrollY}; after.port2.postMessage(0); if (log.run) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  return true; })()"""

FRAMES_STOP = """(() => { const log = window.scaleFrames; log.run = false;
  let last = null, longestBlank = 0, longestFrame = 0, longestFrameAt = null, blankFrames = 0;
  for (let i = 0; i < log.times.length; i++) {
    if (i && log.times[i] - log.times[i - 1] > longestFrame) { longestFrame = log.times[i] - log.times[i - 1]; longestFrameAt = Math.round(log.times[i - 1]); }
    if (!log.drawn[i]) { blankFrames++; continue; }
    if (last !== null) longestBlank = Math.max(longestBlank, log.times[i] - last);
    last = log.times[i]; }
  // When the blank frames fell, and when each piece of the list was asked and came (page clock).
  const blankAt = log.times.filter((t, i) => !log.drawn[i]).slice(0, 40).map(Math.round);
  const pieces = performance.getEntriesByType('resource').map((e) => ({u: new URL(e.name), e}))
    .filter(({u}) => /\\/images$/.test(u.pathname)).map(({u, e}) => ({from: Number(u.searchParams.get('from')),
      early: u.searchParams.has('early'), asked: Math.round(e.startTime), came: Math.round(e.responseEnd)}));
  return {frames: log.times.length, blankFrames, longestBlankMs: longestBlank, longestFrameMs: longestFrame, longestFrameAt, longTasks: log.long,
          firstDrawn: log.drawn[0], lastDrawn: log.drawn[log.drawn.length - 1], start: Math.round(log.times[0]),
          blankAt, pieces}; })()"""

# Where the first paint's time went, in the page's clock (ms since navigation): the document's
# view asked, its first byte and its last, and the mark; the thumbnails are what lies after.
VIEW_TIMING = """(() => { const entries = performance.getEntriesByType('resource');
  const view = entries.find((entry) => /\\/api\\/documents\\/[0-9a-f]+$/.test(new URL(entry.name).pathname));
  const screen = entries.find((entry) => /\\/api\\/documents\\/[0-9a-f]+\\/thumbnails$/.test(new URL(entry.name).pathname));
  const mark = performance.getEntriesByName('imagegallery-grid-painted')[0];
  return view ? {asked: view.startTime, firstByte: view.responseStart, lastByte: view.responseEnd,
                 bytes: view.encodedBodySize, painted: mark?.startTime,
                 screenAsked: screen?.startTime, screenLastByte: screen?.responseEnd, screenBytes: screen?.encodedBodySize,
                 thumbnailsAlone: entries.filter((entry) => /\\/thumbnail$/.test(new URL(entry.name).pathname)).length} : null; })()"""

# A sweep with the scroll bar: from where the page is to the end in STEPS steps 50 ms apart, then
# back to the top the same way (the scroll bar's thumb dragged down and up over five seconds).
SWEEP = """(async (steps) => {
  const max = () => document.documentElement.scrollHeight - innerHeight;
  const pause = () => new Promise((r) => setTimeout(r, 50));
  for (let i = 1; i <= steps; i++) { scrollTo(0, max() * i / steps); await pause(); }
  const bottom = scrollY, end = max();
  for (let i = steps - 1; i >= 0; i--) { scrollTo(0, max() * i / steps); await pause(); }
  return {bottom, end, top: scrollY}; })(%d)"""


def base_photos(corpus, folder):
    """BASES thumbnails of the corpus's small photos, SIDE pixels long, metadata stripped."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = sorted((corpus / "photos/small").glob("*.jpg"))[:BASES]
    if len(sources) < BASES:
        raise RuntimeError(f"{corpus}/photos/small has {len(sources)} photos, not {BASES}: run make-corpus.sh")
    bases = []
    for i, source in enumerate(sources):
        out = folder / f"base-{i:02d}.jpg"
        if not out.exists():
            subprocess.run(["vipsthumbnail", str(source), "-s", str(SIDE), "-o", f"{out.resolve()}[Q=82,strip]"], check=True)
        bases.append(out.read_bytes())
    return bases


def quantisation_offset(jpeg):
    """Where the first quantisation table's 64 values start (after FFDB, length, Pq/Tq)."""
    at = 2
    while at + 4 <= len(jpeg):
        marker, length = jpeg[at + 1], int.from_bytes(jpeg[at + 2:at + 4], "big")
        if marker == 0xDB:
            return at + 5
        at += 2 + length
    raise RuntimeError("no quantisation table in the base photo")


def make_photos(corpus, folder, count=COUNT):
    """COUNT distinct JPEGs in FOLDER (kept once complete: a stamp names the count)."""
    stamp = folder / "stamp.json"
    if stamp.exists() and json.loads(stamp.read_text()).get("count") == count:
        return
    shutil.rmtree(folder, ignore_errors=True)
    t = time.monotonic()
    bases = base_photos(corpus, folder.parent / "g100k-bases")
    offsets = [quantisation_offset(b) for b in bases]
    photos = folder / "photos"
    photos.mkdir(parents=True)
    for i in range(count):
        base, n = i % BASES, i // BASES
        data = bytearray(bases[base])
        # Entries 1 and 2 (the lowest AC frequencies) from 1 to 250: 62,500 pairs a base.
        data[offsets[base] + 1] = 1 + n % 250
        data[offsets[base] + 2] = 1 + n // 250
        (photos / f"{i:06d}.jpg").write_bytes(data)
    stamp.write_text(json.dumps({"count": count, "seconds": time.monotonic() - t}) + "\n")


def scale_gallery(bench):
    """WORK/g100k.imagegallery, made once by `imagegallery create` from the photos."""
    photos = bench.corpus.parent / "g100k"
    make_photos(bench.corpus, photos)
    path = bench.work / "g100k.imagegallery"
    made = bench.work / "g100k.made.json"
    if not path.exists() or not made.exists():
        path.unlink(missing_ok=True)
        t = time.monotonic()
        subprocess.run([bench.ig, "create", str(path), "--title", "g100k", "--date", "2026-01-01T00:00:00Z",
                        "--no-sync", str(photos / "photos")], check=True, capture_output=True)
        made.write_text(json.dumps({"seconds": time.monotonic() - t}) + "\n")
    return path


def manifest_ids(path):
    with zipfile.ZipFile(path) as z:
        return [image["id"] for image in json.loads(z.read("manifest.json"))["images"]]


def heap(page):
    usage = page.call("Runtime.getHeapUsage")
    return {"usedBytes": usage["usedSize"], "totalBytes": usage["totalSize"]}


class ServerLoad:
    """The editor's processor time, sampled every 50 ms in a thread of its own while a scroll
    runs: where the page's longest frame fell, whether the server was working then."""

    def __init__(self, pid):
        self.path, self.samples, self.run = Path(f"/proc/{pid}/stat"), [], True
        self.tick = os.sysconf("SC_CLK_TCK")
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while self.run:
            try:
                fields = self.path.read_text().rsplit(")", 1)[1].split()
                self.samples.append((time.time(), (int(fields[11]) + int(fields[12])) / self.tick))
            except (OSError, IndexError, ValueError):
                return
            time.sleep(0.05)

    def around(self, origin_ms, at_ms, span_ms):
        """The server's processor seconds in the page-clock window [at, at + span] (ms)."""
        self.run = False
        self.thread.join()
        start, end = (origin_ms + at_ms) / 1000, (origin_ms + at_ms + span_ms) / 1000
        inside = [cpu for t, cpu in self.samples if start - 0.05 <= t <= end + 0.05]
        return round(inside[-1] - inside[0], 3) if len(inside) > 1 else None


def scroll(page, editor=None, origin=None):
    """Ten screens with the wheel, then the sweep to the end and back; the frames meanwhile, and
    with EDITOR the server's processor time in the page's longest frame (ORIGIN: the page's
    timeOrigin, ms)."""
    load = ServerLoad(editor.pid) if editor else None
    page.evaluate(FRAMES_START)
    for _ in range(10):
        page.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": 640, "y": 500, "deltaX": 0, "deltaY": 900})
        time.sleep(0.05)
    sweep = page.evaluate(SWEEP % 50, await_promise=True, timeout=120)
    time.sleep(0.3)
    frames = page.evaluate(FRAMES_STOP)
    frames.update(sweep)
    if load and frames.get("longestFrameAt") is not None:
        frames["serverCPUInLongestFrame"] = load.around(origin, frames["longestFrameAt"], frames["longestFrameMs"])
    return frames


def reorder(page, gallery, ids, key):
    """The last image to the front, as the page asks for a move, until autosave has written it;
    then back to the end (also saved), so that every run opens the same gallery."""
    ask = ("fetch('/api/documents/%s/edits?page=' + crypto.randomUUID(), {method: 'POST', credentials: 'same-origin',"
           " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({op: 'move', id: %s, to: %d})})"
           ".then((r) => r.status)")
    before = file_stamp(gallery)
    t0 = time.monotonic()
    status = page.evaluate(ask % (key, json.dumps(ids[-1]), 0), await_promise=True, timeout=120)
    answered = time.monotonic() - t0
    seen = wait_for_change(gallery, before, lambda: manifest_ids(gallery)[0] == ids[-1], timeout=120)
    record = {"reorder": seen - t0, "reorderAnswer": answered, "reorderStatus": status}
    wait_saved(page)
    before = file_stamp(gallery)
    page.evaluate(ask % (key, json.dumps(ids[-1]), len(ids) - 1), await_promise=True, timeout=120)
    wait_for_change(gallery, before, lambda: manifest_ids(gallery)[-1] == ids[-1], timeout=120)
    wait_saved(page)
    return record


def wait_saved(page, timeout=120):
    deadline = time.monotonic() + timeout
    while page.evaluate("document.getElementById('status').dataset.state") != "saved":
        if time.monotonic() > deadline:
            raise TimeoutError("the page's status did not come back to Saved")
        time.sleep(0.05)


def scale_once(bench, gallery, ids, env_dir, label):
    """One load of the 100,000-image gallery: first paint, scrolling, the reorder, memory."""
    from editor_support import gallery_key
    page = bench.browser()
    env = private_env(env_dir)
    argv = [bench.ig, "edit", str(gallery.resolve()), "--no-open", "--json"]
    page.clear_cache()
    editor = Editor(argv, env, bench.work / f"editor-scale-{label}.log")
    record = {}
    try:
        sent, seen, mark = page.open_until_painted(editor.url, timeout=120)
        record.update({"wall": (mark["origin"] + mark["start"]) / 1000 - editor.spawn_epoch,
                       "navigateToMark": seen - sent, "json": editor.announced - editor.spawn,
                       "rssAtPaintKiB": editor.memory_kib()["VmRSS"], "heapAtPaint": heap(page)})
        record["viewTiming"] = page.evaluate(VIEW_TIMING)
        record["scroll"] = scroll(page, editor, mark["origin"])
        record["heapAfterScroll"] = heap(page)
        record.update(reorder(page, gallery, ids, gallery_key(gallery)))
        record["heapAtEnd"] = heap(page)
        mem = editor.memory_kib()
        record.update({"vmHWMKiB": mem["VmHWM"], "vmRSSKiB": mem["VmRSS"]})
    finally:
        record["exit"] = editor.stop()
        os.sync()
    return record


def scale(bench):
    """The 100,000-image gallery: cold runs (each its own thumbnail cache), then warm runs."""
    gallery = scale_gallery(bench)
    ids = manifest_ids(gallery)
    runs_dir = bench.work / "scale"
    shutil.rmtree(runs_dir, ignore_errors=True)
    out = {"gallery": str(gallery), "galleryBytes": gallery.stat().st_size, "images": len(ids),
           "manifestBytes": zipfile.ZipFile(gallery).getinfo("manifest.json").file_size, "cold": [], "warm": [],
           "command": q(bench.ig, "edit", gallery.resolve(), "--no-open", "--json"), "errors": []}
    bench.out["scale"] = out
    runs = bench.a.scale_runs
    for kind, label in [("cold", f"cold-{i}") for i in range(runs)] + [("warm", f"warm-{i}") for i in range(runs)]:
        env_dir = runs_dir / (label if kind == "cold" else f"cold-{runs - 1}")
        try:
            out[kind].append(scale_once(bench, gallery, ids, env_dir, label))
        except (RuntimeError, TimeoutError) as error:
            out["errors"].append(f"{label}: {type(error).__name__}: {error}")
