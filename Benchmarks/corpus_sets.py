#!/usr/bin/python3
"""Derive the benchmark image sets from the reference photo corpus.

usage: corpus_sets.py CORPUS_DIR [--verify]

CORPUS_DIR/photos must hold the reference corpus (built by
../shared/bench/make_corpus.sh: small/0000..0199.jpg, large/00..19.jpg).
This script writes, deterministically (Debian 12 Python 3.11 + Pillow 9.4 +
libjpeg62-turbo 2.1):

  g10k/00000.jpg .. 09999.jpg
      10,000 distinct JPEGs, 1.05-1.15 GB in all. Each small photo i is
      re-encoded once (Lanczos downscale, baseline, 4:2:0, quality 85, or the
      lowest of 88/90/92/95/97 that can reach the window) to a size between
      105,000 and 115,000 bytes; file i*50+v (v = 0..49) is that
      base with a JPEG comment segment (FF FE, length, "variant v") inserted
      right after SOI: still a valid JPEG, and distinct bytes.
  g1g/0000.jpg ...
      rounds r = 0, 1, ... of (the 200 small photos, then the 20 large 24 MP
      photos), each copy with the comment "variant r" after SOI, until the
      files total at least 1 GiB (2^30 bytes). Real photo sizes, all distinct.
  g10k.stamp.json, g1g.stamp.json, g10k.SHA256SUMS, g1g.SHA256SUMS
      what was built (parameters, file names, sizes, SHA-256). A set whose
      stamp matches the parameters, names and sizes on disk is not rebuilt
      (--verify also re-hashes every file).

Each set is built in SET.tmp/ and renamed into place when complete.
"""
import hashlib
import io
import json
import math
import os
import shutil
import struct
import sys
from multiprocessing import Pool

from PIL import Image, __version__ as PIL_VERSION

STAMP_VERSION = 1     # stamp layout; bump a set's "recipe" when its output changes
G10K = dict(name="g10k", recipe=2, variants=50, qualities=[85, 88, 90, 92, 95, 97],
            lo=105_000, hi=115_000, target=110_000, min_total=1_000_000_000)
G1G = dict(name="g1g", recipe=1, min_total=1 << 30)
N_SMALL, N_LARGE = 200, 20


def log(msg):
    print(msg, flush=True)


def with_comment(jpeg: bytes, text: str) -> bytes:
    """Insert a COM segment (FF FE, big-endian length incl. itself, text) right after SOI."""
    if jpeg[:3] != b"\xff\xd8\xff":
        raise ValueError("not a JPEG")
    payload = text.encode("ascii")
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def encode(im, long_side, quality):
    w, h = im.size
    if w >= h:
        size = (long_side, max(1, round(h * long_side / w)))
    else:
        size = (max(1, round(w * long_side / h)), long_side)
    out = im if size == im.size else im.resize(size, Image.LANCZOS)
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=quality)
    return buf.getvalue(), size


def make_base(args):
    """Re-encode one photo so that it is lo..hi bytes: search the long side at quality 85, else
    at the next listed quality (small or smooth photos; a slight downscale can also drop the
    size sharply below the full-size encode)."""
    path, p = args
    with Image.open(path) as im:
        im = im.convert("RGB")
    lo_b, hi_b, target = p["lo"], p["hi"], p["target"]
    full = max(im.size)
    tries, best = [], None
    for q in p["qualities"]:
        data, size = encode(im, full, q)
        n = len(data)
        tries.append((full, q, n))
        if best is None or abs(n - target) < best[0]:
            best = (abs(n - target), data, size, q)
        if n < lo_b:
            continue                       # too small even at full size: raise the quality
        if n <= hi_b:
            return path, data, size, q, tries, True
        lo, hi = 1, full                   # size(lo) < window (assumed), size(hi) > window
        guess = full * math.sqrt(target / n)
        while hi - lo > 1:
            L = min(max(int(round(guess)), lo + 1), hi - 1)
            data, size = encode(im, L, q)
            n = len(data)
            tries.append((L, q, n))
            if abs(n - target) < best[0]:
                best = (abs(n - target), data, size, q)
            if lo_b <= n <= hi_b:
                return path, data, size, q, tries, True
            if n < lo_b:
                lo = L
            else:
                hi = L
            guess = L * math.sqrt(target / n)
            if not (lo < guess < hi):
                guess = (lo + hi) / 2
    # no listed quality hits the window (not the case for this corpus): keep the closest, flagged
    return path, best[1], best[2], best[3], tries, False


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def stamp_ok(out, name, params, verify):
    stamp_path = os.path.join(out, name + ".stamp.json")
    d = os.path.join(out, name)
    try:
        with open(stamp_path) as fh:
            stamp = json.load(fh)
    except (OSError, ValueError):
        return False
    if stamp.get("version") != STAMP_VERSION or stamp.get("params") != params:
        log(f"{name}: stamp parameters differ; rebuilding")
        return False
    files = stamp.get("files", [])
    try:
        on_disk = sorted(os.listdir(d))
    except OSError:
        return False
    if on_disk != [f for f, _, _ in files]:
        log(f"{name}: files on disk differ from the stamp; rebuilding")
        return False
    for f, n, h in files:
        p = os.path.join(d, f)
        if os.path.getsize(p) != n:
            log(f"{name}: {f} has the wrong size; rebuilding")
            return False
        if verify:
            with open(p, "rb") as fh:
                if sha256(fh.read()) != h:
                    log(f"{name}: {f} has the wrong SHA-256; rebuilding")
                    return False
    total = sum(n for _, n, _ in files)
    log(f"{name}: up to date ({len(files)} files, {total:,} bytes{', verified' if verify else ''})")
    return True


def write_set(out, name, params, items):
    """items: iterable of (file name, bytes). Writes into name.tmp, checks, renames, stamps."""
    d = os.path.join(out, name)
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    files, seen, total = [], set(), 0
    for k, (fname, data) in enumerate(items, 1):
        h = sha256(data)
        if h in seen:
            raise SystemExit(f"{name}: {fname} duplicates an earlier file")
        seen.add(h)
        with open(os.path.join(tmp, fname), "wb") as fh:
            fh.write(data)
        files.append((fname, len(data), h))
        total += len(data)
        if k % 1000 == 0:
            log(f"{name}: {k} files, {total / 1e9:.3f} GB")
    if total < params["min_total"]:
        raise SystemExit(f"{name}: only {total:,} bytes, want >= {params['min_total']:,}")
    for stale in (os.path.join(out, name + ".stamp.json"), os.path.join(out, name + ".SHA256SUMS")):
        if os.path.exists(stale):
            os.remove(stale)
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    with open(os.path.join(out, name + ".SHA256SUMS"), "w") as fh:
        for f, _, h in files:
            fh.write(f"{h}  {name}/{f}\n")
    with open(os.path.join(out, name + ".stamp.json"), "w") as fh:
        json.dump({"version": STAMP_VERSION, "params": params, "pillow": PIL_VERSION,
                   "count": len(files), "totalBytes": total, "files": files}, fh, indent=0)
        fh.write("\n")
    log(f"{name}: wrote {len(files)} files, {total:,} bytes ({total / 2**30:.3f} GiB)")


def build_g10k(out, photos, params):
    paths = [os.path.join(photos, "small", f"{i:04d}.jpg") for i in range(N_SMALL)]
    jobs = [(p, params) for p in paths]
    bases = [None] * N_SMALL
    qs = {}
    with Pool(os.cpu_count() or 1) as pool:
        for k, (path, data, size, q, tries, ok) in enumerate(pool.imap(make_base, jobs), 1):
            i = paths.index(path)
            bases[i] = data
            qs[q] = qs.get(q, 0) + 1
            if not ok:
                log(f"g10k: WARNING base {i:04d} is {len(data):,} bytes, outside "
                    f"{params['lo']:,}..{params['hi']:,} (tries {tries})")
            if k % 20 == 0:
                log(f"g10k: base {k}/{N_SMALL} re-encoded ({i:04d}: {size[0]}x{size[1]} q{q}, "
                    f"{len(data):,} bytes, {len(tries)} encodes)")
    sizes = sorted(len(b) for b in bases)
    log(f"g10k: bases {sizes[0]:,}..{sizes[-1]:,} bytes, mean {sum(sizes) / len(sizes):,.0f}; "
        f"qualities used: {dict(sorted(qs.items()))}")
    # spot-check: the last variant of every base still decodes to the base's size
    for i, b in enumerate(bases):
        v = with_comment(b, f"variant {params['variants'] - 1}")
        with Image.open(io.BytesIO(v)) as a, Image.open(io.BytesIO(b)) as c:
            a.load()
            if a.size != c.size:
                raise SystemExit(f"g10k: variant of base {i} does not decode")

    def items():
        for i, b in enumerate(bases):
            for v in range(params["variants"]):
                yield f"{i * params['variants'] + v:05d}.jpg", with_comment(b, f"variant {v}")
    write_set(out, "g10k", params, items())


def build_g1g(out, photos, params):
    srcs = [os.path.join(photos, "small", f"{i:04d}.jpg") for i in range(N_SMALL)] + \
           [os.path.join(photos, "large", f"{j:02d}.jpg") for j in range(N_LARGE)]
    data = []
    for p in srcs:
        with open(p, "rb") as fh:
            data.append(fh.read())

    def items():
        total, k, r = 0, 0, 0
        while total < params["min_total"]:
            for b in data:
                v = with_comment(b, f"variant {r}")
                yield f"{k:04d}.jpg", v
                k += 1
                total += len(v)
                if total >= params["min_total"]:
                    break
            r += 1
    write_set(out, "g1g", params, items())


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    verify = "--verify" in sys.argv[1:]
    if len(args) != 1:
        raise SystemExit(__doc__)
    out = os.path.abspath(args[0])
    photos = os.path.join(out, "photos")
    for rel in [f"small/{i:04d}.jpg" for i in range(N_SMALL)] + [f"large/{j:02d}.jpg" for j in range(N_LARGE)]:
        if not os.path.isfile(os.path.join(photos, rel)):
            raise SystemExit(f"missing {photos}/{rel}: build the photo corpus first")
    # the inputs are part of the parameters: a rebuilt photo corpus invalidates the sets
    with open(os.path.join(photos, "SHA256SUMS")) as fh:
        photos_sum = sha256(fh.read().encode())
    p10 = dict(G10K, photos=photos_sum)
    p1g = dict(G1G, photos=photos_sum)
    if not stamp_ok(out, "g10k", p10, verify):
        build_g10k(out, photos, p10)
    if not stamp_ok(out, "g1g", p1g, verify):
        build_g1g(out, photos, p1g)


if __name__ == "__main__":
    main()
