#!/usr/bin/python3
"""Show what two streaming readers see in ZIP files, and what Python's zipfile sees.

Usage: check-streaming-view.py [--timeout S] [--max-entry-mb N] [--max-total-mb N] [--jobs N]
                               [--show-entries N] [--output FILE] FILE...

For each FILE three views are computed, each an ordered list of entries (name as bytes, kind,
SHA-256 and size of the content). Two are streaming views, which walk the file from the front
and never read the central directory:

  local       a strict walk of the local headers from offset 0, like Java's ZipInputStream:
              a local header must start exactly where the previous entry (and its data
              descriptor) ended; the walk stops at the first bytes that are not a local file
              header signature. Sizes come from the local header (and its ZIP64 extra). For an
              entry with a data descriptor (flag bit 3) a deflated entry is inflated to find its
              end; a stored one is scanned for a PK\\x07\\x08 signature followed by the CRC-32
              of the bytes before it, the way libarchive does; the descriptor (with or without
              its signature; 8-byte sizes when the local header has a ZIP64 extra, as libarchive
              reads it) must repeat the real CRC-32 and sizes. CRC-32 and sizes are checked.
  libarchive  bsdtar (Debian's libarchive-tools) reading the file from a pipe, so libarchive
              uses its streaming ZIP reader, which searches forward for each local header and
              stops at the central directory: `bsdtar -tf -` gives the entries in order,
              `bsdtar -xf - -C TMPDIR` extracts them (as user nobody, through setpriv, when run
              as root; under RLIMIT_FSIZE, a timeout and a cap on the bytes written; bsdtar's
              defaults refuse absolute and `..` paths and writing through symbolic links). Where
              a name occurs more than once, a second extraction with -k (keep the first) gives
              the first occurrence's content; the last comes from the plain extraction; any in
              between is unknown. A file of at most 1 MiB is put in the pipe whole before bsdtar
              starts; a larger one is fed by `cat`.

The third, for information only, reads the central directory:

  zipfile     Python's zipfile: the central directory, every entry read through it (CRC-32
              checked). If zipfile cannot open the file, the view records the failure. It is not
              the reference the streaming views must equal: that is the central directory as
              this project's reader sees it (format 9.2), which zipfile does not always match
              (it takes an end record inside the archive comment, it trusts a central header's
              extra length where ours refuses the header). Tests/CommandLineTests/Read/
              StreamingViewTests.swift compares each streaming view with the view of the
              project's own ZipArchive, entry by entry (name bytes, SHA-256, size).

Output, on standard output or in --output: one JSON document
  {"files": [{"file", "size", "streamingAgree", "differences": [text...],
              "zipfileAgrees", "zipfileDifferences": [text...],
              "views": {"local"|"libarchive"|"zipfile":
                        {"complete", "error", "count", "entries": [...], "entriesTruncated",
                         "stop" (local only)}}}],
   "summary": {"files", "streamingAgree", "streamingDiffer", "zipfileDiffers", "unreadable",
               "seconds"}}
An entry is {"name" (UTF-8, undecodable bytes as \\xNN), "nameHex" (the name's bytes), "kind"
("file", "directory", "symlink", "other"), "size", "sha256" (files), "target" (symlinks),
"error" (when it could not be read)}; --show-entries bounds how many are listed per view.
A view is complete when it has no failure and no entry that could not be read. The streaming
views agree when both are complete and list the same entries, in the same order, with the same
names, kinds and contents; zipfile agrees when, complete too, it lists the same entries as
both (in any order: the central directory's order need not be the file's). Directory entries
(names ending in "/") are compared by name only.

Exit status: 0 when every file's streaming views agree, 1 when any differ, 2 on a usage error or
a file that cannot be read at all. Never stops on a hostile file: every failure is recorded in
its view. Python 3 standard library only, plus bsdtar, and prlimit and setpriv (util-linux).
"""

import argparse
import concurrent.futures
import fcntl
import hashlib
import json
import mmap
import os
import pwd
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib

LFH = b"PK\x03\x04"
CDH = b"PK\x01\x02"
DDS = b"PK\x07\x08"
EOCD = b"PK\x05\x06"
Z64EOCD = b"PK\x06\x06"
MAX32 = 0xFFFFFFFF
MAX_ENTRIES = 250_000
CHUNK = 1 << 20
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": "/nonexistent"}


class Caps:
    def __init__(self, entry_bytes, total_bytes, timeout):
        self.entry = entry_bytes
        self.total = total_bytes
        self.timeout = timeout


class CapExceeded(Exception):
    pass


def entry(name, kind, sha=None, size=None, error=None, target=None):
    return {"name": bytes(name), "kind": kind, "sha256": sha, "size": size, "error": error, "target": target}


def key(e):
    if e["kind"] == "directory":
        return (e["name"], "directory")
    if e["kind"] == "symlink":
        return (e["name"], "symlink", e["target"])
    return (e["name"], e["kind"], e["sha256"])


def view(entries, error=None, **extra):
    v = {"entries": entries, "error": error}
    v.update(extra)
    return v


def complete(v):
    return v["error"] is None and all(e["error"] is None for e in v["entries"])


def show_name(b):
    return b.decode("utf-8", "backslashreplace")


# ----------------------------------------------------------------------------
# c. (information only) the central directory, through Python's zipfile


def raw_name(info):
    try:
        return info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")
    except UnicodeEncodeError:
        return info.orig_filename.encode("utf-8", "surrogateescape")


def zipfile_view(path, caps):
    try:
        zf = zipfile.ZipFile(path)
    except Exception as e:  # noqa: BLE001 - a hostile file may raise anything
        return view([], f"zipfile cannot open it: {type(e).__name__}: {e}")
    entries = []
    total = 0
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            return view([], f"more than {MAX_ENTRIES} entries")
        for info in infos:
            name = raw_name(info)
            if name.endswith(b"/"):
                entries.append(entry(name, "directory"))
                continue
            h = hashlib.sha256()
            n = 0
            try:
                with zf.open(info) as f:
                    while True:
                        chunk = f.read(CHUNK)
                        if not chunk:
                            break
                        n += len(chunk)
                        total += len(chunk)
                        if n > caps.entry or total > caps.total:
                            raise CapExceeded(f"more than the cap of {caps.entry} bytes for an entry "
                                              f"or {caps.total} in all")
                        h.update(chunk)
                entries.append(entry(name, "file", h.hexdigest(), n))
            except Exception as e:  # noqa: BLE001
                entries.append(entry(name, "file", error=f"{type(e).__name__}: {e}"))
    return view(entries)


# ----------------------------------------------------------------------------
# a. a strict walk of the local headers, like Java's ZipInputStream


class WalkError(Exception):
    pass


def zip64_sizes(extra, csize, usize):
    """The sizes a local ZIP64 extra gives (in APPNOTE order, only the ones the header defers)."""
    found = False
    i = 0
    while i + 4 <= len(extra):
        hid, size = struct.unpack_from("<HH", extra, i)
        body = extra[i + 4:i + 4 + size]
        if hid == 1:
            found = True
            j = 0
            if usize == MAX32 and j + 8 <= len(body):
                usize = struct.unpack_from("<Q", body, j)[0]
                j += 8
            if csize == MAX32 and j + 8 <= len(body):
                csize = struct.unpack_from("<Q", body, j)[0]
            break
        i += 4 + size
    return found, csize, usize


class Digest:
    def __init__(self, caps, budget):
        self.sha = hashlib.sha256()
        self.crc = 0
        self.size = 0
        self.caps = caps
        self.budget = budget

    def update(self, b):
        self.size += len(b)
        self.budget[0] += len(b)
        if self.size > self.caps.entry or self.budget[0] > self.caps.total:
            raise CapExceeded(f"more than the cap of {self.caps.entry} bytes for an entry or {self.caps.total} in all")
        self.sha.update(b)
        self.crc = zlib.crc32(b, self.crc)


def inflate(data, start, limit, digest):
    """Inflates a raw deflate stream from data[start:limit]; returns the bytes it consumed."""
    d = zlib.decompressobj(-15)
    pos = start
    while pos < limit:
        chunk = data[pos:min(pos + 65536, limit)]
        pos += len(chunk)
        out = d.decompress(chunk, CHUNK)
        digest.update(out)
        while d.unconsumed_tail:
            out = d.decompress(d.unconsumed_tail, CHUNK)
            digest.update(out)
        if d.eof:
            return pos - start - len(d.unused_data)
    raise WalkError("the deflate stream does not end within the file" if limit == len(data)
                    else "the deflate stream does not end within the compressed size")


def stored_until_descriptor(data, start, digest):
    """libarchive's scan for the end of a stored entry with a data descriptor: the first
    PK\\x07\\x08 followed by the CRC-32 of the bytes before it, with 24 bytes from it in the file
    (libarchive reads that much ahead, whatever the descriptor's width)."""
    need = 24
    pos = start
    done = start
    while True:
        found = data.find(DDS, pos)
        if found < 0 or found + need > len(data):
            raise WalkError("no data descriptor signature followed by the data's CRC-32 before the end of the file "
                            "(a stored entry with a data descriptor must have the signature to be read as a stream)")
        digest.update(data[done:found])
        done = found
        if struct.unpack_from("<I", data, found + 4)[0] == digest.crc & MAX32:
            return found - start
        pos = found + 1


def local_view(data, caps):
    entries = []
    budget = [0]
    off = 0
    n = len(data)
    stop = None
    while True:
        if len(entries) >= MAX_ENTRIES:
            return view(entries, f"more than {MAX_ENTRIES} entries", stop=None)
        sig = data[off:off + 4]
        if sig != LFH:
            what = {CDH: "central directory header", EOCD: "end of central directory record",
                    Z64EOCD: "ZIP64 end of central directory record"}.get(sig)
            if off >= n:
                what = "end of file"
            stop = {"offset": off, "reason": what or "bytes that are not a local file header"}
            break
        nlen = 0
        try:
            if off + 30 > n:
                raise WalkError("truncated local file header")
            (_ver, flags, method, _t, _d, crc, csize, usize, nlen, xlen) = struct.unpack_from("<HHHHHIIIHH", data, off + 4)
            name = data[off + 30:off + 30 + nlen]
            extra = data[off + 30 + nlen:off + 30 + nlen + xlen]
            start = off + 30 + nlen + xlen
            if start > n:
                raise WalkError("truncated local file header (name or extra field)")
            has64, csize, usize = zip64_sizes(extra, csize, usize)
            if flags & 1:
                raise WalkError("encrypted entry")
            if method not in (0, 8):
                raise WalkError(f"compression method {method}")
            digest = Digest(caps, budget)
            if flags & 8:
                if method == 8:
                    consumed = inflate(data, start, n, digest)
                else:
                    consumed = stored_until_descriptor(data, start, digest)
                end = start + consumed
                signed = data[end:end + 4] == DDS
                width = 8 if has64 else 4
                body = end + (4 if signed else 0)
                if body + 4 + 2 * width > n:
                    raise WalkError("truncated data descriptor")
                dcrc = struct.unpack_from("<I", data, body)[0]
                dcsize, dusize = struct.unpack_from("<QQ" if has64 else "<II", data, body + 4)
                if (dcrc, dcsize, dusize) != (digest.crc & MAX32, consumed, digest.size):
                    raise WalkError(f"the data descriptor (CRC-32 {dcrc:08x}, sizes {dcsize}/{dusize}, "
                                    f"{'64' if has64 else '32'}-bit) disagrees with the data "
                                    f"({digest.crc & MAX32:08x}, {consumed}/{digest.size})")
                end = body + 4 + 2 * width
            else:
                if start + csize > n:
                    raise WalkError("the entry's data runs past the end of the file")
                if method == 8:
                    consumed = inflate(data, start, start + csize, digest)
                    if consumed != csize:
                        raise WalkError(f"the deflate stream ends after {consumed} of {csize} bytes")
                else:
                    if csize != usize:
                        raise WalkError(f"stored entry with sizes {csize} and {usize}")
                    for p in range(start, start + csize, CHUNK):
                        digest.update(data[p:min(p + CHUNK, start + csize)])
                if digest.size != usize:
                    raise WalkError(f"the data is {digest.size} bytes, the local header says {usize}")
                if digest.crc & MAX32 != crc:
                    raise WalkError(f"CRC-32 {digest.crc & MAX32:08x}, the local header says {crc:08x}")
                end = start + csize
        except (WalkError, CapExceeded, zlib.error, struct.error) as e:
            nm = data[off + 30:off + 30 + nlen] if off + 30 <= n else b""
            entries.append(entry(nm, "directory" if nm.endswith(b"/") else "file",
                                 error=f"at offset {off}: {e}"))
            return view(entries, None, stop={"offset": off, "reason": f"unreadable entry: {e}"})
        if name.endswith(b"/"):
            entries.append(entry(name, "directory"))
        else:
            entries.append(entry(name, "file", digest.sha.hexdigest(), digest.size))
        off = end
    return view(entries, None, stop=stop)


# ----------------------------------------------------------------------------
# b. libarchive's streaming reader: bsdtar on a pipe


def unescape_listing(line):
    """Undoes bsdtar's safe_fprintf: \\\\, \\a \\b \\f \\n \\r \\t \\v and \\ooo."""
    out = bytearray()
    i = 0
    simple = {ord("a"): 7, ord("b"): 8, ord("f"): 12, ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("v"): 11,
              ord("\\"): 92}
    while i < len(line):
        c = line[i]
        if c == 92 and i + 1 < len(line):
            d = line[i + 1]
            if d in simple:
                out.append(simple[d])
                i += 2
                continue
            if i + 3 < len(line) and all(48 <= x <= 55 for x in line[i + 1:i + 4]):
                out.append(int(line[i + 1:i + 4], 8) & 0xFF)
                i += 4
                continue
        out.append(c)
        i += 1
    return bytes(out)


def strip_absolute_path(p):
    """bsdtar's strip_absolute_path (tar/util.c), which -x applies without -P."""
    if len(p) >= 4 and p[0:1] in (b"/", b"\\") and p[1:2] in (b"/", b"\\") and p[2:3] in (b".", b"?") \
            and p[3:4] in (b"/", b"\\"):
        if p[2:3] == b"?" and p[4:7].lower() == b"unc" and p[7:8] in (b"/", b"\\"):
            p = p[8:]
        else:
            p = p[4:]
    while True:
        before = p
        if len(p) >= 2 and chr(p[0]).isascii() and chr(p[0]).isalpha() and p[1:2] == b":":
            p = p[2:]
        while p[:1] in (b"/", b"\\"):
            if p[1:3] == b".." and p[3:4] in (b"/", b"\\"):
                p = p[3:]
            elif p[1:2] == b"." and p[2:3] in (b"/", b"\\"):
                p = p[2:]
            else:
                p = p[1:]
        if p == before:
            return p


def extraction_path(name):
    """Where `bsdtar -x` puts an entry, relative to -C; None if it refuses the name."""
    p = strip_absolute_path(name) or b"."
    parts = [c for c in p.split(b"/") if c not in (b"", b".")]
    if b".." in parts:
        return None
    return b"/".join(parts)


def tree_bytes(root, limit):
    total = 0
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):
        for f in filenames:
            count += 1
            try:
                total += os.lstat(os.path.join(dirpath, f)).st_blocks * 512
            except OSError:
                pass
            if total > limit or count > MAX_ENTRIES:
                return total
    return total


def run_piped(argv, path, caps, user=None, watch=None, out_cap=16 << 20, err_cap=1 << 16):
    """Runs argv with the file at `path` on stdin through a pipe (`cat FILE | argv`); returns
    (status, stdout, stderr, why killed).
    Killed at the timeout, or when the files under `watch` pass the total cap; RLIMIT_FSIZE
    bounds each file it writes; stdout is cut at out_cap."""
    kw = {}
    limits = ["/usr/bin/prlimit", f"--fsize={caps.entry}", "--core=0", f"--as={2 << 30}", "--"]
    if user is not None:
        limits = ["/usr/bin/setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"] + limits
    small = prefilled_pipe(path)
    if small is not None:
        # The whole file fits in the pipe's buffer: written before bsdtar starts, still a pipe.
        try:
            proc = subprocess.Popen(limits + argv, stdin=small, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    start_new_session=True, env=ENV, cwd="/", **kw)
        finally:
            os.close(small)
        return wait_piped(proc, caps, watch, out_cap, err_cap)
    cat = subprocess.Popen(["cat", "--", os.path.abspath(path)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, start_new_session=True, env=ENV)
    try:
        proc = subprocess.Popen(limits + argv, stdin=cat.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, env=ENV, cwd="/", **kw)
    except BaseException:
        kill(cat)
        cat.wait()
        raise
    finally:
        cat.stdout.close()
    try:
        return wait_piped(proc, caps, watch, out_cap, err_cap)
    finally:
        kill(cat)
        cat.wait()


PIPE_BYTES = 1 << 20


def prefilled_pipe(path):
    """The read end of a pipe that already holds the whole file and is closed for writing, or
    None when the file is larger than the pipe can be made to hold."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    if size > PIPE_BYTES:
        return None
    r, w = os.pipe()
    try:
        if size > 65536:
            fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        with open(path, "rb") as f:
            data = f.read(PIPE_BYTES + 1)
        if len(data) > PIPE_BYTES:
            raise OSError("the file grew")
        os.set_blocking(w, False)
        view = memoryview(data)
        while view:
            view = view[os.write(w, view):]
    except OSError:
        os.close(r)
        return None
    finally:
        os.close(w)
    return r


def wait_piped(proc, caps, watch, out_cap, err_cap):
    killed = None
    deadline = time.monotonic() + caps.timeout
    step = 0.05
    out = err = b""
    while True:
        try:
            out, err = proc.communicate(timeout=step)
            break
        except subprocess.TimeoutExpired:
            pass
        step = min(step * 2, 0.25)
        if time.monotonic() > deadline:
            killed = f"timeout after {caps.timeout:g} s"
        elif watch is not None and tree_bytes(watch, caps.total) > caps.total:
            killed = f"wrote more than {caps.total} bytes"
        if killed:
            kill(proc)
            out, err = proc.communicate()
            break
    if len(out) > out_cap:
        killed = killed or "output over the cap"
        out = out[:out_cap]
    return proc.returncode, out, err[:err_cap], killed


def kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def scan_tree(root, caps):
    """relative path (bytes) -> entry dict, for everything under root; never follows a link."""
    found = {}
    budget = [0]
    stack = [b""]
    rootb = os.fsencode(root)
    while stack:
        rel = stack.pop()
        here = os.path.join(rootb, rel) if rel else rootb
        try:
            items = list(os.scandir(here))
        except PermissionError:
            try:
                os.chmod(here, 0o700)
                items = list(os.scandir(here))
            except OSError:
                continue
        except OSError:
            continue
        for de in items:
            r = rel + b"/" + de.name if rel else de.name
            try:
                st = os.lstat(de.path)
            except OSError as e:
                found[r] = entry(r, "other", error=str(e))
                continue
            if stat.S_ISDIR(st.st_mode):
                found[r] = entry(r, "directory")
                stack.append(r)
            elif stat.S_ISLNK(st.st_mode):
                found[r] = entry(r, "symlink", target=os.readlink(de.path).decode("utf-8", "backslashreplace"))
            elif stat.S_ISREG(st.st_mode):
                found[r] = hash_file(de.path, r, st, caps, budget)
            else:
                found[r] = entry(r, "other", error=f"file type {stat.S_IFMT(st.st_mode):o}")
    return found


def hash_file(path, rel, st, caps, budget):
    if st.st_size > caps.entry:
        return entry(rel, "file", error=f"{st.st_size} bytes, over the cap of {caps.entry}")
    budget[0] += st.st_size
    if budget[0] > caps.total:
        return entry(rel, "file", error=f"over the cap of {caps.total} bytes in all")
    try:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except PermissionError:
            os.chmod(path, 0o600, follow_symlinks=False)
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        h = hashlib.sha256()
        size = 0
        with os.fdopen(fd, "rb") as f:
            while size <= caps.entry:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                h.update(chunk)
        return entry(rel, "file", h.hexdigest(), size)
    except OSError as e:
        return entry(rel, "file", error=str(e))


def bsdtar_user():
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        return None


def listing_escape(name):
    """How bsdtar's safe_fprintf prints a name (in a UTF-8 locale), for matching its -v lines."""
    out = bytearray()
    text = name.decode("utf-8", "surrogateescape")
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            out += b"\\%03o" % (ord(ch) - 0xDC00)
        elif ch == "\\":
            out += b"\\\\"
        elif ch.isprintable() or ch == " ":
            out += ch.encode("utf-8")
        else:
            for byte in ch.encode("utf-8"):
                if 0x20 <= byte < 0x7F:
                    out.append(byte)
                else:
                    out += {7: b"\\a", 8: b"\\b", 12: b"\\f", 10: b"\\n", 13: b"\\r", 9: b"\\t",
                            11: b"\\v"}.get(byte, b"\\%03o" % byte)
    return bytes(out)


def extraction_results(lines, names):
    """Matches the `x NAME[: error]` lines of `bsdtar -xv` to the listed names, in order.
    Returns ([error or None per name], [other lines]) or (None, lines) when they do not match."""
    entry_lines = [line for line in lines if line.startswith(b"x ")]
    others = [line for line in lines if not line.startswith(b"x ")
              and line != b"bsdtar: Error exit delayed from previous errors."]
    if len(entry_lines) != len(names):
        return None, others + [b"(the -x output lists %d entries, the -t listing %d)" % (len(entry_lines), len(names))]
    errors = []
    for line, name in zip(entry_lines, names):
        shown = listing_escape(strip_absolute_path(name) or b".")
        rest = line[2:]
        if rest == shown:
            errors.append(None)
        elif rest.startswith(shown + b": "):
            errors.append(rest[len(shown) + 2:].decode("utf-8", "backslashreplace"))
        else:
            return None, others + [b"(cannot match the -x line " + line[:200] + b")"]
    return errors, others


def pattern_for(name):
    """A bsdtar pattern that matches exactly `name` (libarchive's pathmatch; '$' anchors the end)."""
    out = bytearray()
    for i, byte in enumerate(name):
        if byte in b"\\*?[" or (i == 0 and byte == ord("^")):
            out.append(0x5C)
        out.append(byte)
    return bytes(out) + b"$"


def normal_path(name):
    return b"/".join(c for c in name.split(b"/") if c not in (b"", b"."))


def read_one(path, name, names, caps):
    """The content of one entry through `bsdtar -xOf - PATTERN`, when the pattern can only match
    it: used where extraction failed for a reason of the file system (a name component longer
    than NAME_MAX), not of reading."""
    norm = normal_path(name)
    if b"\0" in name or sum(1 for n in names if normal_path(n) == norm) != 1 \
            or any(normal_path(n).startswith(norm + b"/") for n in names):
        return None
    status, out, err, killed = run_piped(["bsdtar", "-xOf", "-", "--", pattern_for(name)], path, caps,
                                         out_cap=caps.entry)
    if status != 0 or killed:
        return None
    return entry(name, "file", hashlib.sha256(out).hexdigest(), len(out))


FILE_SYSTEM_ERRORS = ("File name too long",)


def libarchive_view(path, caps, scratch):
    user = bsdtar_user()
    if user is not None:
        os.chmod(scratch, 0o711)    # bsdtar, as nobody, passes through to its own folder
    status, out, err, killed = run_piped(["bsdtar", "-tf", "-"], path, caps)
    problems = []
    if killed or status != 0:
        problems.append(f"bsdtar -t: {killed or f'exit {status}'}: {tidy(err)}")
    lines = out.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    names = [unescape_listing(line) for line in lines]

    def extract(folder, keep_old):
        os.mkdir(folder, 0o700)
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        argv = ["bsdtar", "-x" + ("k" if keep_old else "v"), "-f", "-", "-C", folder, "--no-same-owner",
                "--no-same-permissions"]
        return run_piped(argv, path, caps, user=user, watch=folder, out_cap=1 << 16, err_cap=16 << 20), \
            scan_tree(folder, caps)

    (status, _, err, killed), last = extract(os.path.join(scratch, "x"), False)
    errors, others = extraction_results(err.split(b"\n")[:-1] if err.endswith(b"\n") else err.split(b"\n"), names)
    if killed or (status != 0 and (errors is None or others)):
        problems.append(f"bsdtar -x: {killed or f'exit {status}'}: " + tidy(b"\n".join(others)))
    if errors is None:
        errors = [None] * len(names)
    paths = [extraction_path(n) for n in names]
    occurrences = {}
    for p in paths:
        if p is not None:
            occurrences[p] = occurrences.get(p, 0) + 1
    first = None
    if any(c > 1 for c in occurrences.values()):
        (_, _, _, killed), first = extract(os.path.join(scratch, "k"), True)
        if killed:
            problems.append(f"bsdtar -xk: {killed}")
    seen = {}
    entries = []
    for name, p, error in zip(names, paths, errors):
        if error is not None:
            got = read_one(path, name, names, caps) if any(e in error for e in FILE_SYSTEM_ERRORS) else None
            entries.append(got or entry(name, "file", error=f"bsdtar -x: {error}"))
            continue
        if p is None:
            entries.append(entry(name, "file", error="bsdtar -x refuses the name (a '..' component)"))
            continue
        k = seen[p] = seen.get(p, 0) + 1
        source = last
        if occurrences[p] > 1:
            if k == 1:
                source = first
            elif k < occurrences[p]:
                entries.append(entry(name, "file", error=f"content unknown: occurrence {k} of {occurrences[p]} "
                                                         "of the same extraction path"))
                continue
        got = source.get(p) if p else entry(b"", "directory")
        if got is None:
            entries.append(entry(name, "file", error="not extracted"))
            continue
        if name.endswith(b"/") and got["kind"] == "directory":
            entries.append(entry(name, "directory"))
        elif got["kind"] == "directory":
            entries.append(entry(name, "directory", error="a directory, though its name does not end in '/'"))
        else:
            e = dict(got)
            e["name"] = name
            entries.append(e)
    return view(entries, "; ".join(problems) or None)


def tidy(err):
    return err.decode("utf-8", "backslashreplace").strip().replace("\n", " | ")[:400]


# ----------------------------------------------------------------------------
# comparison and output


STREAMING = ("local", "libarchive")
VIEWS = STREAMING + ("zipfile",)


def describe(e):
    if e is None:
        return "nothing"
    s = f"{e['kind']} {show_name(e['name'])!r}"
    if e["error"]:
        return s + f" (unreadable: {e['error']})"
    if e["kind"] == "file":
        s += f" ({e['size']} bytes, sha256 {e['sha256'][:12]})"
    if e["kind"] == "symlink":
        s += f" -> {e['target']!r}"
    return s


def failures(views, names):
    out = []
    for v in names:
        if views[v]["error"]:
            out.append(f"{v}: {views[v]['error']}")
        for i, e in enumerate(views[v]["entries"]):
            if e["error"]:
                out.append(f"{v}: entry {i + 1} {show_name(e['name'])!r}: {e['error']}")
    return out


def ordered_difference(views, a, b):
    """None when views a and b list the same entries in the same order, else a sentence."""
    ka = [key(e) for e in views[a]["entries"]]
    kb = [key(e) for e in views[b]["entries"]]
    if ka == kb:
        return None
    i = next((j for j in range(min(len(ka), len(kb))) if ka[j] != kb[j]), min(len(ka), len(kb)))
    ea = views[a]["entries"][i] if i < len(ka) else None
    eb = views[b]["entries"][i] if i < len(kb) else None
    return (f"{a} ({len(ka)} entries) and {b} ({len(kb)}) differ from entry {i + 1}: "
            f"{a} has {describe(ea)}, {b} has {describe(eb)}")


def unordered_difference(views, a, b):
    """None when views a and b list the same entries in any order, else a sentence."""
    ca, cb = {}, {}
    for e in views[a]["entries"]:
        ca.setdefault(key(e), []).append(e)
    for e in views[b]["entries"]:
        cb.setdefault(key(e), []).append(e)
    only_a = [es[0] for k, es in ca.items() if len(es) > len(cb.get(k, ()))]
    only_b = [es[0] for k, es in cb.items() if len(es) > len(ca.get(k, ()))]
    if not only_a and not only_b:
        return None
    return (f"{a} ({len(views[a]['entries'])} entries) and {b} ({len(views[b]['entries'])}) differ: "
            f"only {a} has {', '.join(describe(e) for e in only_a[:3]) or 'nothing'}"
            f"{' …' if len(only_a) > 3 else ''}; only {b} has "
            f"{', '.join(describe(e) for e in only_b[:3]) or 'nothing'}{' …' if len(only_b) > 3 else ''}")


def public(v, show):
    entries = []
    for e in v["entries"][:show]:
        d = {"name": show_name(e["name"]), "nameHex": bytes(e["name"]).hex(), "kind": e["kind"]}
        for k in ("size", "sha256", "target", "error"):
            if e[k] is not None:
                d[k] = e[k]
        entries.append(d)
    out = {"complete": complete(v), "error": v["error"], "count": len(v["entries"]), "entries": entries,
           "entriesTruncated": len(v["entries"]) > show}
    if "stop" in v:
        out["stop"] = v["stop"]
    return out


def check_file(path, caps, show, scratch_base):
    rec = {"file": path}
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except OSError as e:
        rec.update(streamingAgree=False, zipfileAgrees=False, readError=str(e),
                   differences=[f"cannot read the file: {e}"], zipfileDifferences=[], views={})
        return rec
    rec["size"] = size
    views = {}
    try:
        views["zipfile"] = zipfile_view(path, caps)
        try:
            views["local"] = local_view(data, caps)
        except Exception as e:  # noqa: BLE001 - never stop on one file
            views["local"] = view([], f"walk failed: {type(e).__name__}: {e}", stop=None)
        scratch = tempfile.mkdtemp(prefix="check-streaming-view-", dir=scratch_base)
        try:
            views["libarchive"] = libarchive_view(path, caps, scratch)
        except Exception as e:  # noqa: BLE001
            views["libarchive"] = view([], f"bsdtar failed: {type(e).__name__}: {e}")
        finally:
            remove_tree(scratch)
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
    streaming = failures(views, STREAMING)
    d = ordered_difference(views, "local", "libarchive")
    if d:
        streaming.append(d)
    rec["streamingAgree"] = not streaming
    rec["differences"] = streaming
    info = failures(views, ("zipfile",))
    for v in STREAMING:
        d = unordered_difference(views, "zipfile", v)
        if d:
            info.append(d)
    rec["zipfileAgrees"] = not info and not streaming
    rec["zipfileDifferences"] = info
    rec["views"] = {v: public(views[v], show) for v in VIEWS}
    return rec


def default_scratch(room):
    """/dev/shm (a tmpfs: extracting and removing thousands of small trees is quick there) when it
    has `room` bytes free, else the usual temporary folder."""
    try:
        st = os.statvfs("/dev/shm")
        if os.access("/dev/shm", os.W_OK | os.X_OK) and st.f_bavail * st.f_frsize >= room:
            return "/dev/shm"
    except OSError:
        pass
    return tempfile.gettempdir()


def remove_tree(path):
    def fix(func, p, _exc):
        try:
            os.chmod(os.path.dirname(p), 0o700)
            func(p)
        except OSError:
            pass
    shutil.rmtree(path, onerror=fix)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds for each bsdtar run (default 10)")
    ap.add_argument("--max-entry-mb", type=float, default=64.0, help="cap on one entry's content (default 64)")
    ap.add_argument("--max-total-mb", type=float, default=256.0, help="cap on one file's contents in all (default 256)")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("--show-entries", type=int, default=40, help="entries listed per view in the output (default 40)")
    ap.add_argument("--output", help="write the JSON here instead of standard output")
    ap.add_argument("--scratch", help="where bsdtar extracts (default: /dev/shm when it has room, else $TMPDIR)")
    a = ap.parse_args()
    for tool in ("/usr/bin/bsdtar", "/usr/bin/prlimit", "/usr/bin/setpriv"):
        if not os.access(tool, os.X_OK):
            sys.exit(f"check-streaming-view: {tool} is missing (scripts/install-deps installs libarchive-tools)")
    caps = Caps(int(a.max_entry_mb * (1 << 20)), int(a.max_total_mb * (1 << 20)), a.timeout)
    scratch = a.scratch or default_scratch(caps.total * max(1, a.jobs) * 2)
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        records = list(ex.map(lambda p: check_file(p, caps, a.show_entries, scratch), a.files))
    summary = {"files": len(records), "streamingAgree": sum(1 for r in records if r.get("streamingAgree")),
               "streamingDiffer": sum(1 for r in records if not r.get("streamingAgree")),
               "zipfileDiffers": sum(1 for r in records if not r.get("zipfileAgrees")),
               "unreadable": sum(1 for r in records if "readError" in r),
               "seconds": round(time.monotonic() - t0, 2)}
    text = json.dumps({"files": records, "summary": summary}, indent=1, ensure_ascii=True) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if summary["unreadable"]:
        return 2
    return 0 if summary["streamingDiffer"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
