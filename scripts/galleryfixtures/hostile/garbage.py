"""Families g-, t- and f-: garbage that is no ZIP, a canonical gallery truncated at many places,
and single bit flips in it, each expected outcome derived from the field the flip lands in."""

import gzip
import io
import random
import zipfile
import zlib

from ..zipwriting import MIMETYPE, E, build, end_record
from . import output
from .gallery import base
from .images import make_jpeg, make_png
from .output import U, V, X, want


def plain_zip():
    """An ordinary zip of one text file, written by Python's zipfile."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("hello.txt", (2020, 1, 1, 0, 0, 0)), "hello")
    return buf.getvalue()


def fam_garbage():
    F = "garbage"
    X("g-empty", b"", "PKG", ["IG-PKG-002"], "empty file", family=F, q=True)
    for n in ([100] if output.QUICK else [1, 4, 21, 22, 100, 4096, 70000]):
        X(f"g-random-{n}", random.Random(f"rand{n}").randbytes(n), "PKG", ["IG-PKG-001"], f"{n} random bytes", family=F,
          q=True)
    X("g-jpeg-file", make_jpeg(64, 48, 1), "PKG", ["IG-PKG-001"], "a JPEG file", family=F)
    if want(False):
        X("g-text", b"hello, world\n", "PKG", ["IG-PKG-001"], "a text file", family=F)
        X("g-png-file", make_png(40, 30, seed=2), "PKG", ["IG-PKG-001"], "a PNG file", family=F)
        X("g-pk-then-random", b"PK\x03\x04" + random.Random("pkr").randbytes(200), "PKG", ["IG-PKG-001"],
          "local header signature then random bytes", family=F)
        X("g-zeros-1MiB", bytes(1 << 20), "PKG", ["IG-PKG-001"], "1 MiB of zeros", family=F)
        X("g-gzip", gzip.compress(b"x" * 1000, mtime=0), "PKG", ["IG-PKG-001"], "a gzip file", family=F)
        X("g-random-then-eocd", random.Random("re").randbytes(1000) + end_record(cd_offset=1000),
          "PKG", ["IG-PKG-022", "IG-PKG-017", "IG-PKG-025"], "random bytes and an empty EOCD", family=F)
        X("g-plain-zip", plain_zip(), "PKG", ["IG-PKG-022"],
          "an ordinary zip: no manifest.json, found before the mimetype is looked at", family=F)
    X("g-eocd-only", end_record(), "PKG", ["IG-PKG-022"],
      "an empty zip (22 bytes): the missing manifest (fatal) is its one finding (11)", family=F)
    X("g-mimetype-only", build([E("mimetype", MIMETYPE)]), "PKG", ["IG-PKG-022"], "mimetype and nothing else", family=F,
      q=True)
    if want(False):
        g = base()
        es = g.entries()
        es[0] = E("mimetype", b"application/epub+zip", 0)
        X("g-epub-mimetype", build(es, g.dt()), "PKG", ["IG-PKG-008"], "mimetype of EPUB", family=F)


def flip_base():
    g = base("flip")
    data, fmap = g.zip(fmap=True)
    # the expectations below assume no ZIP signature hides inside entry data
    for start, size, rec, ent, field in fmap:
        if rec == "data":
            chunk = data[start:start + size]
            for sig in (b"PK\x01\x02", b"PK\x03\x04", b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07", b"PK\x07\x08"):
                assert sig not in chunk, (ent, sig)
    return g, data, fmap


def classify_flip(data, fmap, off, bit, g):
    """Expected outcome of flipping bit `bit` of byte `off` of the flip base, by field (see the notes)."""
    for start, size, rec, ent, field in fmap:
        if start <= off < start + size:
            break
    else:
        raise AssertionError(off)
    rel = off - start
    where = f"{rec}:{ent}:{field}+{rel}"
    is_man = ent == "manifest.json"
    pkg = ["PKG", "MAN"] if is_man else ["PKG"]
    inval = dict(verdict="invalid", categories=pkg)
    valid = dict(verdict="valid")
    if rec == "local":
        if field in ("ver",):
            return valid, where + ": version needed is not checked (9.1)"
        if field in ("time", "date"):
            return valid, where + ": timestamps carry no information and are not compared (4.8, PKG-015 lists name, method, flags, CRC, sizes)"
        return inval, where
    if rec == "data":
        if ent == "mimetype":
            return dict(verdict="invalid", categories=["PKG"], ids=["IG-PKG-008", "IG-PKG-020"]), where
        if is_man:
            e = [x for x in g.entries() if x.name == b"manifest.json"][0]
            p = bytearray(e.payload)
            p[rel] ^= 1 << bit
            d = zlib.decompressobj(-15)
            try:
                out = d.decompress(bytes(p), len(e.data) + 10)
                ok = d.eof and out == e.data and not d.unused_data
            except zlib.error:
                ok = False
            if ok:
                return valid, where + ": flip in the padding bits after the final deflate block; same data"
            return dict(verdict="invalid", categories=["PKG", "MAN"]), where
        if ent == "thumbnail.png":
            return dict(verdict="invalid", categories=["PKG", "THM"]), where + ": CRC-32 mismatch (PKG-020) and maybe a THM finding"
        return dict(verdict="invalid", categories=["PKG", "BLB"]), where + ": CRC-32 mismatch (PKG-020) and SHA-256 mismatch (BLB-003)"
    if rec == "central":
        if field == "flags" and rel == 0 and bit == 3 and ent != "mimetype" \
                and [x for x in g.entries() if x.name.decode() == ent][0].method == 0:
            return dict(verdict="invalid", categories=["PKG"], ids=["IG-PKG-033"]), \
                where + ": a stored entry with flag bit 3, refused in the central directory (IG-PKG-033)"
        if field in ("made", "ver", "iattr"):
            return valid, where + ": version made by / needed / internal attributes are not checked (9.1)"
        if field in ("time", "date"):
            return valid, where + ": timestamps are not checked (4.8)"
        if field == "disk":
            return dict(verdict="invalid", verdictUnknown=True), where + ": disk number start != 0: single volume is a MUST of 4.1 with no id"
        if field == "eattr":
            if rel == 0:
                if bit == 4:
                    return dict(verdict="invalid", verdictUnknown=True), where + ": MS-DOS directory attribute on a regular Unix file"
                return valid, where + ": MS-DOS attribute bits other than directory"
            if rel in (1, 2):
                return valid, where + ": permission bits"
            if bit < 4:
                return valid, where + ": permission/setuid/setgid/sticky bits, still a regular file"
            if bit == 7:
                return dict(verdict="invalid", verdictUnknown=True), where + ": file type bits become 0 on a Unix host"
            return dict(verdict="invalid", categories=["PKG"], ids=["IG-PKG-012"]), where + ": not a regular file"
        return inval, where
    if rec == "eocd":
        return dict(verdict="invalid", categories=["PKG"]), where
    raise AssertionError(where)


def fam_truncflip():
    F = "truncate"
    g, data, fmap = flip_base()
    n = len(data)
    cd = data.index(b"PK\x01\x02")
    eo = data.rindex(b"PK\x05\x06")
    if output.QUICK:
        offs = [1, 30, 70, n // 2, cd + 3, eo + 10, n - 1]
    else:
        offs = set(range(0, n, max(1, n // 45)))
        offs |= {1, 4, 21, 22, 29, 30, 37, 38, 69, 70, 71, cd - 1, cd, cd + 1, cd + 46, eo - 1, eo, eo + 4,
                 eo + 21, n - 1, n - 22, n - 23}
        offs.discard(0)
        offs = sorted(o for o in offs if 0 < o < n)
    for o in offs:
        X(f"t-trunc-{o:06d}", data[:o], "PKG", ["IG-PKG-001", "IG-PKG-003"],
          f"canonical gallery of {n} bytes cut to {o} bytes", family=F, q=True)
    if want(False):
        X("t-trunc-zero-padded", data[:n // 2] + bytes(n - n // 2), "PKG", ["IG-PKG-001"],
          "second half overwritten with zeros", family=F)
        X("t-trunc-cd-cut-eocd-kept", data[:cd + 20] + data[eo:], "PKG", ["IG-PKG-018", "IG-PKG-030", "IG-PKG-003"],
          "central directory cut short, EOCD kept", family=F)
    F = "bitflip"
    rng = random.Random("flips")
    picks = []
    fields = [f for f in fmap if f[2] != "data"]
    for f in fields:
        picks.append((f[0] + rng.randrange(f[1]), rng.randrange(8)))
    datafields = [f for f in fmap if f[2] == "data"]
    for _ in range(40):
        f = datafields[rng.randrange(len(datafields))]
        picks.append((f[0] + rng.randrange(f[1]), rng.randrange(8)))
    # the padding bits at the end of the manifest's deflate stream
    mf = [f for f in datafields if f[3] == "manifest.json"][0]
    for b in range(8):
        picks.append((mf[0] + mf[1] - 1, b))
    picks = sorted(set(picks))
    if output.QUICK:
        picks = random.Random("quickflips").sample(picks, 16)
        picks.sort()
    for off, bit in picks:
        exp, where = classify_flip(data, fmap, off, bit, g)
        d = bytearray(data)
        d[off] ^= 1 << bit
        name = f"f-flip-{off:06d}-{bit}"
        if exp["verdict"] == "valid":
            V(name, bytes(d), "bit flip at " + where, family=F, q=True)
        elif exp.get("verdictUnknown"):
            U(name, bytes(d), "bit flip at " + where, family=F, q=True)
        else:
            cats = exp["categories"]
            X(name, bytes(d), cats[0], exp.get("ids", []), "bit flip at " + where, family=F, q=True,
              categories=cats if len(cats) > 1 else None)
