#!/usr/bin/python3
"""Run every command that reads input over a hostile corpus, each under a memory cap and a timeout.

Usage: check-hostile-commands.py CORPUS [--binary B] [--timeout S] [--max-as-mb 256] [--max-rss-mb 256]
                                 [--jobs 2] [--commands validate,info,list,extract,thumbnail,thumbnailer,convert,privacy]
                                 [--json REPORT] [--only SUBSTRING] [--scratch DIR] [--keep] [--verdicts]
                                 [--strict-known]

CORPUS is a folder of files: what make-hostile-corpus.py wrote (with its expected.json), or any
other folder (every regular file in it, sub-folders included, is an input). For every file and
every command, the binary runs with a fresh, empty workspace as its current folder:

    validate   validate --format json [--deep] FILE   (--deep where expected.json says; always without one)
    info       info FILE          and    info FILE --json
    list       list FILE --json
    extract    extract FILE --to OUT
    thumbnail  thumbnail -s 256 FILE OUT.png
    thumbnailer  imagegallery-thumbnailer -s 256 FILE OUT.png (the confined program beside the binary)
    convert    convert FILE OUT.cbz            for what convert takes for a gallery (its content, else its
                                               name: Specs/conversion.md section 1)
               convert FILE OUT.imagegallery   for anything else: foreign archives (a-* in the corpus);
                                               seed JSON with --offline (its images come from the empty cache)
    unpack     convert FILE OUT (a gallery unpacked into a folder; not in the default set)
    privacy    info FILE --privacy --json, and strip --location --identity --json OUT.imagegallery on a
               writable copy of a gallery made in the workspace (issue 32)

Each run gets RLIMIT_AS (--max-as-mb, default 256 MiB: an allocation past it crashes the run, which
counts as a crash), RLIMIT_CPU (--max-thumbnail-cpu-s, default 2 s, for thumbnail and thumbnailer:
no input may cost a thumbnail path more; --max-cpu-s, by default the timeout's seconds, for the
rest; SIGXCPU counts as a "CPU limit" problem), RLIMIT_CORE 0, a new session (killed whole at the timeout, default 10 s),
HOME, XDG_CACHE_HOME, XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR and TMPDIR
inside its own scratch folder, and a copy of the input in a folder of its own. Checked per run:

  - no signal, no timeout (for extract, the timeout plus --per-file-ms for each file expected.json says
    it writes: its work is one file per image), no crash text on stderr ("Fatal error", "Swift runtime failure", ...);
  - the exit code is one the README gives for the command and this case: validate 0 or 1 (1 only
    with a report whose file is invalid); the others 0, or 65 (invalid input data). Exit 1
    (internal error), 64, 66, 69, 73, 74 and 75 cannot be right for an existing, readable input
    and a fresh output, and are problems;
  - a failure (any exit but 0, and validate's 1) says why on stderr, naming the input file;
  - peak memory (the binary's ru_maxrss, GNU time's %M) at most --max-rss-mb;
  - nothing written outside the target: the workspace holds only the named output (OUT, OUT.png,
    OUT.cbz, OUT.imagegallery) and nothing else (no .partial or spool folders, no file named from
    an entry); after a failure, no output at all, except that extract may leave the images it
    finished before the failure (each whole: its files are checked before they appear); nothing
    appears in the scratch HOME but $XDG_CACHE_HOME/imagegallery (the fetch cache, Specs/fetching.md),
    nothing in TMPDIR or XDG_RUNTIME_DIR, nothing beside the workspace or the scratch folders, no
    path an entry names outside (/tmp/imagegallery-hostile-corpus-*, expected.json "outside").
    What a run killed at the timeout leaves (a temporary file it was writing) is only noted;
  - the input copy is byte for byte unchanged and alone in its folder (and the corpus unchanged
    at the end);
  - outputs: validate prints one JSON report that agrees with the exit code; info --json and
    list --json print JSON; a thumbnail that exits 0 wrote a PNG that decodes, at most 256 px on
    its longest side (-s 256); extract's files start with the magic of one of the six image
    types; convert's CBZ is a sound ZIP; a gallery convert wrote is valid (validate, exit 0) and holds as many images as
    expected.json says;
  - expected.json (when there is one): convert of a foreign archive ends with one of the exit
    codes it lists, and a file whose verdict is valid without --deep is read by info, list,
    extract and convert with exit 0. Verdict mismatches of validate are listed (check-hostile-corpus.py
    owns verdicts); --verdicts makes them problems. A timeout of a command that the file's
    "known" record names ({"extract": "why"}) is listed as a known issue, not a problem, unless
    --strict-known; any other problem of that run still counts.

Prints a summary per command (runs, exit codes, slowest, peak memory) and every problem with the
file and the tail of stderr; writes a full report with --json; exits 1 on any problem.
"""

import argparse
import concurrent.futures
import hashlib
import heapq
import json
import os
import queue
import shutil
import stat
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

THUMBNAILER = "imagegallery-thumbnailer"
ALL_COMMANDS = ["validate", "info", "list", "extract", "thumbnail", "thumbnailer", "convert", "unpack", "privacy"]
DEFAULT_COMMANDS = ["validate", "info", "list", "extract", "thumbnail", "thumbnailer", "convert", "privacy"]
CRASH_TEXT = ("Fatal error", "Swift runtime failure", "Segmentation fault", "Illegal instruction", "Aborted",
              "core dumped", "Current stack trace", "Program crashed", "stack overflow", "internal error")
EXIT_MEANING = {1: "internal error", 2: "usage or I/O problem", 3: "kept as a version", 4: "some URLs failed",
                5: "no image could be had", 64: "usage error", 65: "invalid input data",
                66: "input missing or unreadable", 69: "fetch helper", 73: "output cannot be created",
                74: "input/output error", 75: "document busy"}
OUTSIDE_DIR, OUTSIDE_PREFIX = "/tmp", "imagegallery-hostile-corpus-"
SCRATCH_PARTS = {"ws", "home", "tmp", "run", "in", "rss"}
PNG_SIG = b"\x89PNG\r\n\x1a\n"
THUMBNAIL_SIZE = 256


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def is_image(head):
    """Whether the first 12 bytes of a file are the magic of JPEG, PNG, WebP, GIF or an ISOBMFF
    file (AVIF, HEIC: an ftyp box first), the types a gallery holds."""
    return (head[:3] == b"\xff\xd8\xff" or head[:8] == PNG_SIG or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
            or head[:6] in (b"GIF87a", b"GIF89a") or head[4:8] == b"ftyp")


def outside_now():
    """The paths /tmp/imagegallery-hostile-corpus-* names now. A prefix test on one listing, not
    glob: /tmp may hold thousands of names, and fnmatch over them cost more than a run."""
    try:
        names = os.listdir(OUTSIDE_DIR)
    except OSError:
        return set()
    return {os.path.join(OUTSIDE_DIR, n) for n in names if n.startswith(OUTSIDE_PREFIX)}


def walk(root):
    """Every path under root, relative, folders with a trailing /; symlinks are reported as such."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for d in dirnames:
            p = os.path.join(dirpath, d)
            out.append(os.path.normpath(os.path.join(rel, d)) + ("@" if os.path.islink(p) else "/"))
        for fn in filenames:
            p = os.path.join(dirpath, fn)
            out.append(os.path.normpath(os.path.join(rel, fn)) + ("@" if os.path.islink(p) else ""))
    return sorted(out)


def clear(path):
    """Empties a folder (making it and the folders in it writable first), or creates it. A real
    folder is emptied in place, not removed and made again: on ext4 each rmdir and mkdir waits
    milliseconds for the journal, several times a run. One already empty and 0700 (most are, after
    most runs) is left as it is."""
    try:
        st = os.lstat(path)
    except OSError:
        st = None
    if st is None or not stat.S_ISDIR(st.st_mode):
        if st is not None:
            os.unlink(path)
        os.mkdir(path, 0o700)
        return
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)
    names = os.listdir(path)
    if not names:
        return
    for dirpath, dirnames, _ in os.walk(path):
        for d in dirnames:
            try:
                os.chmod(os.path.join(dirpath, d), 0o700)
            except OSError:
                pass
    for n in names:
        p = os.path.join(path, n)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)


def input_form(path):
    """What `convert` takes the file for, as Specs/conversion.md section 1 detects it: "gallery",
    "archive" (zip, 7z, RAR, compressed or ustar tar; comics too) or "seed-json"."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        head = b""
    gallery_by_name = path.endswith(".imagegallery")
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        if head[30:38] == b"mimetype" and head[38:70] == b"application/vnd.imagegallery+zip":
            return "gallery"
        return "gallery" if gallery_by_name else "archive"
    if head.startswith((b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07", b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00",
                        b"\x28\xb5\x2f\xfd")) or head[257:262] == b"ustar":
        return "archive"
    first = head.lstrip(b" \t\r\n\xef\xbb\xbf")[:1]
    if first in (b"{", b"["):
        return "seed-json"
    return "gallery" if gallery_by_name else "archive"


def describe_png(path, size):
    """(ok, text): a PNG that decodes whole, at most `size` pixels on its longest side."""
    try:
        with open(path, "rb") as f:
            if f.read(8) != PNG_SIG:
                return False, "not a PNG (signature)"
        from PIL import Image
        with Image.open(path) as im:
            im.verify()
        with Image.open(path) as im:
            im.load()
            w, h = im.size
        if max(w, h) > size or min(w, h) < 1:
            return False, f"a PNG of {w}x{h}: longer than -s {size}"
        return True, f"{w}x{h}"
    except Exception as e:      # PIL raises many kinds
        return False, f"does not decode: {e}"


def drain(fd):
    """What the runs wrote into the memory file fd since it was last drained; fd is left empty."""
    size = os.fstat(fd).st_size
    chunks, at = [], 0
    while at < size:
        chunk = os.pread(fd, size - at, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    return b"".join(chunks)


class Watchdog:
    """One thread that kills a run's whole session at its deadline, instead of a timer thread per run.
    It kills only a child not yet reaped (exited() not yet called), so that the id cannot belong to
    anything else by then."""

    def __init__(self):
        self.cond = threading.Condition()
        self.heap = []      # (deadline, sequence, run)
        self.count = 0
        threading.Thread(target=self._loop, name="watchdog", daemon=True).start()

    def watch(self, pid, seconds):
        run = {"pid": pid, "exited": False, "killed": False}
        with self.cond:
            self.count += 1
            heapq.heappush(self.heap, (time.monotonic() + seconds, self.count, run))
            if self.heap[0][2] is run:
                self.cond.notify()
        return run

    def exited(self, run):
        """The run's child has exited (not yet reaped): whether it was killed at the timeout."""
        with self.cond:
            run["exited"] = True
            return run["killed"]

    def _loop(self):
        with self.cond:
            while True:
                while self.heap and self.heap[0][2]["exited"]:
                    heapq.heappop(self.heap)
                if not self.heap:
                    self.cond.wait()
                    continue
                left = self.heap[0][0] - time.monotonic()
                if left > 0:
                    self.cond.wait(left)
                    continue
                run = heapq.heappop(self.heap)[2]
                run["killed"] = True
                try:
                    os.killpg(run["pid"], signal.SIGKILL)
                except ProcessLookupError:
                    pass


def build_helper(folder):
    """Compiles scripts/hostile-run.c into folder: its path, or None (then prlimit and GNU time
    run instead) when there is no C compiler or it fails."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile-run.c")
    out = os.path.join(folder, "hostile-run")
    for flags in (["-static"], []):
        try:
            done = subprocess.run(["cc", "-O2", *flags, "-o", out, source], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:
            break
        if done.returncode == 0:
            return out
    print(f"check-hostile-commands: {source} did not compile; prlimit and GNU time run instead", file=sys.stderr)
    return None


class Runner:
    def __init__(self, args, corpus, expected):
        self.a = args
        self.corpus = corpus
        self.expected = expected
        self.binary = os.path.abspath(args.binary)
        self.thumbnailer = os.path.join(os.path.dirname(self.binary), THUMBNAILER)
        self.cap = int(args.max_as_mb * (1 << 20))
        self.max_rss_kb = args.max_rss_mb * 1024
        self.scratch = tempfile.mkdtemp(prefix="ig-hostile-commands-", dir=args.scratch)
        self.slots = queue.Queue()
        for i in range(args.jobs):
            os.mkdir(os.path.join(self.scratch, f"slot{i}"))
            self.slots.put(i)
        self.outside_before = outside_now()
        self.lock = threading.Lock()
        # Each slot's stdout and stderr are memory files, emptied after each run: a file on disk
        # opened with O_TRUNC after a run that wrote to it made ext4 flush it, milliseconds a run.
        self.outputs = {os.path.join(self.scratch, f"slot{i}"): (os.memfd_create("stdout"), os.memfd_create("stderr"))
                        for i in range(args.jobs)}
        self.watchdog = Watchdog()
        self.helper_dir = tempfile.mkdtemp(prefix="ig-hostile-run-", dir=args.scratch)
        self.helper = build_helper(self.helper_dir)

    # -- one run

    def env(self, slot):
        home = os.path.join(slot, "home")
        return {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
                "XDG_CACHE_HOME": os.path.join(home, ".cache"), "XDG_STATE_HOME": os.path.join(home, ".local/state"),
                "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_DATA_HOME": os.path.join(home, ".local/share"),
                "XDG_RUNTIME_DIR": os.path.join(slot, "run"), "TMPDIR": os.path.join(slot, "tmp")}

    def limited(self, cpu_seconds, report):
        """The prefix that runs a command under the run's limits and writes its peak RSS and CPU
        time to report as GNU time -f "%M %U %S": RLIMIT_AS, no core file, and RLIMIT_CPU. SIGXCPU
        at the soft limit ends the run (a problem: "CPU limit"); the hard limit a second later is
        SIGKILL's backstop. Counted in CPU, not wall-clock time, so a busy machine does not fail a
        run. scripts/hostile-run.c when it compiles here (one static exec, not prlimit's and GNU
        time's: a millisecond of CPU a run), else prlimit(1) and GNU time(1), which do the same."""
        if self.helper is not None:
            return [self.helper, str(self.cap), str(cpu_seconds), report, "--"]
        return ["/usr/bin/prlimit", f"--as={self.cap}", "--core=0", f"--cpu={cpu_seconds}:{cpu_seconds + 1}", "--",
                "/usr/bin/time", "-f", "%M %U %S", "-o", report]

    def cpu_limit(self, label, timeout):
        """The CPU seconds a run may take: a thumbnail path's bound (issue 28: no input may cost one
        more than 2 s), else --max-cpu-s, else its timeout's (each grows for extract with the files
        it writes)."""
        if label in ("thumbnail", "thumbnailer"):
            return self.a.max_thumbnail_cpu_s
        if self.a.max_cpu_s is not None:
            # extract's allowance grows with its files in CPU as in wall-clock time.
            return max(1, int(self.a.max_cpu_s + (timeout - self.a.timeout)))
        return max(1, int(timeout))

    def execute(self, argv, slot, timeout=None, cpu_seconds=None):
        """Runs argv in slot/ws: (rc or -signal, seconds, peak RSS KB, timed out, stdout bytes, stderr bytes).

        Peak memory comes from the chain of limited(), which forks the binary itself: on Linux a
        process forked from this script inherits the script's own peak RSS as the floor of its
        ru_maxrss (exec keeps it in the signal struct), so os.wait4 here would report Python's
        memory, not the binary's. The watchdog kills the run's whole session at the timeout."""
        rss_path = os.path.join(slot, "rss")
        out, err = self.outputs[slot]
        t0 = time.monotonic()
        # The limits are set by an exec chain, not by a preexec_fn: with one, Python must fork
        # itself whole for every run, and that was half the harness's system time.
        p = subprocess.Popen(self.limited(cpu_seconds or max(1, int(self.a.timeout)), rss_path) + argv,
                             cwd=os.path.join(slot, "ws"), env=self.env(slot), stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             start_new_session=True, close_fds=True)
        watch = self.watchdog.watch(p.pid, timeout or self.a.timeout)
        try:
            os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
        finally:
            timed_out = self.watchdog.exited(watch)
        _, status = os.waitpid(p.pid, 0)
        elapsed = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)     # reaped here: Popen must not wait again
        rc = p.returncode
        rss, cpu = 0, 0.0
        try:
            with open(rss_path) as f:
                lines = [line.strip() for line in f if line.strip()]
            os.unlink(rss_path)
            for line in lines:
                if line.startswith("Command terminated by signal"):
                    rc = -int(line.rsplit(" ", 1)[1])
            fields = lines[-1].split() if lines else []
            if len(fields) == 3 and fields[0].isdigit():
                rss, cpu = int(fields[0]), float(fields[1]) + float(fields[2])
        except (OSError, ValueError):
            pass
        if timed_out:
            rc = -signal.SIGKILL
        return rc, elapsed, rss, timed_out, drain(out), drain(err), cpu

    # -- one file

    def invocations(self, name, path, exp):
        form = input_form(path)
        foreign = form != "gallery"
        deep = exp.get("deep", False) if exp is not None else True
        runs = []
        for c in self.a.commands:
            if c == "validate":
                runs.append(("validate", ["validate", "--format", "json"] + (["--deep"] if deep else []) + [path], None))
            elif c == "info":
                runs.append(("info", ["info", path], None))
                runs.append(("info --json", ["info", path, "--json"], None))
            elif c == "list":
                runs.append(("list --json", ["list", path, "--json"], None))
            elif c == "extract":
                runs.append(("extract", ["extract", path, "--to", "OUT"], "OUT"))
            elif c == "thumbnail":
                runs.append(("thumbnail", ["thumbnail", "-s", str(THUMBNAIL_SIZE), path, "OUT.png"], "OUT.png"))
            elif c == "thumbnailer":
                # The confined program the thumbnailer entry runs, beside the binary.
                runs.append(("thumbnailer", [THUMBNAILER, "-s", str(THUMBNAIL_SIZE), path, "OUT.png"], "OUT.png"))
            elif c == "convert":
                out = "OUT.imagegallery" if foreign else "OUT.cbz"
                # seed JSON would fetch its images: from the (empty) cache only
                runs.append(("convert", ["convert", path, out] + (["--offline"] if form == "seed-json" else []), out))
            elif c == "unpack" and not foreign:
                runs.append(("unpack", ["convert", path, "OUT"], "OUT"))
            elif c == "privacy" and not foreign:
                # Issue 32: the metadata read, then removed from a writable copy (see stage_copy).
                runs.append(("info --privacy", ["info", path, "--privacy", "--json"], None))
                runs.append(("strip", ["strip", "--location", "--identity", "--json", "OUT.imagegallery"],
                             "OUT.imagegallery"))
        return runs

    @staticmethod
    def stage_copy(label, inp, slot):
        """`strip` edits in place: it gets a writable copy of the input, in the workspace, under
        the name it is judged by."""
        if label == "strip":
            copy = os.path.join(slot, "ws", "OUT.imagegallery")
            shutil.copyfile(inp, copy)
            os.chmod(copy, 0o644)

    def check_file(self, name):
        src = os.path.join(self.corpus, name)
        exp = self.expected.get(name) if self.expected is not None else None
        slot_i = self.slots.get()
        try:
            return self._check_file(name, src, exp, os.path.join(self.scratch, f"slot{slot_i}"))
        finally:
            self.slots.put(slot_i)

    def _check_file(self, name, src, exp, slot):
        results = []
        original = sha256_file(src)
        for part in ("ws", "home", "tmp", "run", "in"):
            clear(os.path.join(slot, part))
        inp = os.path.join(slot, "in", os.path.basename(name))
        shutil.copyfile(src, inp)
        os.chmod(inp, 0o444)
        for label, args, target in self.invocations(name, inp, exp):
            for part in ("ws", "home", "tmp", "run"):
                clear(os.path.join(slot, part))
            # extract writes one file per image (at most 100,000, the format's limit): its bound
            # grows by --per-file-ms for each file the corpus says it writes.
            files = (exp or {}).get("extractFiles", 0) if label == "extract" else 0
            timeout = self.a.timeout + files * self.a.per_file_ms / 1000
            self.stage_copy(label, inp, slot)
            argv = [self.thumbnailer] + args[1:] if args[0] == THUMBNAILER else [self.binary] + args
            cpu_limit = self.cpu_limit(label, timeout)
            rc, secs, rss, timed_out, out, err, cpu = self.execute(argv, slot, timeout, cpu_limit)
            r = {"file": name, "command": label, "argv": args, "rc": rc, "time": round(secs, 3), "rssKB": rss,
                 "cpuSeconds": round(cpu, 3), "cpuLimit": cpu_limit, "problems": [], "notes": [], "timeout": timeout}
            errs = err.decode("utf-8", "replace")
            r["stderrTail"] = errs[-1500:]
            self.judge(r, label, rc, timed_out, rss, out, errs, name, inp, exp, slot, target)
            known = ((exp or {}).get("known") or {}).get(label.split()[0])
            if (known and r["problems"] and not self.a.strict_known
                    and all(p.startswith(("timeout", "slow")) for p in r["problems"])):
                r["known"] = f"{known} [{'; '.join(r['problems'])}]"
                r["problems"] = []
            if os.path.exists(inp) and sha256_file(inp) != original:
                r["problems"].append("the input was changed")
            extra = [p for p in walk(os.path.join(slot, "in")) if p != os.path.basename(name)]
            if extra:
                r["problems"].append("written beside the input: " + ", ".join(extra[:5]))
            results.append(r)
        # Any other escape to /tmp (the prefix the corpus's names use), once per file: listing /tmp
        # costs more than a run.
        outside = outside_now() - self.outside_before
        if outside and results:
            results[-1]["problems"].append("written outside by one of this file's runs: " + ", ".join(sorted(outside)))
            self.remove(outside)
        return results

    def judge(self, r, label, rc, timed_out, rss, out, errs, name, inp, exp, slot, target):
        cmd = label.split()[0]
        abnormal = timed_out or rc < 0
        self.judge_ending(r, cmd, rc, timed_out, rss, errs, name)
        report_valid = self.judge_printed(r, label, cmd, rc, abnormal, out)
        if exp is not None:
            self.judge_expectations(r, cmd, rc, abnormal, exp, report_valid)
        self.judge_workspace(r, cmd, rc, timed_out, exp, slot, target)
        self.judge_scratch(r, exp, slot)

    def judge_ending(self, r, cmd, rc, timed_out, rss, errs, name):
        """How the run ended: signals, timeouts, crash text, memory, and an exit code this input allows."""
        P = r["problems"]
        if timed_out:
            P.append(f"timeout: killed after {r['timeout']:g} s")
        elif rc == -signal.SIGXCPU:
            P.append(f"CPU limit: stopped after {r['cpuSeconds']:.1f} s of CPU (RLIMIT_CPU {r['cpuLimit']} s)")
        elif rc < 0:
            try:
                sig = signal.Signals(-rc).name
            except ValueError:
                sig = "?"
            P.append(f"crash: signal {-rc} ({sig})")
        crash = [t for t in CRASH_TEXT if t in errs]
        if crash:
            P.append("crash text on stderr: " + ", ".join(crash))
        if rss > self.max_rss_kb:
            P.append(f"memory: peak {rss / 1024:.1f} MB > {self.a.max_rss_mb:g} MB")
        if r["time"] > r["timeout"] and not timed_out:
            P.append(f"slow: {r['time']:.1f} s")
        abnormal = timed_out or rc < 0
        ok_codes = {0, 1} if cmd == "validate" else {0, 65}
        if cmd == "convert" and "--offline" in r.get("argv", []):
            ok_codes = {0, 4, 5, 65}        # seed JSON: some or none of the images could be had (README)
        if rc not in ok_codes and not abnormal:
            P.append(f"exit {rc} ({EXIT_MEANING.get(rc, 'undocumented')}): not a clean result for this input")
        failed = rc != 0 and not (cmd == "validate" and rc == 1)
        if failed and not abnormal:
            if not errs.strip():
                P.append(f"exit {rc} with nothing on stderr")
            elif os.path.basename(name) not in errs and not (cmd == "strip" and "OUT.imagegallery" in errs):
                # strip works on its copy (stage_copy), which is what it names.
                P.append(f"exit {rc}: stderr does not name the input")

    def judge_printed(self, r, label, cmd, rc, abnormal, out):
        """What the command printed: validate's report (whether it says valid, or None), info's and list's JSON."""
        P = r["problems"]
        report_valid = None
        if cmd == "validate" and rc in (0, 1) and not abnormal:
            try:
                rep = json.loads(out)
                f0 = rep["files"][0]
                report_valid = bool(f0.get("valid"))
                if report_valid != (rc == 0):
                    P.append(f"validate: exit {rc} but the report says valid={report_valid}")
                if f0.get("readFailure") is not None:
                    P.append(f"validate: readFailure {f0['readFailure']}")
            except (ValueError, KeyError, IndexError, TypeError) as e:
                P.append(f"validate: the report is not one JSON document of the documented shape ({e!r})")
        if label in ("info --json", "list --json") and rc == 0:
            try:
                json.loads(out)
            except ValueError:
                P.append(f"{label}: stdout is not JSON")
        return report_valid

    def judge_expectations(self, r, cmd, rc, abnormal, exp, report_valid):
        """What expected.json says of the file: its verdict, valid galleries read, convert's exit codes."""
        P = r["problems"]
        known_valid = exp.get("verdict") == "valid" and not exp.get("deep") and not exp.get("verdictUnknown")
        if cmd == "validate" and report_valid is not None and not exp.get("verdictUnknown"):
            want = exp.get("verdict") == "valid"
            if report_valid != want:
                msg = f"verdict: expected {exp.get('verdict')}, got {'valid' if report_valid else 'invalid'}"
                (P if self.a.verdicts else r["notes"]).append(msg)
        if known_valid and cmd in ("info", "list", "extract", "convert", "unpack", "strip") and rc != 0 and not abnormal:
            P.append(f"a valid gallery (expected.json) refused: exit {rc}")
        conv = exp.get("convert")
        if conv is not None and cmd == "convert" and rc not in conv["exit"] and not abnormal:
            P.append(f"convert: exit {rc}, expected {'/'.join(map(str, conv['exit']))}")

    def judge_workspace(self, r, cmd, rc, timed_out, exp, slot, target):
        """The workspace holds only the named output, and only after success. What a run killed at the
        timeout leaves (a temporary file it was writing) is a note: nothing can clean up after SIGKILL."""
        P = r["problems"]
        W = []
        ws = os.path.join(slot, "ws")
        listing = walk(ws)
        top = sorted({p.split("/")[0].rstrip("@") for p in listing})
        if target is None:
            if listing:
                W.append("wrote into the workspace: " + ", ".join(listing[:6]))
        else:
            strays = [t for t in top if t != target]
            if strays:
                W.append("stray files in the workspace: " + ", ".join(strays[:6]))
            present = target in top
            tpath = os.path.join(ws, target)
            if rc == 0 and not present:
                W.append(f"exit 0 but {target} was not written")
            elif rc != 0 and present:
                if cmd == "extract" and os.path.isdir(tpath) and not os.path.islink(tpath):
                    names = sorted(os.listdir(tpath))
                    if names:
                        r["notes"].append(f"extract failed after writing {len(names)} whole image(s)")
                    self.check_extracted(W, tpath)
                elif cmd != "strip":  # strip's target is its copy, there before it ran
                    W.append(f"exit {rc} but {target} was left behind")
            elif rc == 0:
                self.check_output(W, r, cmd, tpath, exp, slot)
        if timed_out:
            r["notes"] += ["after the timeout kill: " + w for w in W]
        else:
            P += W

    def judge_scratch(self, r, exp, slot):
        """The rest of the scratch folder, HOME and the world outside: nothing written there."""
        P = r["problems"]
        home = walk(os.path.join(slot, "home"))
        bad_home = [p for p in home if not (p in (".cache/", ".cache/imagegallery/")
                                            or p.startswith(".cache/imagegallery/"))]
        if bad_home:
            P.append("wrote in HOME: " + ", ".join(bad_home[:6]))
        for part in ("tmp", "run"):
            left = walk(os.path.join(slot, part))
            if left:
                P.append(f"left in {'TMPDIR' if part == 'tmp' else 'XDG_RUNTIME_DIR'}: " + ", ".join(left[:6]))
        beside = sorted(set(os.listdir(slot)) - SCRATCH_PARTS)
        if beside:
            P.append("written beside the workspace: " + ", ".join(beside[:6]))
            for b in beside:
                p = os.path.join(slot, b)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        with self.lock:
            root = sorted(n for n in os.listdir(self.scratch) if not n.startswith("slot"))
            if root:
                P.append("written two levels above the workspace: " + ", ".join(root[:6]))
                for b in root:
                    p = os.path.join(self.scratch, b)
                    shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        outside = {o for o in ((exp or {}).get("convert") or {}).get("outside", [])
                   if os.path.lexists(o) and o not in self.outside_before}
        if outside:
            P.append("written outside: " + ", ".join(sorted(outside)))
            self.remove(outside)

    def remove(self, paths):
        for o in paths:
            try:
                shutil.rmtree(o) if os.path.isdir(o) and not os.path.islink(o) else os.unlink(o)
            except OSError:
                pass

    def check_extracted(self, P, folder):
        for p in walk(folder):
            full = os.path.join(folder, p)
            if p.endswith("/") or p.endswith("@"):
                P.append(f"extract wrote {p!r}: not a plain file")
                continue
            if os.path.basename(p).startswith("."):
                P.append(f"extract left a hidden file {p!r}")
            with open(full, "rb") as f:
                head = f.read(12)
            if not is_image(head):
                P.append(f"extract wrote {p!r}, which is none of the six image types (format 2.0, section 5)")

    def check_output(self, P, r, cmd, path, exp, slot):
        if cmd in ("thumbnail", "thumbnailer"):
            ok, what = describe_png(path, THUMBNAIL_SIZE)
            if not ok:
                P.append(f"thumbnail exit 0 but OUT.png {what}")
            else:
                r["notes"].append(f"thumbnail {what}")
        elif cmd == "extract":
            if not os.path.isdir(path) or os.path.islink(path):
                P.append("extract: OUT is not a folder")
            else:
                self.check_extracted(P, path)
        elif cmd == "convert" and path.endswith(".cbz"):
            try:
                with zipfile.ZipFile(path) as z:
                    bad = z.testzip()
                    if bad is not None:
                        P.append(f"convert: OUT.cbz entry {bad} is damaged")
                    r["notes"].append(f"cbz of {len(z.namelist())} entries")
            except (zipfile.BadZipFile, OSError) as e:
                P.append(f"convert: OUT.cbz is not a sound ZIP ({e})")
        elif cmd == "convert":
            images = None
            try:
                with zipfile.ZipFile(path) as z:
                    if z.testzip() is not None:
                        P.append("convert: OUT.imagegallery has a damaged entry")
                    images = len(json.loads(z.read("manifest.json"))["images"])
            except (zipfile.BadZipFile, OSError, KeyError, ValueError) as e:
                P.append(f"convert: OUT.imagegallery cannot be read ({e})")
            want = ((exp or {}).get("convert") or {}).get("images")
            if want is not None and images is not None and images != want:
                P.append(f"convert: {images} images, expected {want}")
            rc, secs, rss, timed_out, out, err, _ = self.execute([self.binary, "validate", path], slot)
            if rc != 0:
                P.append(f"convert wrote a gallery that validate refuses (exit {rc}): "
                         + err.decode("utf-8", "replace")[-300:] + out.decode("utf-8", "replace")[-300:])
            r["notes"].append(f"gallery of {images} images")
        elif cmd == "unpack":
            if not os.path.isdir(path) or os.path.islink(path):
                P.append("unpack: OUT is not a folder")
            else:
                for p in walk(path):
                    if p.endswith("@"):
                        P.append(f"unpack wrote a link {p!r}")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus")
    ap.add_argument("--binary", default=os.environ.get("IMAGEGALLERY", ".build/release/imagegallery"))
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--per-file-ms", type=float, default=1.0,
                    help="extra time extract gets per file it writes (expected.json extractFiles; default 1 ms: "
                         "creating a file costs 0.1 to 0.3 ms on the test machine's disk)")
    ap.add_argument("--max-as-mb", type=float, default=256.0, help="RLIMIT_AS of every run, MiB")
    ap.add_argument("--max-rss-mb", type=float, default=256.0, help="peak resident memory allowed, MiB")
    ap.add_argument("--max-thumbnail-cpu-s", type=int, default=2,
                    help="RLIMIT_CPU of thumbnail and thumbnailer runs, seconds (every other run gets --max-cpu-s)")
    ap.add_argument("--max-cpu-s", type=float, default=None,
                    help="RLIMIT_CPU of every other run, seconds (default: the timeout's). CPU is the bound on "
                         "work; with a longer --timeout the wall clock only catches hangs, so a busy machine "
                         "does not fail a run")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--commands", default=",".join(DEFAULT_COMMANDS),
                    help="comma-separated, of " + ", ".join(ALL_COMMANDS))
    ap.add_argument("--json", dest="report", default=None, help="write the full report here")
    ap.add_argument("--only", default=None, help="check only files whose name contains this")
    ap.add_argument("--scratch", default=None, help="where to make the scratch folder (default $TMPDIR)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder (removed by default)")
    ap.add_argument("--strict-known", action="store_true", help="count the known issues expected.json lists "
                    "(\"known\": {command: why}, for timeouts only) as problems")
    ap.add_argument("--verdicts", action="store_true", help="count validate verdicts that differ from expected.json "
                    "as problems")
    a = ap.parse_args()
    a.commands = [c.strip() for c in a.commands.split(",") if c.strip()]
    unknown = [c for c in a.commands if c not in ALL_COMMANDS]
    if unknown:
        ap.error("unknown command(s): " + ", ".join(unknown))
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"check-hostile-commands: {a.binary}: not an executable")
    beside = os.path.join(os.path.dirname(os.path.abspath(a.binary)), THUMBNAILER)
    if "thumbnailer" in a.commands and not os.access(beside, os.X_OK):
        sys.exit(f"check-hostile-commands: {beside}: not an executable (the thumbnailer command runs the one beside --binary)")
    return a


def corpus_files(a, corpus):
    """The corpus's expected.json (None when it has none) and the names of the files to check."""
    expected = None
    ej = os.path.join(corpus, "expected.json")
    if os.path.isfile(ej):
        with open(ej) as f:
            expected = json.load(f)
        names = sorted(expected)
    else:
        names = sorted(os.path.relpath(os.path.join(d, f), corpus) for d, _, fs in os.walk(corpus) for f in fs
                       if os.path.isfile(os.path.join(d, f)) and not os.path.islink(os.path.join(d, f)))
    if a.only:
        names = [n for n in names if a.only in n]
    missing = [n for n in names if not os.path.isfile(os.path.join(corpus, n))]
    if missing:
        sys.exit(f"check-hostile-commands: {len(missing)} files of expected.json are missing: {missing[:5]}")
    return expected, names


def run_all(a, corpus, expected, names):
    """Every command on every named file: the runs' results, the seconds they took, and the corpus
    files that changed on the way."""
    before = {n: sha256_file(os.path.join(corpus, n)) for n in names}
    runner = Runner(a, corpus, expected)
    t0 = time.monotonic()
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            for rs in ex.map(runner.check_file, names):
                results.extend(rs)
    finally:
        shutil.rmtree(runner.helper_dir, ignore_errors=True)
        if a.keep:
            print(f"scratch folder kept: {runner.scratch}")
        else:
            shutil.rmtree(runner.scratch, ignore_errors=True)
    wall = time.monotonic() - t0
    changed = [n for n in names if not os.path.isfile(os.path.join(corpus, n))
               or sha256_file(os.path.join(corpus, n)) != before[n]]
    return results, wall, changed


def summarise_commands(a, names, results, labels, wall):
    """Print a line per command (runs, time, exit codes, memory, the slowest file); the same as a dict."""
    print(f"hostile commands: {len(names)} files x {len(labels)} commands = {len(results)} runs, {a.binary}, "
          f"{a.jobs} jobs, {wall:.1f} s; RLIMIT_AS {a.max_as_mb:g} MiB, timeout {a.timeout:g} s, "
          f"RSS limit {a.max_rss_mb:g} MB")
    summary = {}
    for lab in labels:
        rs = [r for r in results if r["command"] == lab]
        codes = {}
        for r in rs:
            codes[r["rc"]] = codes.get(r["rc"], 0) + 1
        top = max(rs, key=lambda r: r["rssKB"])
        slow = sorted(rs, key=lambda r: -r["time"])[:3]
        nprob = sum(1 for r in rs if r["problems"])
        total = sum(r["time"] for r in rs)
        summary[lab] = {"runs": len(rs), "exitCodes": {str(k): v for k, v in sorted(codes.items())},
                        "seconds": round(total, 2), "withProblems": nprob,
                        "maxRssKB": top["rssKB"], "maxRssFile": top["file"],
                        "slowest": [[r["file"], r["time"]] for r in slow]}
        print(f"  {lab:12s} {len(rs):5d} runs {total:7.1f} s  exit " +
              " ".join(f"{k}:{v}" for k, v in sorted(codes.items())) +
              f"  max RSS {top['rssKB'] / 1024:.1f} MB ({top['file']})  slowest {slow[0]['time']:.2f} s "
              f"({slow[0]['file']})  problems {nprob}")
    slowest = sorted(results, key=lambda r: -r["time"])[:8]
    print("  slowest runs: " + ", ".join(f"{r['command']} {r['file']} {r['time']:.2f} s" for r in slowest))
    heaviest = sorted(results, key=lambda r: -r["rssKB"])[:5]
    print("  most memory: " + ", ".join(f"{r['command']} {r['file']} {r['rssKB'] / 1024:.1f} MB" for r in heaviest))
    return summary


def print_findings(results, changed):
    """Print the notes, the known issues and the problems of the runs; the runs known and with problems."""
    notes = {}
    for r in results:
        for n in r["notes"]:
            if n.startswith("verdict") or n.startswith("extract failed"):
                notes.setdefault(n.split(":")[0] if n.startswith("verdict") else "extract failed after writing "
                                 "whole images", []).append(r["file"])
    for k, fs in sorted(notes.items()):
        print(f"  note: {k}: {len(fs)} file(s): " + ", ".join(fs[:8]) + (" ..." if len(fs) > 8 else ""))
    known = [r for r in results if r.get("known")]
    if known:
        print(f"\nknown issues ({len(known)} runs; expected.json \"known\"; not counted without --strict-known):")
        for r in known:
            print(f"  {r['file']}: {r['command']}: {r['known']}")
    bad = [r for r in results if r["problems"]]
    if changed:
        print(f"\nthe corpus changed: {', '.join(changed[:10])}")
    if bad:
        print(f"\nproblems ({len(bad)} runs):")
        for r in bad:
            print(f"  {r['file']}: {r['command']}: exit {r['rc']}, {r['time']:.2f} s, {r['rssKB'] / 1024:.1f} MB")
            for p in r["problems"]:
                print(f"      {p}")
            tail = r["stderrTail"].strip().replace("\n", " | ")[-400:]
            if tail:
                print(f"      stderr: {tail}")
    return known, bad


def main():
    a = parse_args()
    corpus = os.path.abspath(a.corpus)
    expected, names = corpus_files(a, corpus)
    results, wall, changed = run_all(a, corpus, expected, names)
    labels = []
    for r in results:
        if r["command"] not in labels:
            labels.append(r["command"])
    summary = summarise_commands(a, names, results, labels, wall)
    known, bad = print_findings(results, changed)
    if a.report:
        with open(a.report, "w") as f:
            json.dump({"summary": {"files": len(names), "runs": len(results), "wallSeconds": round(wall, 2),
                                   "binary": a.binary, "jobs": a.jobs, "timeout": a.timeout,
                                   "maxAsMiB": a.max_as_mb, "maxRssMB": a.max_rss_mb, "commands": summary,
                                   "problemRuns": len(bad), "knownIssueRuns": len(known), "corpusChanged": changed},
                       "runs": results}, f, indent=1, sort_keys=True)
            f.write("\n")
    fail = bool(bad or changed)
    print(f"\n{'FAIL' if fail else 'PASS'}: {len(bad)} runs with problems over {len(names)} files "
          f"and {len(labels)} commands" + (f" ({len(known)} known issues not counted)" if known else ""))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
