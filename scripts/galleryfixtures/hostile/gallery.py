"""The hostile corpus's gallery model: a document (manifest, blobs, thumbnail) written canonically
unless told otherwise, its standard images, and ways to write its manifest text."""

import functools
import hashlib
import json
import random
import re
from fractions import Fraction

from ..zipwriting import DEFAULT_DT, MIMETYPE, E, build, dos_datetime
from .images import make_jpeg, make_png

T_CREATED = "2026-11-22T10:00:00Z"
T_MODIFIED = "2026-11-22T10:42:17Z"


def placeholder_dims(first):
    if first is None:
        return 256, 256
    w, h = first
    if w >= h:
        return 256, max(1, round(Fraction(256 * h, w)))
    return max(1, round(Fraction(256 * w, h))), 256


@functools.lru_cache(maxsize=None)
def placeholder(w, h):
    return make_png(w, h, 8, 2, 0, None, 128)


class G:
    """A gallery: its manifest `m` (a dict cases change), blobs by path, and the thumbnail (the
    placeholder for the first image unless `thumb` is set)."""

    def __init__(self, seed, imgs=("j1", "p1"), title=None, generator="hostile-corpus 1"):
        self.rng = random.Random(f"gallery:{seed}")
        self.m = {
            "format": "imagegallery",
            "formatVersion": "1.0",
            "id": uuid4(self.rng),
            "revision": uuid4(self.rng),
            "title": title if title is not None else f"Hostile corpus gallery {seed}",
            "created": T_CREATED,
            "modified": T_MODIFIED,
            "images": [],
        }
        if generator is not None:
            self.m["generator"] = generator
        self.blobs = {}
        for spec in imgs:
            self.add(*std_image(spec))
        self.thumb = None

    def add(self, blob, media, w, h, store=True, **extra):
        sha = hashlib.sha256(blob).hexdigest()
        ext = "jpg" if media == "image/jpeg" else "png"
        im = dict(id=uuid4(self.rng), path=f"images/{sha}.{ext}", mediaType=media, width=w,
                  height=h, byteSize=len(blob), sha256=sha)
        im.update(extra)
        self.m["images"].append(im)
        if store:
            self.blobs.setdefault(im["path"], blob)
        return im

    def thumbnail(self):
        if self.thumb is not None:
            return self.thumb
        ims = self.m["images"]
        first = (ims[0]["width"], ims[0]["height"]) if ims and isinstance(ims[0], dict) else None
        try:
            return placeholder(*placeholder_dims(first))
        except Exception:
            return placeholder(256, 256)

    def text(self, m=None):
        return canon(self.m if m is None else m).encode("utf-8")

    def dt(self):
        try:
            return dos_datetime(self.m["modified"])
        except Exception:
            return DEFAULT_DT

    def entries(self, mtext=None, mmethod=8, tmethod=0, bmethod=0, thumb=None, order="canon"):
        mt = self.text() if mtext is None else mtext
        es = {"mimetype": [E("mimetype", MIMETYPE, 0)],
              "manifest": [E("manifest.json", mt, mmethod)],
              "thumb": [E("thumbnail.png", self.thumbnail() if thumb is None else thumb, tmethod)],
              "blobs": [E(p, b, bmethod) for p, b in self.blobs.items()]}
        seq = {"canon": ["mimetype", "manifest", "thumb", "blobs"],
               "manifest-last": ["mimetype", "thumb", "blobs", "manifest"],
               "blobs-first": ["mimetype", "blobs", "thumb", "manifest"]}[order]
        return [e for k in seq for e in es[k]]

    def zip(self, **kw):
        bkw = {k: kw.pop(k) for k in list(kw) if k in BUILD_KW}
        return build(self.entries(**kw), dt=self.dt(), **bkw)


BUILD_KW = {"prefix", "prefix_in_offsets", "cd_order", "cd_raw", "gap_before_cd", "z64", "eocd",
            "comment", "trailing", "fmap"}


def std_image(spec):
    """(bytes, mediaType, width, height) of the standard test images."""
    if spec == "j1":
        return make_jpeg(64, 48, 1), "image/jpeg", 64, 48
    if spec == "j2":
        return make_jpeg(33, 17, 2, quality=60), "image/jpeg", 33, 17
    if spec == "j3":
        return make_jpeg(20, 30, 3, progressive=True), "image/jpeg", 20, 30
    if spec == "p1":
        return make_png(40, 30, seed=2), "image/png", 40, 30
    if spec == "p2":
        return make_png(17, 5, 8, 6, seed=3), "image/png", 17, 5
    if spec == "p3":
        return make_png(9, 9, 4, 3, seed=4), "image/png", 9, 9
    raise KeyError(spec)


def base(seed="base", imgs=("j1", "p1"), **kw):
    """The gallery most cases start from: a JPEG and a PNG."""
    return G(seed, imgs, **kw)


def base_with_thumbnail(**kw):
    """The base gallery with its thumbnail made now, from its images as they are: a case that then
    changes the manifest keeps the thumbnail of the images it lists."""
    gg = base(**kw)
    gg.thumb = gg.thumbnail()
    return gg


def uuid4(rng):
    """A version-4 UUID from rng (seeded: the corpus is deterministic)."""
    b = bytearray(rng.getrandbits(8) for _ in range(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def canon(m):
    """The canonical manifest text of section 6.2 (as its informative note says)."""
    return json.dumps(m, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


RAWS = []


def R(s):
    """A placeholder string that raw_subst replaces, quotes included, by the raw JSON text s."""
    RAWS.append(s if isinstance(s, bytes) else s.encode("utf-8"))
    return f"@@RAW{len(RAWS) - 1}@@"


def raw_subst(t):
    if isinstance(t, str):
        t = t.encode("utf-8")
    return re.sub(rb'"@@RAW(\d+)@@"', lambda m: RAWS[int(m.group(1))], t)


def escape_all(m):
    """JSON text with every string character escaped (astral ones as surrogate pairs), '/' as '\\/'."""
    def s(x):
        out = []
        for ch in x:
            cp = ord(ch)
            if ch == "/":
                out.append("\\/")
            elif cp > 0xFFFF:
                cp -= 0x10000
                out.append("\\u%04X\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
            else:
                out.append("\\u%04X" % cp)
        return '"' + "".join(out) + '"'

    def v(x):
        if isinstance(x, dict):
            return "{ " + " , ".join(s(k) + " : " + v(val) for k, val in x.items()) + " }"
        if isinstance(x, list):
            return "[" + ",".join(v(i) for i in x) + "]"
        if isinstance(x, str):
            return s(x)
        if x is True:
            return "true"
        if x is False:
            return "false"
        if x is None:
            return "null"
        return str(x)
    return v(m).encode("ascii")


DELETE = object()


def setp(m, path, value):
    """Set the member of manifest m at `path` (keys and indexes) to value, or delete it (DELETE)."""
    o = m
    for k in path[:-1]:
        o = o[k]
    if value is DELETE:
        del o[path[-1]]
    else:
        o[path[-1]] = value
