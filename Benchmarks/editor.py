#!/usr/bin/python3
"""Performance of the gallery editor (issue 17, section 10, and "Large galleries").

usage: Benchmarks/editor.py [--runs N] [--markdown OUT.md] [--json OUT.json] [--bin DIR]
                            [--only save,xfs,cli,edits,paint,scale] [--chromium PATH] [--scale-runs N]

  paint  first paint of the 10,000-image gallery (cold and warm thumbnail cache), from the spawn
         of `imagegallery edit G --no-open --json` to the page's `imagegallery-grid-painted`
         mark in headless Chromium (1280 × 900); the server's peak RSS after some scrolling
  edits  on the 200-photo gallery: a Ctrl+ArrowRight reorder and a dropped photo, each until
         autosave (2 s) has put it in the file
  save   the save after one caption edit on the 1 GiB gallery, over the HTTP interface,
         against `cp` of the file (with and without fsync), on this disk
  xfs    the same on an XFS loop image made with `mkfs.xfs -m reflink=1` (needs root)
  scale  the 100,000-image gallery (issue 34; not in the default set, run with --only scale): first
         paint cold and warm, the longest time without a photo in view while scrolling to the end
         and back, a reorder of the last image to the front until autosave has saved it, the
         server's peak RSS and the page's JS heap. The photos (distinct, a few KB each) and the
         gallery are made once, under .build-bench/ (Benchmarks/editor_scale.py)
  cli    `imagegallery --version` and `thumbnail -s 256` from the embedded thumbnail, with
         hyperfine, beside the figures of RESULTS.md sections o and i

The binaries of --bin (default .build/release) are copied into WORK/bin first: `edit` runs the
editor beside itself, and a build elsewhere cannot change them during a run. Raw results go to
--json (default .build-bench/results/editor.json), the RESULTS.md section to --markdown.
Environment: CORPUS (default .build-bench/corpus), WORK (default .build-bench/work/editor).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_support import (CTRL, REPO, DevTools, Editor, Page, Session, file_stamp, find_chromium,  # noqa: E402
                            list_json, private_env, q, settle, wait_for_change)
import editor_report  # noqa: E402
import editor_scale  # noqa: E402

DATE = "2026-01-01T00:00:00Z"
AUTOSAVE = 2.0


def sh(*args, check=True, **kw):
    return subprocess.run([str(a) for a in args], check=check, capture_output=True, text=True, **kw)


class Bench:
    def __init__(self, a):
        os.chdir(REPO)
        self.a, self.runs = a, a.runs
        self.corpus = Path(os.environ.get("CORPUS", ".build-bench/corpus"))
        self.work = Path(os.environ.get("WORK", ".build-bench/work/editor"))
        self.bin = self.work / "bin"
        self.bin.mkdir(parents=True, exist_ok=True)
        for name in ("imagegallery", "imagegallery-fetch", "imagegallery-editor"):
            shutil.copy2(Path(a.bin) / name, self.bin / name)
        self.ig, self.editor = str(self.bin / "imagegallery"), str(self.bin / "imagegallery-editor")
        self.out = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": self.runs,
                    "nproc": os.cpu_count(), "bin": a.bin, "kernel": os.uname().release,
                    "igVersion": sh(self.ig, "--version").stdout.strip(), "errors": []}
        self.devtools = None

    # MARK: galleries

    def gallery(self, name, source, title):
        """WORK/NAME.imagegallery made by create (kept while newer than its source set)."""
        path = self.work / f"{name}.imagegallery"
        if not path.exists() or path.stat().st_mtime < source.stat().st_mtime:
            path.unlink(missing_ok=True)
            sh(self.ig, "create", path, "--title", title, "--date", DATE, "--no-sync", source)
        return path

    def browser(self):
        if self.devtools is None:
            chromium = find_chromium(self.a.chromium)
            if not chromium:
                raise RuntimeError("chromium is not installed (apt-get install chromium)")
            profile = self.work / "chromium-profile"
            shutil.rmtree(profile, ignore_errors=True)
            self.devtools = DevTools(chromium, profile, self.work / "chromium.log", window_size=(1280, 900),
                                     host_rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
            self.page = Page(self.devtools)
            self.page.call("Page.navigate", {"url": "about:blank"})
            # A browser just started works on for a second or more (its GPU and network
            # processes, its profile): a first load timed then measured 0.90 s against 0.65 s a
            # minute later (RESULTS.md ac.1.10). The editor's figures are not the browser's start.
            self.out.setdefault("browserSettled", settle())
        self.page.call("Page.navigate", {"url": "about:blank"})
        return self.page

    # MARK: 1. first paint of the 10,000-image gallery, and the server's peak RSS

    def load(self, gallery, env_dir, label):
        page = self.browser()
        env = private_env(env_dir)
        argv = [self.ig, "edit", str(gallery.resolve()), "--no-open", "--json"]
        page.clear_cache()
        editor = Editor(argv, env, self.work / f"editor-{label}.log")
        try:
            sent, seen, mark = page.open_until_painted(editor.url)
            record = {
                "wall": (mark["origin"] + mark["start"]) / 1000 - editor.spawn_epoch,  # spawn → mark (mark's own time)
                "wallPolled": seen - editor.spawn,            # spawn → the mark seen by 10 ms polling
                "json": editor.announced - editor.spawn,      # spawn → the {pid, url} line
                "navigateToMark": seen - sent,                # Page.navigate → the mark seen
                "markStart": mark["start"] / 1000,            # the mark's startTime (from navigation start)
                "cells": page.images_loaded()}
            # Some scrolling: ten screens down with the wheel, then to the end, then back up. Chromium's
            # long tasks (over 50 ms on the main thread) meanwhile are recorded: issue 30 wants none.
            page.evaluate("window.longTasks = []; new PerformanceObserver((list) => { for (const entry of list.getEntries())"
                          " window.longTasks.push(entry.duration); }).observe({type: 'longtask'}); true")
            for screen, delta in enumerate([900] * 10 + [10 ** 7, -200000]):
                page.wheel(640, 500, delta)
                time.sleep(0.05)
                page.images_loaded()
                if screen == 9:
                    record["longTasksMs"] = page.evaluate("window.longTasks")  # the ten screens
            mem = editor.memory_kib()
            record.update({"vmHWMKiB": mem["VmHWM"], "vmRSSKiB": mem["VmRSS"],
                           "scrollY": page.evaluate("scrollY")})
            if label != "warmup":
                record.update(self.drop_and_take_out(page, gallery))
        finally:
            record_exit = editor.stop()
            # The drop and the Delete each rewrote the 1.1 GB file: the next load is timed once the
            # disk has written them, not while the kernel flushes 2.2 GB beside it.
            os.sync()
        record["exit"] = record_exit
        record["thumbnailsCached"] = len(list((Path(env["XDG_CACHE_HOME"]) / "imagegallery/thumbnails").glob("*")))
        return record

    def drop_and_take_out(self, page, gallery):
        """A real drop of one photo on the third cell, timed until autosave has put it in the file;
        then Delete takes it out again (also saved), so that every load opens the same images."""
        photo = (self.corpus / "photos/large/00.jpg").resolve()
        count = len(list_json(self.ig, gallery))
        self.wait_saved(page)
        # Back to the top (the scrolling above ended mid-gallery), and the virtualised grid redrawn there.
        page.evaluate("scrollTo(0, 0); new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))",
                      await_promise=True)
        target = page.box("#image-grid .image-cell:nth-child(3) .frame")
        if not 0 <= target["top"] < page.evaluate("innerHeight"):
            raise RuntimeError(f"the third cell is not in view for the drop: {target}")
        before = file_stamp(gallery)
        t0 = time.monotonic()
        page.drop_files(target["left"] + 5, target["top"] + 5, [photo])
        try:
            seen = wait_for_change(gallery, before, lambda: any(x["filename"] == photo.name and x["byteSize"] ==
                                                                photo.stat().st_size for x in list_json(self.ig, gallery) or []),
                                   timeout=120)
        except TimeoutError as error:
            shown = page.evaluate("[...document.querySelectorAll('#messages .message span')].map((n) => n.textContent)")
            raise TimeoutError(f"the drop on the {count}-image gallery: {error}; the page says {shown}") from None
        dropped = seen - t0
        added = [x["id"] for x in list_json(self.ig, gallery) if x["filename"] == photo.name]
        self.wait_saved(page)
        cell = page.box(f"#image-grid .image-cell[data-id='{added[0]}'] .frame")
        page.click(cell["x"], cell["y"])
        before = file_stamp(gallery)
        page.press("Delete")
        wait_for_change(gallery, before, lambda: len(list_json(self.ig, gallery) or []) == count, timeout=120)
        self.wait_saved(page)
        return {"drop": dropped, "dropCount": count + 1}

    def paint(self):
        g10k = self.gallery("g10k", self.corpus / "g10k", "g10k")
        runs_dir = self.work / "paint"
        shutil.rmtree(runs_dir, ignore_errors=True)
        self.load(g10k, runs_dir / "warmup", "warmup")  # binaries, gallery and browser warmed; not counted
        cold = [self.load(g10k, runs_dir / f"cold-{i}", f"cold-{i}") for i in range(self.runs)]
        # The warm runs reuse the last cold run's folders: its load filled the thumbnail cache.
        warm = [self.load(g10k, runs_dir / f"cold-{self.runs - 1}", f"warm-{i}") for i in range(self.runs)]
        self.out["paint"] = {"gallery": str(g10k), "galleryBytes": g10k.stat().st_size, "cold": cold, "warm": warm,
                             "command": q(self.ig, "edit", g10k.resolve(), "--no-open", "--json")}

    # MARK: 2 and 3. a reorder and a drop on the 200-photo gallery, saved by autosave

    def edits_once(self, pristine, photo, i):
        page = self.browser()
        g = self.work / "edits" / f"g200-{i}.imagegallery"
        g.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pristine, g)
        env = private_env(self.work / "edits" / f"env-{i}")
        argv = [self.editor, str(g.resolve()), "--no-open", "--json", "--autosave-seconds", str(AUTOSAVE),
                "--first-page-seconds", "120"]
        page.clear_cache()
        editor = Editor(argv, env, self.work / f"editor-edits-{i}.log")
        record = {}
        try:
            page.open_until_painted(editor.url)
            ids = [image["id"] for image in list_json(self.ig, g)]
            first = page.box("#image-grid .image-cell .frame")
            page.click(first["x"], first["y"])
            page.evaluate("new Promise((r) => setTimeout(r, 200))", await_promise=True)
            if page.evaluate("document.activeElement.dataset.id || ''") != ids[0]:
                raise RuntimeError("clicking the first cell did not focus it")
            want = [ids[1], ids[0]] + ids[2:]
            before = file_stamp(g)
            t0 = time.monotonic()
            page.press("ArrowRight", CTRL)
            seen = wait_for_change(g, before, lambda: [x["id"] for x in list_json(self.ig, g) or []] == want)
            record["reorder"] = seen - t0
            self.wait_saved(page)
            target = page.box("#image-grid .image-cell:nth-child(3) .frame")
            before = file_stamp(g)
            t0 = time.monotonic()
            page.drop_files(target["left"] + 5, target["top"] + 5, [photo])
            record["placeholders"] = page.evaluate("document.querySelectorAll('#image-grid .pending').length")
            seen = wait_for_change(g, before, lambda: any(x["filename"] == photo.name and x["byteSize"] ==
                                                          photo.stat().st_size for x in list_json(self.ig, g) or []))
            record["drop"] = seen - t0
            record["count"] = len(list_json(self.ig, g))
            self.wait_saved(page)
        finally:
            record["exit"] = editor.stop()
        g.unlink(missing_ok=True)
        return record

    def wait_saved(self, page, timeout=30):
        deadline = time.monotonic() + timeout
        while page.evaluate("document.getElementById('status').dataset.state") != "saved":
            if time.monotonic() > deadline:
                raise TimeoutError("the page's status did not come back to Saved")
            time.sleep(0.05)

    def edits(self):
        pristine = self.gallery("g200", self.corpus / "photos/small", "g200")
        photo = (self.corpus / "photos/large/00.jpg").resolve()
        runs = []
        for i in range(self.runs):
            try:
                runs.append(self.edits_once(pristine, photo, i))
            except (RuntimeError, TimeoutError) as error:
                self.out["errors"].append(f"edits run {i}: {error}")
        self.out["edits"] = {"gallery": str(pristine), "galleryBytes": pristine.stat().st_size, "photo": str(photo),
                             "photoBytes": photo.stat().st_size, "autosave": AUTOSAVE, "runs": runs,
                             "command": q(self.editor, pristine.resolve(), "--no-open", "--json",
                                          "--autosave-seconds", AUTOSAVE)}

    # MARK: 4. the save after one edit on the 1 GiB gallery, against cp

    def save_on(self, folder, label):
        """Interleaved runs in `folder`: cp over a copy + fsync, plain cp, and the editor's save."""
        g, copy = folder / "g1g.imagegallery", folder / "g1g-copy.imagegallery"
        if not g.exists():
            shutil.copyfile(self.gallery("g1g", self.corpus / "g1g", "g1g"), g)
        shutil.copyfile(g, copy)
        os.sync()
        env = private_env(self.work / f"save-env-{label}")
        argv = [self.editor, str(g.resolve()), "--no-open", "--json", "--autosave-seconds", "600",
                "--first-page-seconds", "600"]
        editor = Editor(argv, env, self.work / f"editor-save-{label}.log")
        rows = {"cp + fsync": [], "cp": [], "cp --reflink=never + fsync": [], "cli": [], "save": [], "caption": []}
        baseline = os.environ.get("BASELINE_IG")
        if baseline:
            rows["cli (baseline)"] = []
        notes, shared = [], []
        try:
            session = Session(editor)
            key = session.location.partition("gallery=")[2]
            view = session.request("GET", f"/api/documents/{key}")
            image = view["images"][0]["id"]
            # The runs alternate, each step after `sync`; the first of each is a warm-up. The save comes
            # right after `cp`, which clones on XFS: had it cloned too, its new file would share extents.
            for i in range(self.runs + 1):
                timed = {}

                def step(name, *cmd, **kw):
                    os.sync()
                    t = time.monotonic()
                    sh(*cmd, **kw)
                    timed[name] = time.monotonic() - t
                step("cp --reflink=never + fsync", "sh", "-c", f"cp --reflink=never {q(g, copy)} && sync {q(copy)}")
                step("cli", self.ig, "caption", copy, "1", f"run {i} {time.time()}", env=env)  # section k's save
                if baseline:
                    step("cli (baseline)", baseline, "caption", copy, "1", f"run {i} {time.time()}", env=env)
                step("cp", "cp", g, copy)
                step("cp + fsync", "sh", "-c", f"cp {q(g, copy)} && sync {q(copy)}")
                t = time.monotonic()
                session.request("POST", f"/api/documents/{key}/edits", {"op": "caption", "id": image,
                                                                       "caption": f"run {i} {time.time()}"})
                timed["caption"] = time.monotonic() - t
                before = file_stamp(g)
                t = time.monotonic()
                answer = session.request("POST", f"/api/documents/{key}/edits", {"op": "save"})
                timed["save"] = time.monotonic() - t
                if file_stamp(g) == before or answer.get("edited"):
                    notes.append(f"run {i}: the save POST returned before the file changed, or still edited")
                shared.append(sh("filefrag", "-v", g, check=False).stdout.count("shared"))
                if i:
                    for k, v in timed.items():
                        rows[k].append(v)
        finally:
            code = editor.stop()
        extents = sh("filefrag", "-v", g, check=False).stdout
        result = {"folder": str(folder), "fs": sh("findmnt", "-n", "-o", "FSTYPE", "-T", folder).stdout.strip(),
                  "galleryBytes": g.stat().st_size, "exit": code, "notes": notes, **rows,
                  "sharedExtents": extents.count("shared"), "extents": len(re.findall(r"^\s*\d+:", extents, re.M)),
                  "sharedAfterSave": shared,
                  "command": q(*argv)}
        copy.unlink(missing_ok=True)
        return result

    def save(self):
        folder = self.work / "save"
        folder.mkdir(exist_ok=True)
        try:
            self.out["save"] = self.save_on(folder, "disk")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def xfs(self):
        img, mnt = self.work / "xfs.img", self.work / "xfs"
        steps = [["truncate", "-s", self.a.xfs_size, img], ["mkfs.xfs", "-f", "-q", "-m", "reflink=1", img],
                 ["mkdir", "-p", mnt], ["mount", "-o", "loop", img, mnt]]
        record = {"steps": [q(*s) for s in steps]}
        mounted = False
        try:
            for step in steps:
                done = sh(*step, check=False)
                if done.returncode != 0:
                    record["failed"] = f"`{q(*step)}` exited {done.returncode}: {(done.stderr or done.stdout).strip()}"
                    self.out["xfs"] = record
                    return
            mounted = True
            record["xfsInfo"] = sh("xfs_info", mnt, check=False).stdout
            record["probe"] = self.clone_probe(mnt)
            record.update(self.save_on(mnt, "xfs"))
            self.out["xfs"] = record
        except FileNotFoundError as error:
            record["failed"] = str(error)
            self.out["xfs"] = record
        finally:
            if mounted:
                sh("umount", mnt, check=False)
            img.unlink(missing_ok=True)

    @staticmethod
    def clone_probe(mnt, size=64 << 20):
        """When does copy_file_range clone on this file system? 64 MiB at block-aligned offsets, at the
        same unaligned offset, and shifted by 100 bytes (as a blob is when the manifest before it grows)."""
        src = mnt / "probe-src"
        src.write_bytes(os.urandom(size + 8192))
        out = []
        for name, soff, doff in (("aligned", 4096, 8192), ("same unaligned offset", 100, 100), ("shifted", 0, 100)):
            dst = mnt / "probe-dst"
            fi, fo = os.open(src, os.O_RDONLY), os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            t, done = time.monotonic(), 0
            while done < size:
                done += os.copy_file_range(fi, fo, size - done, soff + done, doff + done)
            os.fsync(fo)
            seconds = time.monotonic() - t
            os.close(fi)
            os.close(fo)
            out.append({"case": name, "srcOffset": soff, "dstOffset": doff, "bytes": size, "seconds": seconds,
                        "sharedExtents": sh("filefrag", "-v", dst).stdout.count("shared")})
            dst.unlink()
        src.unlink()
        return out

    # MARK: 5. the main binary: start-up and the embedded thumbnail, with hyperfine

    def cli(self):
        embedded = Path(".build-bench/work/thumbs/embedded.imagegallery")
        if not embedded.exists():
            embedded = self.work / "embedded.imagegallery"
            embedded.unlink(missing_ok=True)
            sh(self.ig, "create", embedded, "--title", "t", "--date", DATE, "--no-sync", self.corpus / "photos/large/00.jpg")
        results = Path(self.a.json).parent
        checks = {
            "startup": ("imagegallery --version", [self.ig, "--version"], 3, 30, "startup.json"),
            "thumbembedded": ("imagegallery thumbnail -s 256 (embedded)",
                              [self.ig, "thumbnail", "-s", "256", embedded, self.work / "ours-embedded.png"], 2, 10,
                              "thumbembedded.json")}
        # BASELINE_IG (another build, e.g. the session's first commit): timed in the same hyperfine
        # run, it is the reference, since figures of two sessions may come from two machines.
        baseline = os.environ.get("BASELINE_IG")
        self.out["cli"] = {}
        for key, (name, cmd, warmup, runs, reference) in checks.items():
            export = results / f"editor-{key}.json"
            hf = ["hyperfine", "-N", "--style", "basic", "--warmup", warmup, "--runs", runs,
                  "--export-json", export, "-n", name, q(*cmd)]
            if baseline:
                base = [baseline] + [self.work / "baseline-embedded.png" if str(a).endswith("ours-embedded.png") else a
                                     for a in cmd[1:]]
                hf += ["-n", name + " (baseline)", q(*base)]
            sh(*hf)
            found = json.loads(export.read_text())["results"]
            times = found[0]["times"]
            ref = ({"median": statistics.median(found[1]["times"]), "source": f"BASELINE_IG {baseline}, same run"}
                   if baseline else self.reference(results / reference, name, key))
            self.out["cli"][key] = {"name": name, "times": times, "command": q(*hf), "reference": ref}

    def reference(self, path, name, key):
        """The median RESULTS.md shows for the row: from run.sh's JSON, else from RESULTS.md itself."""
        if path.exists():
            for r in json.loads(path.read_text())["results"]:
                if r["command"] == name:
                    return {"median": r["median"], "source": str(path)}
        text = Path("Benchmarks/RESULTS.md").read_text()
        found = re.search(r"^\| `%s` \| ([0-9.]+) \|" % re.escape(name), text, re.M)
        return {"median": float(found.group(1)), "source": "Benchmarks/RESULTS.md"} if found else None

    # MARK: the whole run

    def run(self, only):
        steps = {"paint": self.paint, "edits": self.edits, "save": self.save, "xfs": self.xfs, "cli": self.cli,
                 "scale": lambda: editor_scale.scale(self)}
        try:
            for name in only:
                print(f"editor.py: {name} ...", file=sys.stderr, flush=True)
                t = time.monotonic()
                try:
                    steps[name]()
                except Exception as error:  # noqa: BLE001 (recorded; the other measurements still run)
                    self.out["errors"].append(f"{name}: {type(error).__name__}: {error}")
                print(f"editor.py: {name} done in {time.monotonic() - t:.0f} s", file=sys.stderr, flush=True)
        finally:
            if self.devtools:
                self.devtools.close()
        return self.out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--markdown", help="write the RESULTS.md section here")
    p.add_argument("--json", default=".build-bench/results/editor.json")
    p.add_argument("--bin", default=".build/release", help="folder of imagegallery, -fetch and -editor")
    # The saves of the 1 GiB gallery first: the paint's drops rewrite the 1.1 GB gallery twenty
    # times, and a save measured after that much writing measured the disk's backlog (2.6 s
    # instead of 1.1 s, in two runs of 2026-11-26), not the save.
    p.add_argument("--only", default="save,xfs,cli,edits,paint")
    p.add_argument("--chromium")
    p.add_argument("--scale-runs", type=int, default=3, help="cold and warm loads of the 100,000-image gallery")
    p.add_argument("--xfs-size", default="4G")
    a = p.parse_args()
    only = a.only.split(",")
    unknown = set(only) - {"paint", "edits", "save", "xfs", "cli", "scale"}
    if unknown:
        p.error(f"unknown measurements: {', '.join(sorted(unknown))}")
    os.chdir(REPO)
    a.json = str(Path(a.json))
    Path(a.json).parent.mkdir(parents=True, exist_ok=True)
    out = Bench(a).run(only)
    out["summary"] = editor_report.summarise(out)
    Path(a.json).write_text(json.dumps(out, indent=2) + "\n")
    if a.markdown:
        Path(a.markdown).write_text("\n".join(editor_report.markdown(out, a)) + "\n")
    for t in out["summary"]["targets"]:
        print(f"{t['result']:>8}  {t['name']}: {t['measured']} (limit {t['limit']})")
    for e in out["errors"]:
        print(f"   error  {e}")


if __name__ == "__main__":
    main()
