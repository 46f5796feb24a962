#!/usr/bin/python3
"""Generate the imagegallery test fixtures, deterministically.

usage: make-fixtures.py [--out DIR]          write Fixtures/ (default: <repo>/Fixtures)
       make-fixtures.py --large DIR           write only the large fixtures into DIR
                                              (too big to keep in the repository)
       make-fixtures.py --check [--out DIR]   regenerate in memory and compare byte for
                                              byte with Fixtures/ (exit 1 on a difference)

Writes under Fixtures/:
  images/     10 synthetic sample pictures (JPEG and PNG variants) + README.md
  valid/      galleries in the canonical form of the v1 brief, written by the
              small independent canonical writer below (struct, not zipfile),
              each with a NAME.manifest.json sidecar (the exact manifest bytes)
  tolerant/   galleries a reader MUST accept, written by Python's zipfile
              (and a few by hand) -- i.e. by a different writer
  invalid/     galleries with exactly one structural defect each, named
              <DIAGNOSTIC-ID>-<slug>.imagegallery; invalid/warnings/ holds the
              ones whose defect is only a warning; invalid/content/ the blob and
              thumbnail defects (IG-BLB-*, IG-THM-*) that `validate` finds

Everything is deterministic: no clock, every pseudo-random choice comes from
random.Random seeded with a fixed string, every ZIP timestamp comes from the
manifest's fixed `modified` time. Bytes are stable for a given Python + Pillow +
libjpeg-turbo + zlib build (Debian 12: Python 3.11, python3-pil 9.4,
libjpeg62-turbo 2.1.5, zlib 1.2.13). Running it twice gives identical files.
Only Debian's python3 and python3-pil are needed (no numpy).
"""
import argparse
import bz2
import hashlib
import io
import math
import os
import random
import re
import struct
import sys
import uuid
import zipfile
import zlib

from PIL import Image, ImageDraw, ImageFilter, ImageOps

# ---------------------------------------------------------------------------
# Fixed parameters
# ---------------------------------------------------------------------------

MIMETYPE = b"application/vnd.imagegallery+zip"
FIXED_DATE = "2026-01-02T03:04:05Z"
GENERATOR = "imagegallery 0.1.0"
# Namespace of every fixture document id: uuid5(NAMESPACE_DNS, "fixtures.imagegallery.invalid")
FIXTURE_NS = uuid.uuid5(uuid.NAMESPACE_DNS, "fixtures.imagegallery.invalid")

MAX_U32 = 0xFFFFFFFF
MAX_U16 = 0xFFFF


def doc_id(name):
    """The fixed document id of fixture `name` (lowercase RFC 9562 text)."""
    return str(uuid.uuid5(FIXTURE_NS, name))


def sha256hex(data):
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------
# Canonical JSON (brief: keys sorted by byte order, 2-space indent, ": ",
# LF, final newline, minimal escaping, non-ASCII raw, integers only)
# ---------------------------------------------------------------------------

_SHORT_ESCAPES = {'"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f',
                  '\n': '\\n', '\r': '\\r', '\t': '\\t'}


_NEEDS_ESCAPE = re.compile('[\x00-\x1f"\\\\]')


def json_string(s):
    if not _NEEDS_ESCAPE.search(s):
        return '"' + s + '"'
    out = ['"']
    for ch in s:
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append('\\u%04x' % ord(ch))      # lowercase hex (see README: ambiguity)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def _canon(v, level):
    pad = '  ' * level
    if isinstance(v, dict):
        if not v:
            return '{}'
        items = sorted(v.items(), key=lambda kv: kv[0].encode('utf-8'))
        inner = (',\n').join('%s  %s: %s' % (pad, json_string(k), _canon(x, level + 1))
                             for k, x in items)
        return '{\n' + inner + '\n' + pad + '}'
    if isinstance(v, list):
        if not v:
            return '[]'
        inner = (',\n').join('%s  %s' % (pad, _canon(x, level + 1)) for x in v)
        return '[\n' + inner + '\n' + pad + ']'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    if v is None:
        return 'null'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, RawJSON):
        return v.text
    raise TypeError('not canonical JSON: %r' % (v,))


class RawJSON:
    """Already-serialised JSON text spliced verbatim (only for invalid manifests)."""

    def __init__(self, text):
        self.text = text


def canonical_json(v):
    return (_canon(v, 0) + '\n').encode('utf-8')


# ---------------------------------------------------------------------------
# A tiny PNG encoder (own code: Pillow cannot write Adam7 or 16-bit RGB)
# ---------------------------------------------------------------------------

PNG_SIG = b'\x89PNG\r\n\x1a\n'


def png_chunk(kind, data):
    return (struct.pack('>I', len(data)) + kind + data
            + struct.pack('>I', zlib.crc32(kind + data) & MAX_U32))


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_filter_row(ftype, row, prev, bpp):
    """Filter one scanline; returns bytes including the leading filter-type byte."""
    n = len(row)
    if ftype == 0:
        return b'\x00' + bytes(row)
    out = bytearray(n + 1)
    out[0] = ftype
    for i in range(n):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i] if prev is not None else 0
        c = prev[i - bpp] if (prev is not None and i >= bpp) else 0
        if ftype == 1:
            p = a
        elif ftype == 2:
            p = b
        elif ftype == 3:
            p = (a + b) >> 1
        else:
            p = _paeth(a, b, c)
        out[i + 1] = (row[i] - p) & 0xFF
    return bytes(out)


def png_encode(width, height, bit_depth, color_type, rows, *, interlace=False,
               filter_type=0, level=9):
    """rows: list of `height` bytes objects, each a full scanline without filter byte."""
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    bpp = max(1, channels * bit_depth // 8)
    raw = bytearray()
    if not interlace:
        passes = [(rows, width)]
    else:
        passes = []
        for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                               (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)):
            pw = len(range(x0, width, dx))
            sub = []
            if pw:
                for y in range(y0, height, dy):
                    r = rows[y]
                    sub.append(b''.join(r[x * bpp:(x + 1) * bpp] for x in range(x0, width, dx)))
            passes.append((sub, pw))
    for sub, pw in passes:
        prev = None
        for r in sub:
            ft = filter_type(prev) if callable(filter_type) else filter_type
            raw += png_filter_row(ft, r, prev, bpp)
            prev = r
    ihdr = struct.pack('>IIBBBBB', width, height, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    return (PNG_SIG + png_chunk(b'IHDR', ihdr) + png_chunk(b'IDAT', zlib.compress(bytes(raw), level))
            + png_chunk(b'IEND', b''))


def placeholder_thumbnail_size(images):
    """Long side 256, first image's header aspect, short = max(1, round(256*short/long)) with
    Python's round (half to even, on the double quotient), as the brief writes it."""
    if not images:
        return 256, 256
    w, h = images[0]['width'], images[0]['height']
    short = max(1, round(256 * min(w, h) / max(w, h)))
    return (256, short) if w >= h else (short, 256)


def placeholder_thumbnail(images):
    """Uniform mid-grey 8-bit RGB PNG; filter 0 on every row; IDAT = zlib.compress(raw, 9);
    chunks IHDR, IDAT, IEND only."""
    w, h = placeholder_thumbnail_size(images)
    row = b'\x80' * (3 * w)
    return png_encode(w, h, 8, 2, [row] * h, filter_type=0, level=9)


# ---------------------------------------------------------------------------
# Sample images
# ---------------------------------------------------------------------------

def clamp8(v):
    v = int(v + 0.5)
    return 0 if v < 0 else 255 if v > 255 else v


def smoothstep(e0, e1, x):
    t = (x - e0) / (e1 - e0)
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return t * t * (3 - 2 * t)


def mix(c1, c2, t):
    return tuple(a + (b - a) * t for a, b in zip(c1, c2))


def ramp(stops, t):
    """Piecewise-linear colour ramp: stops = [(t, (r,g,b)), ...] ascending."""
    if t <= stops[0][0]:
        return stops[0][1]
    for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
        if t <= t1:
            return mix(c0, c1, (t - t0) / (t1 - t0))
    return stops[-1][1]


def render(width, height, fn, mode='RGB'):
    """Per-pixel renderer: fn(x, y) -> tuple of floats (one per channel)."""
    n = len(mode)
    buf = bytearray(width * height * n)
    i = 0
    for y in range(height):
        for x in range(width):
            px = fn(x + 0.5, y + 0.5)
            for k in range(n):
                buf[i + k] = clamp8(px[k])
            i += n
    return Image.frombytes(mode, (width, height), bytes(buf))


def img_sunset():
    """800x600 evening sky with a setting sun, hills and its reflection on water."""
    W, H = 800, 600
    horizon = 372.0
    sx, sy, sr = 512.0, 330.0, 44.0
    sky = [(0.0, (22, 26, 82)), (0.45, (110, 60, 130)), (0.8, (235, 120, 95)), (1.0, (255, 186, 110))]
    sea = [(0.0, (150, 82, 112)), (0.35, (70, 45, 100)), (1.0, (14, 18, 52))]

    def ridge(x):
        return horizon - (70 * math.exp(-((x - 110) / 170) ** 2)
                          + 52 * math.exp(-((x - 730) / 130) ** 2)
                          + 6 * math.sin(x * 0.045) + 4 * math.sin(x * 0.13 + 1.0) + 6)

    def px(x, y):
        if y < horizon:
            c = ramp(sky, y / horizon)
            d = math.hypot(x - sx, y - sy)
            g = math.exp(-d / 110.0) * 0.6
            c = mix(c, (255, 214, 140), g)
            c = mix(c, (255, 244, 206), 1 - smoothstep(sr - 1.2, sr + 1.2, d))
            r = ridge(x)
            cov = smoothstep(r - 0.8, r + 0.8, y)
            if cov > 0:
                hill = mix((70, 40, 92), (38, 22, 58), smoothstep(r, horizon, y))
                c = mix(c, hill, cov)
            return c
        t = (y - horizon) / (H - horizon)
        c = ramp(sea, t)
        width = 26 + 120 * t
        band = 1 - smoothstep(width * 0.5, width, abs(x - sx))
        shimmer = 0.5 + 0.5 * math.sin(y * 0.55 + 2.5 * math.sin(x * 0.04 + y * 0.02))
        c = mix(c, (255, 200, 130), band * shimmer * (1 - 0.7 * t))
        return c

    return render(W, H, px)


def img_tiles():
    """480x360 Truchet tiles: quarter-circle arcs on a pastel grid (flat colours)."""
    W, H, S = 480, 360, 40
    rng = random.Random('imagegallery:tiles')
    palette = [(244, 211, 94), (238, 150, 75), (65, 142, 160), (249, 248, 232), (218, 65, 103)]
    img = Image.new('RGB', (W, H), palette[3])
    d = ImageDraw.Draw(img)
    for j in range(H // S):
        for i in range(W // S):
            x0, y0 = i * S, j * S
            bg = palette[(i + 2 * j) % 3]
            fg = palette[4] if (i * 7 + j * 3) % 5 == 0 else palette[3]
            d.rectangle([x0, y0, x0 + S - 1, y0 + S - 1], fill=bg)
            if rng.random() < 0.5:
                d.pieslice([x0 - S // 2, y0 - S // 2, x0 + S // 2, y0 + S // 2], 0, 90, fill=fg)
                d.pieslice([x0 + S // 2, y0 + S // 2, x0 + 3 * S // 2, y0 + 3 * S // 2], 180, 270, fill=fg)
            else:
                d.pieslice([x0 + S // 2, y0 - S // 2, x0 + 3 * S // 2, y0 + S // 2], 90, 180, fill=fg)
                d.pieslice([x0 - S // 2, y0 + S // 2, x0 + S // 2, y0 + 3 * S // 2], 270, 360, fill=fg)
    return img


def img_lighthouse():
    """450x600 (portrait) lighthouse at dusk with a light beam and stars."""
    W, H = 450, 600
    horizon = 430.0
    lx, ly = 150.0, 196.0          # lamp
    rng = random.Random('imagegallery:stars')
    stars = [(rng.uniform(0, W), rng.uniform(0, horizon * 0.6), rng.uniform(0.4, 1.0)) for _ in range(70)]
    sky = [(0.0, (8, 12, 40)), (0.55, (40, 44, 104)), (0.85, (170, 92, 110)), (1.0, (246, 150, 96))]
    beam_dir = math.atan2(-0.18, 1.0)

    def px(x, y):
        if y < horizon:
            c = ramp(sky, y / horizon)
        else:
            t = (y - horizon) / (H - horizon)
            c = mix((60, 50, 90), (6, 10, 30), t ** 0.6)
            c = mix(c, (200, 120, 100), 0.25 * (0.5 + 0.5 * math.sin(y * 1.3 + math.sin(x * 0.05) * 2)) * (1 - t))
        # beam: a soft wedge from the lamp to the right
        dx, dy = x - lx, y - ly
        if dx > 0:
            ang = abs(math.atan2(dy, dx) - beam_dir)
            b = (1 - smoothstep(0.03, 0.11, ang)) * math.exp(-dx / 420.0)
            c = mix(c, (255, 240, 190), 0.75 * b)
        g = math.exp(-math.hypot(dx, dy) / 22.0)
        return mix(c, (255, 236, 170), g)

    img = render(W, H, px)
    # stars (before the tower so the tower hides them)
    dr = ImageDraw.Draw(img)
    for x, y, b in stars:
        v = int(150 + 105 * b)
        dr.point((int(x), int(y)), fill=(v, v, int(v * 0.95)))
    # island
    dr.ellipse([40, 410, 300, 470], fill=(24, 22, 34))
    # tower: tapering, red/white bands
    top, bottom = 210, 432
    for y in range(top, bottom):
        t = (y - top) / (bottom - top)
        half = 17 + 11 * t
        band = ((y - top) // 37) % 2
        col = (196, 40, 46) if band == 0 else (232, 228, 220)
        shade = 0.55
        dr.line([(lx - half, y), (lx, y)], fill=col)
        dr.line([(lx, y), (lx + half, y)], fill=tuple(int(v * shade) for v in col))
    dr.rectangle([lx - 15, 182, lx + 15, 210], fill=(250, 226, 150))
    dr.rectangle([lx - 20, 208, lx + 20, 214], fill=(40, 36, 44))
    dr.polygon([(lx - 20, 182), (lx + 20, 182), (lx, 160)], fill=(40, 36, 44))
    return img


def img_dunes():
    """640x400 greyscale desert dunes with wind ripples."""
    W, H = 640, 400
    layers = []
    for k, (base, amp, freq, phase, tone) in enumerate([
            (150, 30, 0.007, 0.3, 200), (205, 34, 0.010, 2.1, 170),
            (262, 30, 0.013, 4.0, 150), (320, 26, 0.017, 1.3, 128)]):
        layers.append((base, amp, freq, phase, tone, k))

    def ridge(layer, x):
        base, amp, freq, phase, _, k = layer
        return base - amp * math.sin(x * freq + phase) - 0.35 * amp * math.sin(x * freq * 2.3 + phase * 1.7)

    def px(x, y):
        v = 238 - 50 * (y / 160.0) if y < 160 else 188
        v = v + 14 * math.exp(-math.hypot(x - 520, y - 60) / 60.0)
        for layer in layers:
            r = ridge(layer, x)
            cov = smoothstep(r - 0.8, r + 0.8, y)
            if cov <= 0:
                continue
            base, amp, freq, phase, tone, k = layer
            slope = ridge(layer, x + 1) - ridge(layer, x - 1)
            lit = tone + 55 * max(-1.0, min(1.0, slope * 0.9))
            lit += 6 * math.sin(y * 0.9 + x * 0.12 + k) * smoothstep(0, 40, y - r)
            lit -= 18 * smoothstep(0, 90, y - r)
            v = v + (lit - v) * cov
        return (v,)

    return render(W, H, px, mode='L')


def img_balloon_upright():
    """320x480 (portrait, as displayed) hot-air balloon in a cloudy sky."""
    W, H = 320, 480
    cx, cy, rx, ry = 160.0, 180.0, 92.0, 104.0
    clouds = [(60, 90, 60, 20), (250, 60, 70, 18), (230, 330, 80, 24), (70, 400, 90, 22), (290, 430, 60, 16)]
    stripes = [(214, 48, 49), (253, 203, 110), (9, 132, 227), (253, 121, 52)]

    def px(x, y):
        c = mix((70, 140, 220), (196, 224, 246), y / H)
        for (ex, ey, erx, ery) in clouds:
            d = ((x - ex) / erx) ** 2 + ((y - ey) / ery) ** 2
            c = mix(c, (250, 250, 252), 0.85 * (1 - smoothstep(0.55, 1.0, d)))
        t = (y - cy) / ry
        rxy = rx * (1 - 0.42 * max(0.0, t) ** 1.4)
        d = ((x - cx) / rxy) ** 2 + t * t if rxy > 0 else 9
        cov = 1 - smoothstep(0.985, 1.015, d)
        if cov > 0:
            nx = (x - cx) / rxy
            k = int((nx + 1) * 4) % 4
            col = stripes[k]
            shade = 1 - 0.45 * nx * nx - 0.15 * max(0.0, t)
            col = tuple(v * shade for v in col)
            c = mix(c, col, cov)
        # basket
        if 148 <= x <= 172 and 316 <= y <= 336:
            c = (120, 78, 40) if int(y) % 6 else (90, 58, 30)
        # ropes
        for (x0, x1) in ((128, 150), (192, 170)):
            if 284 <= y <= 316:
                xr = x0 + (x1 - x0) * (y - 284) / 32.0
                c = mix(c, (60, 50, 40), 1 - smoothstep(0.4, 1.2, abs(x - xr)))
        return c

    return render(W, H, px)


def img_bubbles():
    """320x320 RGBA soap bubbles on a transparent background."""
    W = H = 320
    rng = random.Random('imagegallery:bubbles')
    tints = [(120, 200, 255), (255, 140, 200), (160, 255, 170), (255, 220, 120), (190, 150, 255)]
    bubbles = []
    for i in range(9):
        r = rng.uniform(22, 62)
        bubbles.append((rng.uniform(r, W - r), rng.uniform(r, H - r), r, tints[i % len(tints)]))

    def px(x, y):
        r_, g_, b_, a_ = 0.0, 0.0, 0.0, 0.0
        for (bx, by, br, tint) in bubbles:
            d = math.hypot(x - bx, y - by) / br
            if d >= 1.03:
                continue
            edge = 1 - smoothstep(0.97, 1.03, d)
            a = (0.16 + 0.7 * smoothstep(0.7, 0.98, d)) * edge
            hd = math.hypot(x - (bx - 0.38 * br), y - (by - 0.38 * br)) / br
            hi = 1 - smoothstep(0.08, 0.2, hd)
            col = mix(tint, (255, 255, 255), hi)
            a = max(a, 0.9 * hi * edge)
            # "over" compositing, non-premultiplied result
            oa = a + a_ * (1 - a)
            if oa > 0:
                r_ = (col[0] * a + r_ * a_ * (1 - a)) / oa
                g_ = (col[1] * a + g_ * a_ * (1 - a)) / oa
                b_ = (col[2] * a + b_ * a_ * (1 - a)) / oa
            a_ = oa
        if a_ < 0.5 / 255:
            return (0, 0, 0, 0)
        # quantise colour a little so the PNG stays small
        return (r_ // 4 * 4, g_ // 4 * 4, b_ // 4 * 4, a_ * 255)

    return render(W, H, px, mode='RGBA')


def img_palette():
    """360x240 palette image: a diamond quilt; index 0 fully transparent, index 1 half."""
    W, H = 360, 240
    pal = [(0, 0, 0), (20, 20, 40), (231, 111, 81), (244, 162, 97), (233, 196, 106),
           (42, 157, 143), (38, 70, 83), (250, 250, 245)]
    img = Image.new('P', (W, H), 0)
    img.putpalette([v for c in pal for v in c])
    d = ImageDraw.Draw(img)
    S, step = 40, 52
    for j in range(-1, H // (step // 2) + 2):
        for i in range(-1, W // step + 2):
            cx, cy = i * step + (step // 2 if j % 2 else 0), j * step // 2
            col = 2 + (i * 3 + j * 2) % 5
            # shadow (half transparent), then the diamond
            d.polygon([(cx + 4, cy - S // 2 + 4), (cx + S // 2 + 4, cy + 4),
                       (cx + 4, cy + S // 2 + 4), (cx - S // 2 + 4, cy + 4)], fill=1)
            d.polygon([(cx, cy - S // 2 + 6), (cx + S // 2 - 6, cy),
                       (cx, cy + S // 2 - 6), (cx - S // 2 + 6, cy)], fill=col)
            d.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=7)
    return img


def png_deep_gradient():
    """320x240 16-bit RGB PNG (own encoder): a smooth twilight gradient whose
    samples use the full 16-bit range (low bytes are not just copies of the high)."""
    W, H = 320, 240
    rows = []
    for y in range(H):
        row = bytearray()
        for x in range(W):
            r = 4000 + 180 * x
            g = 3000 + 200 * y
            b = 60000 - 90 * x - 110 * y
            row += struct.pack('>HHH', r, g, b)
        rows.append(bytes(row))
    return png_encode(W, H, 16, 2, rows, filter_type=lambda prev: 1 if prev is None else 2)


def png_interlaced_rings():
    """400x300 8-bit RGB Adam7-interlaced PNG (own encoder): interfering rings."""
    W, H = 400, 300
    pal = [(38, 70, 83), (42, 157, 143), (233, 196, 106), (244, 162, 97), (231, 111, 81)]
    rows = []
    for y in range(H):
        row = bytearray()
        for x in range(W):
            d1 = math.hypot(x - 130, y - 150)
            d2 = math.hypot(x - 280, y - 140)
            row += bytes(pal[(int(d1 / 16) + int(d2 / 16)) % len(pal)])
        rows.append(bytes(row))
    return png_encode(W, H, 8, 2, rows, interlace=True, filter_type=lambda prev: 1)


def img_fractal():
    """640x480 Mandelbrot set, coloured (Pillow's effect_mandelbrot, deterministic)."""
    m = Image.effect_mandelbrot((640, 480), (-2.25, -1.2, 0.95, 1.2), 96)
    m = m.filter(ImageFilter.GaussianBlur(0.6))
    return ImageOps.colorize(m, black=(12, 10, 40), mid=(190, 60, 100), white=(255, 236, 190), midpoint=90)


def save_jpeg(img, **kw):
    buf = io.BytesIO()
    img.save(buf, 'JPEG', **kw)
    return buf.getvalue()


def save_png(img, **kw):
    buf = io.BytesIO()
    img.save(buf, 'PNG', **kw)
    return buf.getvalue()


class Sample:
    def __init__(self, filename, data, media_type, width, height, kind, how):
        self.filename = filename
        self.data = data
        self.media_type = media_type
        self.width = width
        self.height = height
        self.kind = kind
        self.how = how
        self.sha256 = sha256hex(data)
        self.ext = 'jpg' if media_type == 'image/jpeg' else 'png'
        self.path = 'images/%s.%s' % (self.sha256, self.ext)


def make_samples():
    out = []

    def add(filename, data, kind, how):
        im = Image.open(io.BytesIO(data))
        mt = {'JPEG': 'image/jpeg', 'PNG': 'image/png'}[im.format]
        out.append(Sample(filename, data, mt, im.size[0], im.size[1], kind, how))

    add('1-sunset.jpg', save_jpeg(img_sunset(), quality=85, subsampling=2, progressive=False,
                                  optimize=False),
        'baseline JPEG, YCbCr 4:2:0, quality 85, JFIF, no EXIF',
        'per-pixel render (sky ramp, sun with glow, two hill ridges, water with shimmering reflection); '
        'Pillow `save(quality=85, subsampling=2)`')
    add('2-tiles.png', save_png(img_tiles()),
        'PNG, 8-bit RGB (colour type 2), non-interlaced',
        'Truchet quarter-circle tiles drawn with ImageDraw (seeded choice of tile orientation); '
        'Pillow PNG writer (zlib level 6, adaptive filters)')
    add('3-lighthouse.jpg', save_jpeg(img_lighthouse(), quality=82, subsampling=2, progressive=True,
                                      optimize=False),
        'progressive JPEG, YCbCr 4:2:0, quality 82, portrait',
        'per-pixel dusk sky, sea and light beam + ImageDraw stars (seeded), island and striped tower; '
        'Pillow `save(progressive=True, quality=82)`')
    add('4-dunes.jpg', save_jpeg(img_dunes(), quality=85),
        'greyscale JPEG (1 component), quality 85',
        'per-pixel render in mode L: four dune layers with slope shading and wind ripples')
    exif = Image.Exif()
    exif[0x0112] = 6
    add('5-balloon-rotated.jpg', save_jpeg(img_balloon_upright().transpose(Image.Transpose.ROTATE_90),
                                           quality=85, subsampling=2, exif=exif.tobytes()),
        'baseline JPEG with EXIF Orientation = 6 (stored 480x320; displays as 320x480 after a '
        '90 degree clockwise turn)',
        'a 320x480 upright balloon scene rotated 90 degrees counter-clockwise for storage, then tagged '
        'Orientation 6 (APP1 Exif with one IFD0 entry)')
    add('6-bubbles.png', save_png(img_bubbles(), optimize=True),
        'PNG, 8-bit RGBA (colour type 6) with real transparency (alpha 0..255)',
        'per-pixel soap bubbles composited "over" a fully transparent background (seeded positions); '
        'Pillow PNG writer with optimize=True')
    add('7-quilt-palette.png', save_png(img_palette(), transparency=bytes([0, 128]), optimize=False),
        'PNG, 8-bit palette (colour type 3) with a tRNS chunk (index 0 alpha 0, index 1 alpha 128)',
        'diamond quilt drawn with ImageDraw in mode P; Pillow writes PLTE + tRNS')
    add('8-deep-gradient.png', png_deep_gradient(),
        'PNG, 16-bit RGB (colour type 2, bit depth 16), non-interlaced',
        'exact linear 16-bit ramps per channel, written by the script\'s own PNG encoder '
        '(Sub filter on the first row, Up on the others, zlib level 9)')
    add('9-rings-interlaced.png', png_interlaced_rings(),
        'PNG, 8-bit RGB, Adam7 interlaced',
        'two sets of concentric rings in five flat colours, written by the script\'s own PNG encoder '
        '(Adam7, Sub filter, zlib level 9)')
    add('10-fractal.jpg', save_jpeg(img_fractal(), quality=80, subsampling=0),
        'baseline JPEG, YCbCr 4:4:4 (no chroma subsampling), quality 80',
        'Pillow `Image.effect_mandelbrot` (96 iterations), slight Gaussian blur, `ImageOps.colorize`')
    return out


# ---------------------------------------------------------------------------
# ZIP records, written by hand with struct so that every field is under control
# ---------------------------------------------------------------------------

LFH_SIG, CDH_SIG, EOCD_SIG = 0x04034B50, 0x02014B50, 0x06054B50
Z64_EOCD_SIG, Z64_LOC_SIG, DD_SIG = 0x06064B50, 0x07064B50, 0x08074B50
FLAG_UTF8, FLAG_DD, FLAG_ENCRYPTED = 0x0800, 0x0008, 0x0001
MADE_BY_20, MADE_BY_45 = 0x0314, 0x032D
REGULAR_FILE_ATTR = 0o100644 << 16


def dos_datetime(rfc3339):
    """DOS (time, date) of an RFC 3339 time, in UTC, clamped to 1980-01-01 00:00:00,
    seconds rounded down to even."""
    from datetime import datetime, timezone
    dt = datetime.fromisoformat(rfc3339.replace('Z', '+00:00')).astimezone(timezone.utc)
    if dt.year < 1980:
        dt = datetime(1980, 1, 1, tzinfo=timezone.utc)
    return ((dt.hour << 11) | (dt.minute << 5) | (dt.second // 2),
            ((dt.year - 1980) << 9) | (dt.month << 5) | dt.day)


def raw_deflate(data, level=6):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


class Entry:
    """One ZIP entry. Defaults are the canonical writer's; fields can be changed, and
    `local` / `central` hold per-record overrides used to build invalid files."""

    def __init__(self, name, content, method=0, dos=(0, 0x21), payload=None):
        self.name = name.encode('utf-8') if isinstance(name, str) else name
        self.content = content
        self.method = method
        if payload is None:
            if method == 8:
                payload = raw_deflate(content)
            elif method == 12:
                payload = bz2.compress(content, 9)
            else:
                payload = content
        self.payload = payload
        self.crc = zlib.crc32(content) & MAX_U32
        self.csize = len(payload)
        self.usize = len(content)
        self.flags = FLAG_UTF8
        self.version_needed = 20
        self.version_made = MADE_BY_20
        self.dostime, self.dosdate = dos
        self.ext_attr = REGULAR_FILE_ATTR
        self.int_attr = 0
        self.local_extra = b''
        self.central_extra = b''
        self.comment = b''
        self.local = {}          # overrides for the local header
        self.central = {}        # overrides for the central directory header
        self.descriptor = None   # None, 'sig' or 'nosig'
        self.gap_before = b''    # bytes written just before the local header
        self.write = True        # False: listed in the CD only (offset from offset_of)
        self.offset_of = None    # callable giving the offset of an entry not written
        self.auto_zip64 = True
        self.offset = None

    # -- records -----------------------------------------------------------
    def _zip64_needed(self):
        return self.auto_zip64 and (self.csize >= MAX_U32 or self.usize >= MAX_U32
                                    or self.offset >= MAX_U32)

    def local_header(self):
        f = dict(sig=LFH_SIG, version_needed=self.version_needed, flags=self.flags,
                 method=self.method, dostime=self.dostime, dosdate=self.dosdate, crc=self.crc,
                 csize=self.csize, usize=self.usize, name=self.name, extra=self.local_extra)
        if self._zip64_needed():
            # brief: local ZIP64 extra holds both sizes
            f.update(version_needed=45, csize=MAX_U32, usize=MAX_U32,
                     extra=struct.pack('<HHQQ', 1, 16, self.usize, self.csize) + self.local_extra)
        f.update(self.local)
        return struct.pack('<IHHHHHIIIHH', f['sig'], f['version_needed'], f['flags'], f['method'],
                           f['dostime'], f['dosdate'], f['crc'], f['csize'], f['usize'],
                           f.get('name_len', len(f['name'])), f.get('extra_len', len(f['extra']))
                           ) + f['name'] + f['extra']

    def data_descriptor(self):
        if self.descriptor == 'sig':
            return struct.pack('<IIII', DD_SIG, self.crc, self.csize, self.usize)
        if self.descriptor == 'nosig':
            return struct.pack('<III', self.crc, self.csize, self.usize)
        return b''

    def central_header(self):
        f = dict(sig=CDH_SIG, version_made=self.version_made, version_needed=self.version_needed,
                 flags=self.flags, method=self.method, dostime=self.dostime, dosdate=self.dosdate,
                 crc=self.crc, csize=self.csize, usize=self.usize, name=self.name,
                 extra=self.central_extra, comment=self.comment, disk=0,
                 int_attr=self.int_attr, ext_attr=self.ext_attr, offset=self.offset)
        if self._zip64_needed():
            # brief: central ZIP64 extra holds only the fields that overflow, in spec order
            vals = []
            if self.usize >= MAX_U32:
                vals.append(self.usize)
                f['usize'] = MAX_U32
            if self.csize >= MAX_U32:
                vals.append(self.csize)
                f['csize'] = MAX_U32
            if self.offset >= MAX_U32:
                vals.append(self.offset)
                f['offset'] = MAX_U32
            f.update(version_made=MADE_BY_45, version_needed=45,
                     extra=struct.pack('<HH', 1, 8 * len(vals)) + b''.join(struct.pack('<Q', v) for v in vals)
                     + self.central_extra)
        f.update(self.central)
        return struct.pack('<IHHHHHHIIIHHHHHII', f['sig'], f['version_made'], f['version_needed'],
                           f['flags'], f['method'], f['dostime'], f['dosdate'], f['crc'],
                           f['csize'], f['usize'], f.get('name_len', len(f['name'])),
                           f.get('extra_len', len(f['extra'])),
                           f.get('comment_len', len(f['comment'])), f['disk'], f['int_attr'],
                           f['ext_attr'], f['offset']) + f['name'] + f['extra'] + f['comment']


def build_zip(entries, *, cd=None, prefix=b'', before_cd=b'', comment=b'', eocd=None,
              force_zip64_eocd=False, zip64_eocd=None, locator=None):
    """Lay out local records in `entries` order, then the central directory (in `cd`
    order, default `entries`), then ZIP64 EOCD record + locator when needed, then the
    EOCD. eocd / zip64_eocd / locator: dicts of field overrides."""
    out = bytearray(prefix)
    for e in entries:
        if not e.write:
            continue
        out += e.gap_before
        e.offset = len(out)
        out += e.local_header()
        out += e.payload
        out += e.data_descriptor()
    cd = entries if cd is None else cd
    for e in list(entries) + list(cd):
        if e.offset_of is not None:
            e.offset = e.offset_of()
    out += before_cd
    cd_start = len(out)
    for e in cd:
        out += e.central_header()
    cd_size = len(out) - cd_start
    count = len(cd)
    need64 = force_zip64_eocd or count > MAX_U16 or cd_size >= MAX_U32 or cd_start >= MAX_U32
    if need64:
        z = dict(sig=Z64_EOCD_SIG, record_size=44, version_made=MADE_BY_45, version_needed=45,
                 disk=0, cd_disk=0, n_disk=count, n_total=count, cd_size=cd_size,
                 cd_offset=cd_start)
        z.update(zip64_eocd or {})
        z64_offset = len(out)
        out += struct.pack('<IQHHIIQQQQ', z['sig'], z['record_size'], z['version_made'],
                           z['version_needed'], z['disk'], z['cd_disk'], z['n_disk'],
                           z['n_total'], z['cd_size'], z['cd_offset'])
        lo = dict(sig=Z64_LOC_SIG, disk=0, offset=z64_offset, total_disks=1)
        lo.update(locator or {})
        out += struct.pack('<IIQI', lo['sig'], lo['disk'], lo['offset'], lo['total_disks'])
    ov = force_zip64_eocd
    e = dict(sig=EOCD_SIG, disk=0, cd_disk=0,
             n_disk=MAX_U16 if (ov or count > MAX_U16) else count,
             n_total=MAX_U16 if (ov or count > MAX_U16) else count,
             cd_size=MAX_U32 if (ov or cd_size >= MAX_U32) else cd_size,
             cd_offset=MAX_U32 if (ov or cd_start >= MAX_U32) else cd_start,
             comment=comment)
    e.update(eocd or {})
    out += struct.pack('<IHHHHIIH', e['sig'], e['disk'], e['cd_disk'], e['n_disk'], e['n_total'],
                       e['cd_size'], e['cd_offset'], e.get('comment_len', len(e['comment'])))
    out += e['comment']
    return bytes(out)


# ---------------------------------------------------------------------------
# Galleries: manifest model and the canonical writer
# ---------------------------------------------------------------------------

def image_record(document_id, index, sample, *, filename=True, **extra):
    """Image id = uuid5(namespace: document id, name: f"{index}:{sha256hex}"), 0-based index."""
    rec = {
        'id': str(uuid.uuid5(uuid.UUID(document_id), '%d:%s' % (index, sample.sha256))),
        'path': sample.path,
        'mediaType': sample.media_type,
        'width': sample.width,
        'height': sample.height,
        'byteSize': len(sample.data),
        'sha256': sample.sha256,
    }
    if filename:
        rec['filename'] = sample.filename
    rec.update(extra)
    return rec


NIL_UUID = '00000000-0000-0000-0000-000000000000'


def revision_for(manifest):
    """Content revision (the brief fixes no rule; this is the one the Swift `create` uses,
    Manifest.contentRevision): uuid5(namespace: document id, name: "revision:" +
    sha256hex(canonical manifest bytes with "revision" set to the nil UUID)).
    Change here if the Swift writer changes, and regenerate."""
    m = dict(manifest)
    m['revision'] = NIL_UUID
    return str(uuid.uuid5(uuid.UUID(manifest['id']), 'revision:' + sha256hex(canonical_json(m))))


def make_manifest(document_id, title, date, images, *, generator=GENERATOR, revision=None):
    m = {
        'format': 'imagegallery',
        'formatVersion': '1.0',
        'id': document_id,
        'title': title,
        'created': date,
        'modified': date,
        'images': images,
    }
    if generator is not None:
        m['generator'] = generator
    m['revision'] = revision or revision_for(m)
    return m


def gallery_entries(manifest_bytes, images, blobs, thumbnail, modified):
    """Canonical entries: mimetype, manifest.json, thumbnail.png, then each distinct
    blob in gallery order (first occurrence)."""
    dos = dos_datetime(modified)
    entries = [Entry('mimetype', MIMETYPE, 0, dos),
               Entry('manifest.json', manifest_bytes, 8, dos),
               Entry('thumbnail.png', thumbnail, 0, dos)]
    seen = set()
    for im in images:
        if im['path'] not in seen:
            seen.add(im['path'])
            entries.append(Entry(im['path'], blobs[im['path']], 0, dos))
    return entries


def write_canonical(manifest, blobs):
    """The canonical writer: returns (gallery bytes, manifest bytes)."""
    mbytes = canonical_json(manifest)
    entries = gallery_entries(mbytes, manifest['images'], blobs,
                              placeholder_thumbnail(manifest['images']), manifest['modified'])
    return build_zip(entries), mbytes


# ---------------------------------------------------------------------------
# valid/: canonical galleries
# ---------------------------------------------------------------------------

class Fixture:
    def __init__(self, relpath, data, **meta):
        self.relpath = relpath
        self.data = data
        self.meta = meta


def make_valid(samples):
    blobs = {s.path: s.data for s in samples}
    out = []

    def add(name, title, sources, *, create_args, comparable, note='', image_extras=None,
            filename=True):
        did = doc_id('valid/' + name)
        recs = []
        for i, s in enumerate(sources):
            extra = (image_extras or {}).get(i, {})
            recs.append(image_record(did, i, s, filename=filename, **extra))
        m = make_manifest(did, title, FIXED_DATE, recs)
        data, mbytes = write_canonical(m, blobs)
        out.append(Fixture('valid/%s.imagegallery' % name, data, id=did, title=title,
                           date=FIXED_DATE, sources=[s.filename for s in sources],
                           create_args=create_args, comparable=comparable, note=note,
                           revision=m['revision']))
        out.append(Fixture('valid/%s.manifest.json' % name, mbytes))

    add('empty', 'Empty', [], create_args=[], comparable=True,
        note='no images: thumbnail 256x256, `"images": []`')
    three = samples[:3]
    add('three', 'Three samples', three,
        create_args=['Fixtures/images/' + s.filename for s in three], comparable=True)
    add('images-folder', 'Sample images', samples, create_args=['Fixtures/images'],
        comparable=True,
        note='the folder as the only source: its JPEG/PNG files in natural name order '
             '(1, 2, ..., 9, 10; byte order would put 10 second), README.md skipped with a warning')
    s1, s2 = samples[0], samples[1]
    add('duplicate-blob', 'Duplicate blob', [s1, s2, s1],
        create_args=['Fixtures/images/' + s.filename for s in (s1, s2, s1)], comparable=True,
        note='the same file given twice: two image ids, one blob (stored once, at its first '
             'position). Comparable only if `create` keeps a source that is named twice '
             '(the brief does not say)')
    captions = {
        0: {'caption': 'Sunset over the bay \u2014 the first picture.',
            'added': '2026-01-01T12:00:00Z'},
        1: {'caption': 'Truchet tiles: "quarter circles" on a grid'},
        2: {'caption': 'Lighthouse at dusk\nsecond line\tafter a tab'},
        3: {'caption': 'Dunes in grey \\ a backslash, and a slash / that stays raw'},
        4: {'caption': 'Balloon \U0001F388 (stored sideways, EXIF orientation 6)'},
        5: {'caption': 'Bubbles: controls \u0001 and \u001f, DEL \u007f, U+2028 \u2028 and '
                       'U+FEFF \ufeff stay as they must'},
        6: {'caption': 'Quilt \u2014 \u00fcn\u00efc\u00f8d\u00e9 \u2713 \u65e5\u672c\u8a9e'},
        8: {'caption': 'Rings\r\n(CRLF inside a caption)\b\f'},
        9: {'caption': 'Mandelbrot set',
            'source': 'https://example.org/gallery/fractal.jpg?size=large&lang=fr',
            'added': '2026-01-02T03:04:05Z'},
    }
    add('all', '\u00dcn\u00efc\u00f8d\u00e9 gallery \u2713', samples, create_args=None,
        comparable=False, image_extras=captions,
        note='reader fixture: captions (with characters that need escaping, astral and '
             'non-ASCII ones), one `source` URL, `added` on two images, a non-ASCII title; '
             '`create` cannot set captions, sources or `added`. Image 8 has no caption.')
    return out


# ---------------------------------------------------------------------------
# tolerant/: written by other writers (mostly Python's zipfile)
# ---------------------------------------------------------------------------

FIXED_DATE_TUPLE = (2026, 1, 2, 3, 4, 5)


def zi(name, method=zipfile.ZIP_STORED, *, attr=REGULAR_FILE_ATTR, system=3):
    z = zipfile.ZipInfo(name, FIXED_DATE_TUPLE)
    z.compress_type = method
    z.create_system = system
    z.external_attr = attr
    return z


class _UnseekableSink(io.RawIOBase):
    """A write-only stream that can tell() but not seek(): zipfile then streams and
    writes a data descriptor after every entry."""

    def __init__(self):
        super().__init__()
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += bytes(b)
        return len(b)

    def tell(self):
        return len(self.buf)

    def seekable(self):
        return False

    def seek(self, *args):
        raise io.UnsupportedOperation('not seekable')


def tolerant_parts(key, samples, *, mutate=None, serialise=None):
    """(manifest bytes, thumbnail bytes, [(path, blob)]) for tolerant fixture `key`."""
    did = doc_id('tolerant/' + key)
    recs = [image_record(did, i, s) for i, s in enumerate(samples)]
    m = make_manifest(did, 'Tolerant: ' + key, FIXED_DATE, recs)
    if mutate:
        mutate(m)
    mbytes = serialise(m) if serialise else canonical_json(m)
    thumb = placeholder_thumbnail(m['images'])
    blobs, seen = [], set()
    for s in samples:
        if s.path not in seen:
            seen.add(s.path)
            blobs.append((s.path, s.data))
    return m, mbytes, thumb, blobs


def zipfile_gallery(mbytes, thumb, blobs, *, order='canonical', blob_method=zipfile.ZIP_STORED,
                    thumb_method=zipfile.ZIP_STORED, manifest_method=zipfile.ZIP_DEFLATED,
                    extra=b'', force_zip64=False, comment=b'', file_comments=False, dirs=(),
                    extra_entries=(), system=3, file_attr=REGULAR_FILE_ATTR):
    buf = io.BytesIO()
    items = [(zi('mimetype', attr=file_attr, system=system), MIMETYPE, False)]
    man = (zi('manifest.json', manifest_method, attr=file_attr, system=system), mbytes, True)
    th = (zi('thumbnail.png', thumb_method, attr=file_attr, system=system), thumb, True)
    bl = [(zi(p, blob_method, attr=file_attr, system=system), d, True) for p, d in blobs]
    ex = [(zi(p, zipfile.ZIP_DEFLATED, attr=file_attr, system=system), d, True)
          for p, d in extra_entries]
    if order == 'manifest-last':
        items += bl[::-1] + [th] + ex + [man]
    else:
        items += [man, th] + bl + ex
    with zipfile.ZipFile(buf, 'w') as z:
        for info, data, is_foreign in items:
            if is_foreign:
                info.extra = extra
                if file_comments:
                    info.comment = ('file comment of %s' % info.filename).encode('ascii')
            if dirs and info.filename == blobs[0][0]:
                for d in dirs:
                    dz = zi(d, attr=(0o40755 << 16) | 0x10, system=system)
                    dz.CRC = dz.compress_size = dz.file_size = 0
                    z.mkdir(dz)
            if force_zip64 and is_foreign:
                with z.open(info, 'w', force_zip64=True) as f:
                    f.write(data)
            else:
                z.writestr(info, data)
        z.comment = comment
    return buf.getvalue()


def streamed_gallery(mbytes, thumb, blobs, force_zip64=False):
    """zipfile writing to an unseekable stream: data descriptors (with signature) on every
    entry it writes, all of them DEFLATED (a stored entry with a data descriptor is IG-PKG-033:
    a streaming reader cannot tell where its data ends). `mimetype` is written by hand first
    (zipfile would give it a data descriptor too, which is IG-PKG-026) and registered in
    zipfile's directory."""
    sink = _UnseekableSink()
    mt = Entry('mimetype', MIMETYPE, 0, dos_datetime(FIXED_DATE))
    mt.flags = 0
    mt.offset = 0
    sink.write(mt.local_header() + mt.payload)
    with zipfile.ZipFile(sink, 'w') as z:
        assert not z._seekable
        info = zi('mimetype')
        info.CRC, info.compress_size, info.file_size = mt.crc, mt.csize, mt.usize
        info.header_offset = 0
        z.filelist.append(info)
        z.NameToInfo[info.filename] = info
        for info, data in ([(zi('manifest.json', zipfile.ZIP_DEFLATED), mbytes),
                            (zi('thumbnail.png', zipfile.ZIP_DEFLATED), thumb)]
                           + [(zi(p, zipfile.ZIP_DEFLATED), d) for p, d in blobs]):
            with z.open(info, 'w', force_zip64=force_zip64) as f:
                f.write(data)
    return bytes(sink.buf)


def foreign_extras():
    from datetime import datetime
    t = int(datetime.fromisoformat(FIXED_DATE.replace('Z', '+00:00')).timestamp())
    ut = struct.pack('<HHBII', 0x5455, 9, 3, t, t)                  # extended timestamp
    ux = struct.pack('<HHBBIBI', 0x7875, 11, 1, 4, 1000, 4, 1000)   # Info-ZIP new Unix uid/gid
    return ut + ux


def make_tolerant(samples):
    by = {s.filename.split('-')[0]: s for s in samples}
    tsamples = [by['7'], by['8']]
    out = []

    def add(key, data, desc, writer):
        out.append(Fixture('tolerant/%s.imagegallery' % key, data, desc=desc, writer=writer))

    m, mb, th, bl = tolerant_parts('manifest-last', tsamples)
    add('manifest-last', zipfile_gallery(mb, th, bl, order='manifest-last'),
        '`manifest.json` is the last entry, and the other entries are out of canonical order too: '
        'mimetype, the blobs in reverse gallery order, thumbnail.png, manifest.json', 'zipfile')
    m, mb, th, bl = tolerant_parts('manifest-stored', tsamples)
    add('manifest-stored', zipfile_gallery(mb, th, bl, manifest_method=zipfile.ZIP_STORED),
        '`manifest.json` is STORED (method 0)', 'zipfile')
    m, mb, th, bl = tolerant_parts('deflated-blobs', tsamples)
    add('deflated-blobs', zipfile_gallery(mb, th, bl, blob_method=zipfile.ZIP_DEFLATED,
                                          thumb_method=zipfile.ZIP_DEFLATED),
        'blobs and `thumbnail.png` are DEFLATED (zlib default level)', 'zipfile')
    m, mb, th, bl = tolerant_parts('data-descriptors', tsamples)
    add('data-descriptors', streamed_gallery(mb, th, bl),
        'every entry but `mimetype` is DEFLATED and has flag bit 3 and a signed data descriptor '
        '(PK\\x07\\x08); its local header has CRC and sizes 0. `mimetype` was written by hand '
        '(no descriptor, flags 0) before zipfile took over an unseekable stream. (A STORED entry '
        'with a descriptor is IG-PKG-033.)', 'zipfile (streaming)')
    m, mb, th, bl = tolerant_parts('data-descriptors-zip64', tsamples)
    add('data-descriptors-zip64', streamed_gallery(mb, th, bl, force_zip64=True),
        'as data-descriptors, with zipfile `force_zip64=True`: every entry but `mimetype` is '
        'DEFLATED and has a 0x0001 extra in its local header (sizes 0) and a data descriptor with '
        '8-byte sizes (24 bytes with signature)', 'zipfile (streaming)')
    m, mb, th, bl = tolerant_parts('data-descriptors-no-signature', tsamples)
    ents = gallery_entries(mb, m['images'], dict(bl), th, FIXED_DATE)
    # Deflated: the deflate stream marks where the data ends, so a streaming reader finds the
    # unsigned descriptor (stored data with a descriptor is IG-PKG-033).
    ents = ents[:1] + [Entry(e.name, e.content, 8, (e.dostime, e.dosdate)) for e in ents[1:]]
    for e in ents[1:]:
        e.flags |= FLAG_DD
        e.descriptor = 'nosig'
        e.local = dict(crc=0, csize=0, usize=0)
    add('data-descriptors-no-signature', build_zip(ents),
        'like data-descriptors (every entry but `mimetype` DEFLATED), but the descriptors have no '
        'signature (12 bytes: CRC, sizes) as some old writers emit', 'by hand')
    m, mb, th, bl = tolerant_parts('foreign-extra-fields', tsamples)
    add('foreign-extra-fields', zipfile_gallery(mb, th, bl, extra=foreign_extras()),
        'every entry but `mimetype` carries a UT (0x5455, mtime+atime) and a ux (0x7875, '
        'uid/gid 1000) extra field, in local and central headers', 'zipfile')
    m, mb, th, bl = tolerant_parts('zip64', tsamples)
    add('zip64', zipfile_gallery(mb, th, bl, force_zip64=True),
        'zipfile `force_zip64=True` on every entry but `mimetype` (a ZIP64 extra on `mimetype` '
        'would be IG-PKG-007). What zipfile 3.11 writes: each local header gets a 0x0001 extra '
        'holding both sizes, while its 32-bit size fields keep the real sizes (not 0xFFFFFFFF) and '
        'version needed stays 20; the central directory has no ZIP64 extra and there is no ZIP64 '
        'EOCD. A reader must not insist on 0xFFFFFFFF before accepting a 0x0001 extra', 'zipfile')
    m, mb, th, bl = tolerant_parts('zip64-eocd', tsamples)
    ents = gallery_entries(mb, m['images'], dict(bl), th, FIXED_DATE)
    add('zip64-eocd', build_zip(ents, force_zip64_eocd=True),
        'canonical entries, but a ZIP64 end-of-central-directory record and locator although '
        'nothing overflows; the classic EOCD holds 0xFFFF / 0xFFFFFFFF in its count, size and '
        'offset fields', 'by hand')
    m, mb, th, bl = tolerant_parts('archive-comment', tsamples)
    add('archive-comment', zipfile_gallery(mb, th, bl, comment=b'Written by Python zipfile; '
                                           b'an archive comment that readers ignore.'),
        'an archive comment (EOCD comment length > 0)', 'zipfile')
    m, mb, th, bl = tolerant_parts('file-comments', tsamples)
    add('file-comments', zipfile_gallery(mb, th, bl, file_comments=True),
        'a file comment in the central directory header of every entry but `mimetype`', 'zipfile')
    m, mb, th, bl = tolerant_parts('unknown-entry', tsamples)
    add('unknown-entry', zipfile_gallery(mb, th, bl, extra_entries=[
        ('notes/readme.txt', b'An entry the format does not define: readers ignore it.\n')]),
        'an extra DEFLATED entry `notes/readme.txt` that the format does not define (ignored; not '
        'under `images/`, so not an orphan blob)', 'zipfile')
    m, mb, th, bl = tolerant_parts('directory-entries', tsamples)
    add('directory-entries', zipfile_gallery(mb, th, bl, dirs=('images/',)),
        'an `images/` directory entry (size 0, mode 040755, MS-DOS directory bit) before the blobs',
        'zipfile')

    def upper(mm):
        mm['id'] = mm['id'].upper()
        mm['revision'] = mm['revision'].upper()
        for im in mm['images']:
            im['id'] = im['id'].upper()
    m, mb, th, bl = tolerant_parts('uppercase-uuids', tsamples, mutate=upper)
    add('uppercase-uuids', zipfile_gallery(mb, th, bl),
        'document id, revision and image ids in uppercase', 'zipfile')

    def noncanon(mm):
        import json
        mm['title'] = 'Non-canonical: \u00f1 \u2713 \U0001F388'
        order = ['images', 'title', 'id', 'revision', 'format', 'formatVersion', 'generator',
                 'modified', 'created']
        mm2 = {k: mm[k] for k in order}
        mm2['images'] = [{k: im[k] for k in reversed(list(im))} for im in mm['images']]
        text = json.dumps(mm2, indent='\t', ensure_ascii=True).replace('\n', '\r\n')
        # legal but unusual escapes: "\/" for every "/", "\u0069" for the first "i" of the format
        text = text.replace('/', '\\/').replace('"imagegallery"', '"\\u0069magegallery"')
        return text.encode('ascii')
    m, mb, th, bl = tolerant_parts('noncanonical-manifest', tsamples, serialise=noncanon)
    add('noncanonical-manifest', zipfile_gallery(mb, th, bl),
        'valid but non-canonical JSON: keys unsorted, tab indent, CRLF line ends, no final newline, '
        'non-ASCII escaped as \\uXXXX (including a surrogate pair for U+1F388), every `/` written '
        '`\\/`, and `"\\u0069magegallery"` for the format name', 'zipfile + json.dumps')

    def future(mm):
        mm['formatVersion'] = '1.7'
        mm['tags'] = ['future', 'member']
        mm['images'][0]['rating'] = 5
        mm['images'][1]['exif'] = {'Make': 'Example', 'Model': 'Unknown'}
    m, mb, th, bl = tolerant_parts('future-minor-version', tsamples, mutate=future)
    add('future-minor-version', zipfile_gallery(mb, th, bl),
        'formatVersion "1.7" with unknown members at top level and in images (IG-MAN-013 info only)',
        'zipfile')

    def dates(mm):
        mm['created'] = '2026-01-02T04:04:05.123456789+01:00'
        mm['modified'] = '2026-01-02T03:04:04.5Z'
        mm['images'][0]['added'] = '2026-01-01T22:04:05-05:00'
        mm['images'][1]['added'] = '2026-01-02t03:04:05.000001z'
    m, mb, th, bl = tolerant_parts('date-offsets', tsamples, mutate=dates)
    add('date-offsets', zipfile_gallery(mb, th, bl),
        'RFC 3339 times with offsets, 1..9 fraction digits and a lowercase `t`/`z`; `modified` is half a second '
        'earlier than `created` (allowed: clock skew)', 'zipfile')
    m, mb, th, bl = tolerant_parts('msdos-attributes', tsamples)
    add('msdos-attributes', zipfile_gallery(mb, th, bl, system=0, file_attr=0x20),
        'made-by host 0 (MS-DOS) and external attributes 0x20 (archive bit), as Windows tools '
        'write: regular files although no Unix mode is present (NOT in the brief\'s list; '
        'a reader should still accept it)', 'zipfile')
    return out


# ---------------------------------------------------------------------------
# invalid/: one defect per file
# ---------------------------------------------------------------------------

OPEN = 'open'   # found when opening: EOCD, central directory, mimetype, manifest
READ = 'read'   # found only when reading the entry's data (or checking its local header)
DEEP = 'deep'   # found only by decoding the pixels (`validate --deep`)

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0xEDB88320 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def zipcrypto_encrypt(data, password, crc, seed):
    """Traditional PKWARE encryption (12-byte header; check byte = CRC high byte)."""
    keys = [0x12345678, 0x23456789, 0x34567890]

    def update(c):
        keys[0] = (keys[0] >> 8) ^ _CRC_TABLE[(keys[0] ^ c) & 0xFF]
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & MAX_U32
        keys[2] = (keys[2] >> 8) ^ _CRC_TABLE[(keys[2] ^ (keys[1] >> 24)) & 0xFF]

    for c in password:
        update(c)
    rng = random.Random(seed)
    header = bytes(rng.getrandbits(8) for _ in range(11)) + bytes([crc >> 24])
    out = bytearray()
    for p in header + data:
        t = (keys[2] | 2) & 0xFFFF
        out.append(p ^ (((t * (t ^ 1)) >> 8) & 0xFF))
        update(p)
    return bytes(out)


def corrupt_deflate(payload):
    """Set BTYPE of the first block to 11 (reserved): an invalid deflate stream."""
    bad = bytearray(payload)
    bad[0] |= 0x06
    try:
        zlib.decompressobj(-15).decompress(bytes(bad))
    except zlib.error:
        return bytes(bad)
    raise AssertionError('corrupt_deflate did not corrupt')


def eocd_fields(data):
    """(cd_size, cd_offset) of a file whose EOCD has no comment."""
    return struct.unpack('<II', data[-10:-2])


def many_images_manifest(did, sample, count, *, seed, random_bits):
    """A manifest of `count` images, all the same blob, with RFC 9562 version-8 ids
    (a sequence number plus `random_bits` seeded bits: compressible, but not so much that
    the deflate ratio passes 100:1)."""
    rng = random.Random(seed)
    base = image_record(did, 0, sample)
    del base['filename']
    recs = []
    for i in range(count):
        r = dict(base)
        h = '%012x' % (rng.getrandbits(random_bits) if random_bits else 0)
        r['id'] = '%s-%s-8000-8000-%012x' % (h[:8], h[8:], i)
        recs.append(r)
    return make_manifest(did, 'Broken: %d images' % count, FIXED_DATE, recs)


class Broken:
    def __init__(self, samples):
        by = {s.filename.split('-')[0]: s for s in samples}
        self.sample = by['7']
        self.blobs = {s.path: s.data for s in samples}
        self.dos = dos_datetime(FIXED_DATE)
        self.items = []

    def manifest(self, key, images=None):
        did = doc_id('invalid/' + key)
        smp = [self.sample] if images is None else images
        return make_manifest(did, 'Broken: ' + key, FIXED_DATE,
                             [image_record(did, i, s) for i, s in enumerate(smp)])

    def entries(self, key, m=None, mbytes=None, blobs=None):
        m = m if m is not None else self.manifest(key)
        mbytes = canonical_json(m) if mbytes is None else mbytes
        return gallery_entries(mbytes, m['images'], blobs or self.blobs,
                               placeholder_thumbnail(m['images']), FIXED_DATE)

    def extra(self, name, content=b'evil\n', method=0):
        return Entry(name, content, method, self.dos)

    def add(self, id_, slug, when, desc, data, also=''):
        sub = 'invalid/warnings' if id_ == 'IG-PKG-025' else 'invalid'
        self.items.append(Fixture('%s/%s-%s.imagegallery' % (sub, id_, slug), data, id=id_,
                                  slug=slug, when=when, desc=desc, also=also))


def make_invalid(samples):
    b = Broken(samples)
    A = b.add

    def E(id_, slug):
        return b.entries(id_ + '-' + slug)

    # ---- IG-PKG-001 / 002 / 003 -----------------------------------------
    rng = random.Random('imagegallery:random-bytes')
    noise = bytes(rng.getrandbits(8) for _ in range(4096))
    assert b'PK' not in noise
    A('IG-PKG-001', 'random-bytes', OPEN, '4,096 seeded pseudo-random bytes (no "PK" anywhere)', noise)
    A('IG-PKG-001', 'plain-text', OPEN, 'a one-line text file', b'This is not an image gallery.\n')
    A('IG-PKG-002', 'empty-file', OPEN, 'a file of zero bytes', b'')

    full = build_zip(E('IG-PKG-003', 'truncated-in-cd'))
    cd_size, cd_off = eocd_fields(full)
    A('IG-PKG-003', 'truncated-in-cd', OPEN,
      'a gallery cut in the middle of its central directory (at CD offset + CD size / 2): '
      'no EOCD is left, but the file starts with the `mimetype` local header',
      full[:cd_off + cd_size // 2],
      also='IG-PKG-001 from a reader that only looks for the EOCD; see README note')

    ents = E('IG-PKG-003', 'local-header-past-eof')
    blob = ents[3]
    blob.write = False
    blob.offset_of = lambda: 0
    size = len(build_zip(ents))
    blob.offset_of = lambda: size + 4096
    A('IG-PKG-003', 'local-header-past-eof', OPEN,
      'the blob\'s central directory entry points 4,096 bytes past the end of the file '
      '(its local header and data were never written)', build_zip(ents))

    # ---- mimetype: IG-PKG-004..008, 026 ----------------------------------
    ents = E('IG-PKG-004', 'mimetype-missing')
    A('IG-PKG-004', 'mimetype-missing', OPEN, 'no `mimetype` entry (manifest.json is first)',
      build_zip(ents[1:]))
    ents = E('IG-PKG-005', 'mimetype-second')
    A('IG-PKG-005', 'mimetype-second', OPEN,
      '`mimetype` is the second entry, after manifest.json (in the file and in the CD)',
      build_zip([ents[1], ents[0]] + ents[2:]))
    ents = E('IG-PKG-005', 'mimetype-not-at-offset-0')
    A('IG-PKG-005', 'mimetype-not-at-offset-0', OPEN,
      '`mimetype` is first in the central directory, but its local header is the second in the '
      'file (manifest.json is at offset 0)', build_zip([ents[1], ents[0]] + ents[2:], cd=ents))
    ents = E('IG-PKG-006', 'mimetype-deflated')
    ents[0] = Entry('mimetype', MIMETYPE, 8, b.dos)
    A('IG-PKG-006', 'mimetype-deflated', OPEN, '`mimetype` is DEFLATED (method 8)', build_zip(ents))
    ents = E('IG-PKG-007', 'mimetype-extra-field')
    ut = struct.pack('<HHBI', 0x5455, 5, 1, 1767323045)
    ents[0].local_extra = ents[0].central_extra = ut
    A('IG-PKG-007', 'mimetype-extra-field', OPEN,
      '`mimetype` has a 9-byte UT (0x5455) extra field in its local (and central) header, so its '
      'content no longer starts at byte 38', build_zip(ents))
    ents = E('IG-PKG-008', 'mimetype-trailing-newline')
    ents[0] = Entry('mimetype', MIMETYPE + b'\n', 0, b.dos)
    A('IG-PKG-008', 'mimetype-trailing-newline', OPEN,
      '`mimetype` content is the media type followed by "\\n" (33 bytes)', build_zip(ents))
    ents = E('IG-PKG-008', 'mimetype-other-type')
    ents[0] = Entry('mimetype', b'application/x-imagegallery+zip', 0, b.dos)
    A('IG-PKG-008', 'mimetype-other-type', OPEN,
      '`mimetype` content is "application/x-imagegallery+zip"', build_zip(ents))
    ents = E('IG-PKG-026', 'mimetype-data-descriptor')
    mt = ents[0]
    mt.flags |= FLAG_DD
    mt.descriptor = 'sig'
    mt.local = dict(crc=0, csize=0, usize=0)
    A('IG-PKG-026', 'mimetype-data-descriptor', OPEN,
      '`mimetype` has flag bit 3: CRC and sizes 0 in its local header, a signed data descriptor '
      'after its content (the central directory has the real values)', build_zip(ents))
    ents = E('IG-PKG-033', 'stored-data-descriptor')
    blob = ents[3]
    assert blob.method == 0
    blob.flags |= FLAG_DD
    blob.descriptor = 'sig'
    blob.local = dict(crc=0, csize=0, usize=0)
    A('IG-PKG-033', 'stored-data-descriptor', OPEN,
      'the blob is STORED with flag bit 3: CRC and sizes 0 in its local header, a signed data '
      'descriptor after its data (the central directory has the real values, and the descriptor '
      'agrees with them). A streaming reader can end stored data only by searching it for a '
      'descriptor signature, which image bytes may hold', build_zip(ents))

    # ---- names: IG-PKG-009..012, 024, 028 ---------------------------------
    key = 'IG-PKG-009-duplicate-manifest'
    m = b.manifest(key)
    ents = b.entries(key, m)
    m2 = dict(m, title='A second manifest.json with another title')
    ents.append(Entry('manifest.json', canonical_json(m2), 8, b.dos))
    A('IG-PKG-009', 'duplicate-manifest', OPEN,
      'two `manifest.json` entries with different content (the second, last in the file, has '
      'another title)', build_zip(ents))
    ents = E('IG-PKG-009', 'duplicate-blob')
    ents.append(Entry(ents[3].name, ents[3].content, 0, b.dos))
    A('IG-PKG-009', 'duplicate-blob', OPEN, 'the blob entry appears twice (same name, same bytes)',
      build_zip(ents))
    for slug, name in (('dotdot', '../evil'), ('absolute', '/abs'),
                       ('backslash', 'images\\x.jpg'), ('drive-letter', 'C:x'),
                       ('empty-component', 'a//b')):
        ents = E('IG-PKG-010', slug)
        ents.append(b.extra(name))
        A('IG-PKG-010', slug, OPEN, 'an extra entry named `%s`' % name,
          build_zip(ents))
    for slug, name, what in (
            ('invalid-utf8-name', b'images/\xff\xfe.png', 'bytes FF FE (not UTF-8) in a name with the UTF-8 flag'),
            ('overlong-utf8-name', b'images/\xc0\xae\xc0\xae/evil', 'overlong UTF-8 for ".." (C0 AE C0 AE)'),
            ('nul-in-name', b'images/a\x00b.png', 'a NUL byte inside the name'),
            ('control-char-in-name', b'images/a\nb.png', 'a line feed (U+000A) inside the name'),
            ('c1-control-in-name', 'images/a\u0085b.png'.encode('utf-8'),
             'U+0085 (NEL, a C1 control, as valid UTF-8 C2 85) inside the name')):
        ents = E('IG-PKG-011', slug)
        ents.append(b.extra(name))
        A('IG-PKG-011', slug, OPEN, 'an extra entry whose name has %s' % what, build_zip(ents))
    ents = E('IG-PKG-012', 'symlink')
    link = b.extra('images/link.png', b'../manifest.json')
    link.ext_attr = 0o120777 << 16
    ents.append(link)
    A('IG-PKG-012', 'symlink', OPEN,
      'an extra entry `images/link.png` that is a symbolic link (external attributes 0o120777 << 16, '
      'made by Unix) to `../manifest.json`', build_zip(ents))
    ents = E('IG-PKG-012', 'char-device')
    dev = b.extra('images/dev.png', b'')
    dev.ext_attr = 0o020644 << 16
    ents.append(dev)
    A('IG-PKG-012', 'char-device', OPEN,
      'an extra empty entry whose Unix mode is a character device (0o020644)', build_zip(ents))
    ents = E('IG-PKG-024', 'name-too-long')
    long_name = ('d' * 99 + '/') * 10 + 'x' * 100
    assert len(long_name) == 1100
    ents.append(b.extra(long_name))
    A('IG-PKG-024', 'name-too-long', OPEN, 'an extra entry whose name is 1,100 bytes (limit 1,024)',
      build_zip(ents))
    ents = E('IG-PKG-028', 'case-fold-duplicate')
    ents += [b.extra('images/A.jpg', b'A'), b.extra('images/a.jpg', b'a')]
    A('IG-PKG-028', 'case-fold-duplicate', OPEN,
      'extra entries `images/A.jpg` and `images/a.jpg` (equal after case folding)', build_zip(ents))
    ents = E('IG-PKG-028', 'nfc-duplicate')
    ents += [b.extra('images/caf\u00e9.png', b'1'), b.extra('images/cafe\u0301.png', b'2')]
    A('IG-PKG-028', 'nfc-duplicate', OPEN,
      'extra entries `images/caf\u00e9.png` (U+00E9) and `images/cafe\u0301.png` (e + U+0301): '
      'equal after NFC normalisation', build_zip(ents))

    # ---- entry flags and methods: IG-PKG-013, 014 --------------------------
    ents = E('IG-PKG-013', 'encrypted-blob')
    e = ents[3]
    e.payload = zipcrypto_encrypt(e.content, b'imagegallery', e.crc, 'imagegallery:zipcrypto')
    e.csize = len(e.payload)
    e.flags |= FLAG_ENCRYPTED
    A('IG-PKG-013', 'encrypted-blob', OPEN,
      'the blob is encrypted with traditional PKWARE encryption (flag bit 0; password '
      '"imagegallery"; 12-byte encryption header)', build_zip(ents))
    ents = E('IG-PKG-014', 'bzip2-blob')
    e = Entry(ents[3].name, ents[3].content, 12, b.dos)
    e.version_needed = 46
    ents[3] = e
    A('IG-PKG-014', 'bzip2-blob', OPEN, 'the blob is compressed with bzip2 (method 12, version 4.6)',
      build_zip(ents))

    # ---- local header vs central directory: IG-PKG-015 ----------------------
    ents = E('IG-PKG-015', 'local-name-mismatch')
    bad = bytearray(ents[3].name)
    bad[7] = ord('0') if bad[7] != ord('0') else ord('1')
    ents[3].local = dict(name=bytes(bad))
    A('IG-PKG-015', 'local-name-mismatch', READ,
      'the blob\'s local header names a different hash (first hex digit changed; same length)',
      build_zip(ents))
    ents = E('IG-PKG-015', 'local-crc-mismatch')
    ents[3].local = dict(crc=ents[3].crc ^ MAX_U32)
    A('IG-PKG-015', 'local-crc-mismatch', READ,
      'the blob\'s local header CRC-32 is inverted (the central directory CRC is right)',
      build_zip(ents))
    ents = E('IG-PKG-015', 'local-method-mismatch')
    ents[1].local = dict(method=0)
    A('IG-PKG-015', 'local-method-mismatch', OPEN,
      'manifest.json: method 0 (stored) in its local header, 8 (deflate) in the central directory; '
      'the data is deflated', build_zip(ents))
    ents = E('IG-PKG-015', 'local-size-mismatch')
    ents[2].local = dict(csize=ents[2].csize + 1, usize=ents[2].usize + 1)
    A('IG-PKG-015', 'local-size-mismatch', READ,
      'thumbnail.png: both sizes in the local header are one more than in the central directory',
      build_zip(ents))
    ents = E('IG-PKG-015', 'local-flags-mismatch')
    ents[3].local = dict(flags=0)
    A('IG-PKG-015', 'local-flags-mismatch', READ,
      'the blob\'s local header flags are 0x0000, the central directory says 0x0800', build_zip(ents))

    # ---- overlap and layout: IG-PKG-016, 017, 025, 031, 032 --------------
    ents = E('IG-PKG-016', 'nested-entry')
    inner = ents[3]
    inner.offset = 0
    outer = Entry('outer.bin', inner.local_header() + inner.payload, 0, b.dos)
    inner.write = False
    inner.offset_of = lambda: outer.offset + 30 + len(outer.name)
    A('IG-PKG-016', 'nested-entry', OPEN,
      'an extra stored entry `outer.bin` whose data is the blob\'s complete local header and data; '
      'the blob\'s central directory entry points inside it. Every CRC, size and local header is '
      'consistent: only the overlap is wrong', build_zip(ents[:3] + [outer], cd=ents + [outer]))
    ents = E('IG-PKG-016', 'shared-local-header')
    copy = Entry('images/copy.png', ents[3].content, 0, b.dos)
    copy.write = False
    blob = ents[3]
    copy.offset_of = lambda: blob.offset
    A('IG-PKG-016', 'shared-local-header', OPEN,
      'two central directory entries (the blob and `images/copy.png`) point at the same local '
      'header and data', build_zip(ents + [copy]),
      also='IG-PKG-015 for `images/copy.png` (its local header has the blob\'s name), when read')
    stub = b'#!/bin/sh\n# a self-extracting stub would be here\nexit 0\n'
    A('IG-PKG-017', 'prepended-stub', OPEN,
      'a %d-byte shell script before the first entry; all offsets are absolute (adjusted), as '
      'in a self-extracting archive' % len(stub), build_zip(E('IG-PKG-017', 'prepended-stub'), prefix=stub),
      also='IG-PKG-005 (mimetype not at offset 0) is a consequence')
    # Unreferenced bytes, judged from where a streaming reader (libarchive on a pipe, Java's
    # ZipInputStream) walking local headers from offset 0 would see them: a local header there
    # is an entry the central directory does not list (031); any bytes between two entries make
    # such readers disagree on the entries after them (032); plain bytes after the last entry are
    # only a warning (025): every reader has seen every entry by then.
    ents = E('IG-PKG-032', 'bytes-between-entries')
    ents[3].gap_before = b'hidden data between two entries\n' * 4
    A('IG-PKG-032', 'bytes-between-entries', OPEN,
      '128 bytes of text (no local header signature) between thumbnail.png and the blob, referenced '
      'by nothing: a streaming reader that stops at the first bytes that are not a local header '
      '(Java\'s ZipInputStream) never sees the blob', build_zip(ents))
    def with_hidden_manifest(key, title):
        """The canonical entries of `key`, and a deflated manifest.json of another title that
        no central directory record lists."""
        m = b.manifest(key)
        hidden = dict(m, title=title)
        hidden['revision'] = revision_for(hidden)
        return b.entries(key, m), Entry('manifest.json', canonical_json(hidden), 8, b.dos)
    ents, hidden_entry = with_hidden_manifest('IG-PKG-031-hidden-manifest-between-entries',
                                              'The hidden manifest a streaming reader sees')
    A('IG-PKG-031', 'hidden-manifest-between-entries', OPEN,
      'a complete deflated `manifest.json` local entry with another title between `mimetype` and '
      'the real `manifest.json`, listed by no central directory record: a reader of the central '
      'directory sees one gallery, a streaming reader (`cat FILE | bsdtar -xOf - manifest.json`) '
      'takes the hidden manifest', build_zip(ents[:1] + [hidden_entry] + ents[1:], cd=ents))
    ents, hidden_entry = with_hidden_manifest('IG-PKG-031-hidden-local-header-before-cd',
                                              'The hidden manifest after the last entry')
    A('IG-PKG-031', 'hidden-local-header-before-cd', OPEN,
      'a complete deflated `manifest.json` local entry with another title after the last entry\'s '
      'data, before the central directory, listed by no central directory record: a streaming '
      'reader meets a second `manifest.json` after the real one', build_zip(ents + [hidden_entry], cd=ents))
    ents = E('IG-PKG-025', 'hidden-bytes-before-cd')
    A('IG-PKG-025', 'hidden-bytes-before-cd', OPEN,
      '64 bytes of text after the last entry\'s data, before the central directory (warning)',
      build_zip(ents, before_cd=b'hidden data after the last entry, before the central dir.\n' + b'=' * 6))

    # ---- EOCD and ZIP64: IG-PKG-018, 019 ----------------------------------
    A('IG-PKG-018', 'multi-disk', OPEN,
      'EOCD says "disk 1, central directory on disk 1" (the last part of a split archive)',
      build_zip(E('IG-PKG-018', 'multi-disk'), eocd=dict(disk=1, cd_disk=1)))
    A('IG-PKG-018', 'counts-disagree', OPEN,
      'EOCD: entries on this disk = 3, total entries = 4 (the CD has 4)',
      build_zip(E('IG-PKG-018', 'counts-disagree'), eocd=dict(n_disk=3)))
    ents = E('IG-PKG-018', 'cd-outside-file')
    size = len(build_zip(ents))
    A('IG-PKG-018', 'cd-outside-file', OPEN,
      'EOCD central directory offset = file size + 1,000', build_zip(ents, eocd=dict(cd_offset=size + 1000)))
    ents = E('IG-PKG-018', 'cd-size-past-eocd')
    cd_size, _ = eocd_fields(build_zip(ents))
    A('IG-PKG-018', 'cd-size-past-eocd', OPEN,
      'EOCD central directory size is 64 bytes larger than the real one (the CD would run into '
      'and past the EOCD)', build_zip(ents, eocd=dict(cd_size=cd_size + 64)))
    A('IG-PKG-019', 'bad-zip64-locator', OPEN,
      'the classic EOCD defers to ZIP64 (0xFFFF / 0xFFFFFFFF), but the ZIP64 locator points at '
      'offset 0 (the mimetype local header), not at the ZIP64 EOCD record',
      build_zip(E('IG-PKG-019', 'bad-zip64-locator'), force_zip64_eocd=True, locator=dict(offset=0)))
    A('IG-PKG-019', 'zip64-counts-disagree', OPEN,
      'ZIP64 EOCD record: entries on this disk = 4, total entries = 5; the classic EOCD defers '
      'to it', build_zip(E('IG-PKG-019', 'zip64-counts-disagree'), force_zip64_eocd=True,
                         zip64_eocd=dict(n_total=5)))

    # ---- data: IG-PKG-020, 021, 027, 029 -----------------------------------
    ents = E('IG-PKG-020', 'crc-mismatch-blob')
    ents[3].crc ^= 0x00000001
    A('IG-PKG-020', 'crc-mismatch-blob', READ,
      'the blob\'s CRC-32 (local and central, consistently) has its lowest bit flipped',
      build_zip(ents))
    ents = E('IG-PKG-020', 'crc-mismatch-manifest')
    ents[1].crc ^= 0x00000001
    A('IG-PKG-020', 'crc-mismatch-manifest', OPEN,
      'manifest.json\'s CRC-32 (local and central) has its lowest bit flipped', build_zip(ents))
    ents = E('IG-PKG-021', 'manifest-inflates-larger')
    ents[1].usize -= 10
    A('IG-PKG-021', 'manifest-inflates-larger', OPEN,
      'manifest.json declares an uncompressed size 10 bytes smaller than what its deflate stream '
      'produces (CRC is that of the full data)', build_zip(ents))
    ents = E('IG-PKG-021', 'manifest-inflates-shorter')
    ents[1].usize += 10
    A('IG-PKG-021', 'manifest-inflates-shorter', OPEN,
      'manifest.json declares an uncompressed size 10 bytes larger than what its deflate stream '
      'produces', build_zip(ents))
    ents = E('IG-PKG-021', 'stored-sizes-differ')
    ents[3].usize += 1
    A('IG-PKG-021', 'stored-sizes-differ', READ,
      'the STORED blob declares uncompressed size = compressed size + 1 (its data is the '
      'compressed size)', build_zip(ents),
      also='a reader may already see at open that a STORED entry has two different sizes')
    ents = E('IG-PKG-027', 'ratio-bomb')
    bomb = Entry('zeros.bin', b'', 0, b.dos)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b'\0' * (1 << 20)
    payload, crc, total = [], 0, 200 * 1000 * 1000
    for i in range(0, total, len(chunk)):
        part = chunk[:min(len(chunk), total - i)]
        payload.append(comp.compress(part))
        crc = zlib.crc32(part, crc)
    payload.append(comp.flush())
    bomb.method, bomb.payload, bomb.crc = 8, b''.join(payload), crc & MAX_U32
    bomb.csize, bomb.usize = len(bomb.payload), total
    ents.append(bomb)
    A('IG-PKG-027', 'ratio-bomb', OPEN,
      'an extra entry `zeros.bin`: 200,000,000 zero bytes deflated to %d bytes (ratio about '
      '%d:1, limit 100:1)' % (bomb.csize, total // bomb.csize), build_zip(ents))
    ents = E('IG-PKG-027', 'thumbnail-ratio-bomb')
    padded = ents[2].content + b'\0' * ((2 << 20) - len(ents[2].content))
    ents[2] = Entry('thumbnail.png', padded, 8, b.dos)
    A('IG-PKG-027', 'thumbnail-ratio-bomb', OPEN,
      '`thumbnail.png` is DEFLATED past the ratio limit: the canonical placeholder followed by '
      'zero bytes up to %d bytes, deflated to %d bytes (ratio about %d:1, limit 100:1). It is '
      'present, so it is not also missing (IG-THM-001)' % (len(padded), ents[2].csize,
                                                          len(padded) // ents[2].csize),
      build_zip(ents))
    ents = E('IG-PKG-029', 'corrupt-deflate-manifest')
    ents[1].payload = corrupt_deflate(ents[1].payload)
    A('IG-PKG-029', 'corrupt-deflate-manifest', OPEN,
      'manifest.json\'s deflate stream starts with a block of reserved type 3 (BTYPE=11); '
      'sizes and CRC are those of the real manifest', build_zip(ents))
    ents = E('IG-PKG-029', 'corrupt-deflate-blob')
    e = Entry(ents[3].name, ents[3].content, 8, b.dos)
    e.payload = corrupt_deflate(e.payload)
    ents[3] = e
    A('IG-PKG-029', 'corrupt-deflate-blob', READ,
      'the blob is DEFLATED (allowed) but its stream starts with a block of reserved type 3',
      build_zip(ents))

    # ---- central directory: IG-PKG-030 ------------------------------------
    ents = E('IG-PKG-030', 'bad-cd-signature')
    ents[1].central = dict(sig=0x03014B50)
    A('IG-PKG-030', 'bad-cd-signature', OPEN,
      'the second central directory header has signature "PK\\x01\\x03" instead of "PK\\x01\\x02"',
      build_zip(ents))
    ents = E('IG-PKG-030', 'cd-entry-past-cd')
    ents[3].central = dict(comment_len=10)
    A('IG-PKG-030', 'cd-entry-past-cd', OPEN,
      'the last central directory header declares a 10-byte comment that is not there: the '
      'entry runs past the end of the central directory into the EOCD', build_zip(ents))
    ents = E('IG-PKG-030', 'disk-start-zip64-too-short')
    ents[1].central_extra = struct.pack('<HH', 1, 8) + struct.pack('<I', 0)
    ents[1].central = dict(disk=MAX_U16)
    A('IG-PKG-030', 'disk-start-zip64-too-short', OPEN,
      '`manifest.json`\'s central directory header has disk number start 0xFFFF ("see the ZIP64 '
      'extra") and sizes and offset that need no ZIP64; its extra field is a 0x0001 record that '
      'declares 8 bytes of data but holds only 4 (the 4-byte disk number 0). The quick scan that '
      'finds `manifest.json` before the full parse once skipped the disk number and read the '
      'manifest, while the full parse refused the header', build_zip(ents))

    # ---- IG-PKG-022 ---------------------------------------------------------
    ents = E('IG-PKG-022', 'manifest-missing')
    A('IG-PKG-022', 'manifest-missing', OPEN, 'no manifest.json entry',
      build_zip([ents[0]] + ents[2:]))

    make_invalid_manifests(b)
    return b.items


def make_invalid_manifests(b):
    def man(id_, slug, desc, mutate=None, edit=None, also='', images=None, blobs=None):
        key = '%s-%s' % (id_, slug)
        m = b.manifest(key, images)
        orig = [dict(x) for x in m['images']]
        r = mutate(m) if mutate else None
        mbytes = r if isinstance(r, bytes) else canonical_json(m)
        if edit:
            mbytes = edit(mbytes)
        # blobs are stored under the (possibly changed) paths; the thumbnail follows the
        # original image sizes
        imgs = m['images'] if isinstance(m.get('images'), list) else orig
        ents = gallery_entries(mbytes, imgs, blobs or b.blobs, placeholder_thumbnail(orig),
                               FIXED_DATE)
        b.add(id_, slug, OPEN, desc, build_zip(ents), also)

    def sub(old, new, count=1):
        def f(data):
            assert data.count(old) >= 1, (old, data[:200])
            return data.replace(old, new, count)
        return f

    def set_title(t):
        def f(m):
            m['title'] = t
        return f

    # IG-MAN-001
    man('IG-MAN-001', 'truncated-json', 'the manifest lacks its closing "}" (last 2 bytes cut)',
        edit=lambda d: d[:-2])
    man('IG-MAN-001', 'trailing-comma', 'a comma after the last member of the top-level object',
        edit=lambda d: d[:-3] + b',\n}\n')
    man('IG-MAN-001', 'trailing-garbage', 'a second "}" after the top-level object',
        edit=lambda d: d + b'}\n')
    # IG-MAN-002
    man('IG-MAN-002', 'invalid-utf8', 'the title holds a raw 0xFF byte',
        mutate=set_title('Broken: @@ here'), edit=sub(b'@@', b'\xff'))
    man('IG-MAN-002', 'overlong-utf8', 'the title holds C0 AF (an overlong "/")',
        mutate=set_title('Broken: @@ here'), edit=sub(b'@@', b'\xc0\xaf'))
    man('IG-MAN-002', 'lone-surrogate', 'the title holds the escape \\ud800 (a lone high surrogate)',
        mutate=set_title('Broken: @@ here'), edit=sub(b'@@', b'\\ud800'))
    # IG-MAN-003
    man('IG-MAN-003', 'duplicate-key', 'the top-level object has "title" twice',
        edit=sub(b'\n  "title": ', b'\n  "title": "First title",\n  "title": '))
    man('IG-MAN-003', 'duplicate-key-in-image', 'the image object has "width" twice (same value)',
        edit=lambda d: re.sub(rb'(\n      "width": \d+)\n', rb'\1,\1\n', d, count=1))

    # IG-MAN-004
    def deep(m):
        m['nesting'] = RawJSON('[' * 100 + ']' * 100)
    man('IG-MAN-004', 'nesting-100', 'an unknown member "nesting" holding 100 nested arrays '
        '(depth 101 counting the top-level object; limit 32)', mutate=deep)

    # IG-MAN-016
    def wide(m):
        m['extension'] = RawJSON('{' + ','.join(f'"k{i}":0' for i in range(10001)) + '}')
    man('IG-MAN-016', 'object-10001-members', 'an unknown member "extension" holding an object of '
        '10,001 members (limit 10,000)', mutate=wide)

    # IG-MAN-006
    def drop(*path):
        def f(m):
            o = m
            for p in path[:-1]:
                o = o[p]
            del o[path[-1]]
        return f
    man('IG-MAN-006', 'missing-title', 'no "title" member', mutate=drop('title'))
    man('IG-MAN-006', 'missing-images', 'no "images" member', mutate=drop('images'))
    man('IG-MAN-006', 'missing-image-sha256', 'the image has no "sha256"', mutate=drop('images', 0, 'sha256'))

    # IG-MAN-007
    def setp(value, *path):
        def f(m):
            o = m
            for p in path[:-1]:
                o = o[p]
            o[path[-1]] = value(o[path[-1]]) if callable(value) else value
        return f
    man('IG-MAN-007', 'width-string', 'the image width is the string "360"',
        mutate=setp(lambda v: str(v), 'images', 0, 'width'))
    man('IG-MAN-007', 'title-number', 'the title is the number 42', mutate=setp(42, 'title'))
    man('IG-MAN-007', 'images-object', '"images" is an empty object {}', mutate=setp({}, 'images'))

    # IG-MAN-008
    man('IG-MAN-008', 'width-zero', 'the image width is 0', mutate=setp(0, 'images', 0, 'width'),
        also='IG-BLB-006 from validate (header says 360)')
    man('IG-MAN-008', 'width-too-large', 'the image width is 2,147,483,648 (max 2,147,483,647)',
        mutate=setp(2147483648, 'images', 0, 'width'), also='IG-BLB-006 from validate')
    man('IG-MAN-008', 'id-not-uuid', 'the document id is "not-a-uuid"', mutate=setp('not-a-uuid', 'id'))
    man('IG-MAN-008', 'created-no-offset', '"created" is "2026-01-02T03:04:05" (no offset: not RFC 3339)',
        mutate=setp('2026-01-02T03:04:05', 'created'))
    man('IG-MAN-008', 'title-too-long', 'the title is 1,001 x U+00FC (2,002 bytes; limit 1,000 scalar values)',
        mutate=setp('\u00fc' * 1001, 'title'))
    man('IG-MAN-008', 'title-with-nul', 'the title contains U+0000 (written \\u0000)',
        mutate=setp('Broken\u0000title', 'title'))
    man('IG-MAN-008', 'filename-with-slash', 'the image filename is "sub/7-quilt-palette.png"',
        mutate=setp('sub/7-quilt-palette.png', 'images', 0, 'filename'))
    man('IG-MAN-008', 'source-not-absolute', 'the image source is the relative reference "photos/quilt.png"',
        mutate=setp('photos/quilt.png', 'images', 0, 'source'))
    man('IG-MAN-008', 'format-version-no-minor', 'formatVersion is "1" (not MAJOR.MINOR)',
        mutate=setp('1', 'formatVersion'), also='IG-MAN-010 would be wrong: the major is 1')
    man('IG-MAN-008', 'format-version-leading-zero', 'formatVersion is "01.0" (a leading zero: each '
        'part is 0 or has no leading zero, so every version has one spelling)',
        mutate=setp('01.0', 'formatVersion'), also='IG-MAN-010 would be wrong: not a version at all')
    man('IG-MAN-008', 'generator-too-long', 'generator is 201 characters (limit 200)',
        mutate=setp('g' * 201, 'generator'))
    man('IG-MAN-008', 'caption-too-long', 'the caption is 10,001 characters (limit 10,000)',
        mutate=setp('c' * 10001, 'images', 0, 'caption'))
    # IG-MAN-009, 010, 011
    man('IG-MAN-009', 'format-other', 'format is "other"', mutate=setp('other', 'format'))
    man('IG-MAN-010', 'format-version-2', 'formatVersion is "2.0"', mutate=setp('2.0', 'formatVersion'))

    def dup_id(m):
        m['images'][1]['id'] = m['images'][0]['id']
    man('IG-MAN-011', 'duplicate-image-id', 'two images (the same blob, listed twice) share one id',
        images=[b.sample, b.sample], mutate=dup_id)

    # IG-MAN-012: the blob is stored under the (wrong) path the manifest names
    s = b.sample
    for slug, path, desc in (
            ('path-sha-mismatch', 'images/%s.png' % sha256hex(b'another blob'),
             'the image path names the SHA-256 of other bytes (the blob is stored under that path)'),
            ('path-ext-mismatch', 'images/%s.jpg' % s.sha256,
             'a PNG (mediaType image/png) whose path ends in .jpg (stored under that path)'),
            ('path-uppercase-hex', 'images/%s.png' % s.sha256.upper(),
             'the hash in the path is uppercase hex (stored under that path)')):
        man('IG-MAN-012', slug, desc, mutate=setp(path, 'images', 0, 'path'), blobs={path: s.data})

    # IG-MAN-014: 100,001 images (all the same blob)
    key = 'IG-MAN-014-too-many-images'
    m = many_images_manifest(doc_id('invalid/' + key), s, 100001, seed='imagegallery:many',
                             random_bits=MANY_RANDOM_BITS)
    mbytes = canonical_json(m)
    ents = b.entries(key, m, mbytes)
    ratio = len(mbytes) / ents[1].csize
    assert 10 < ratio < 100, ratio
    b.add('IG-MAN-014', 'too-many-images', OPEN,
          '100,001 image objects (limit 100,000), all listing the one blob with distinct ids; '
          'manifest %d bytes, deflated %d (ratio %.0f:1, under the 100:1 limit)'
          % (len(mbytes), ents[1].csize, ratio), build_zip(ents))


MANY_RANDOM_BITS = 2


# ---------------------------------------------------------------------------
# invalid/content/: one blob or thumbnail defect per file (IG-BLB-*, IG-THM-*), found by
# `validate` when it reads the entries. The ZIP container and the manifest are canonical.
# ---------------------------------------------------------------------------

def make_invalid_content(samples):
    by = {s.filename.split('-')[0]: s for s in samples}
    s7, s2 = by['7'], by['2']
    blobs = {s.path: s.data for s in samples}
    dos = dos_datetime(FIXED_DATE)
    out = []

    def add(id_, slug, desc, images, *, blobs=blobs, thumbnail=None, omit=(), extra=(), also='',
            folder='invalid/content', when=READ):
        """images: [(sample, {manifest member overrides})]. The thumbnail is the canonical
        placeholder for the first image's real header size unless `thumbnail` is given;
        `omit` drops entries by name, `extra` appends (name, bytes) STORED entries."""
        key = '%s-%s' % (id_, slug)
        did = doc_id(folder + '/' + key)
        recs = [dict(image_record(did, i, smp), **over) for i, (smp, over) in enumerate(images)]
        m = make_manifest(did, 'Broken: ' + key, FIXED_DATE, recs)
        thumb = thumbnail if thumbnail is not None else placeholder_thumbnail(
            [{'width': smp.width, 'height': smp.height} for smp, _ in images])
        ents = gallery_entries(canonical_json(m), recs, blobs, thumb, FIXED_DATE)
        ents = [e for e in ents if e.name.decode('utf-8') not in omit]
        ents += [Entry(name, data, 0, dos) for name, data in extra]
        out.append(Fixture('%s/%s.imagegallery' % (folder, key), build_zip(ents), id=id_, slug=slug,
                           when=when, desc=desc, also=also))

    # ---- IG-BLB: blobs against the manifest --------------------------------
    add('IG-BLB-001', 'blob-missing',
        'the manifest lists the image, but its blob entry `images/<sha256>.png` is absent',
        [(s7, {})], omit=(s7.path,))
    add('IG-BLB-002', 'orphan-blob',
        'an extra STORED entry `images/%s.png` holding `2-tiles.png` (named by the true SHA-256 '
        'of its bytes), which no image lists (warning: the gallery is valid)' % s2.sha256,
        [(s7, {})], extra=((s2.path, s2.data),))
    fake = sha256hex(b'imagegallery: not the bytes of the blob')
    fake_path = 'images/%s.png' % fake
    add('IG-BLB-003', 'sha256-mismatch',
        'the image\'s `sha256` and `path` name the digest `%s` (of other bytes), and the blob '
        'is stored under that path; byteSize, media type and dimensions are right' % fake,
        [(s7, {'sha256': fake, 'path': fake_path})], blobs={fake_path: s7.data})
    add('IG-BLB-004', 'byte-size-mismatch',
        '`byteSize` is %d, one more than the blob\'s %d bytes' % (len(s7.data) + 1, len(s7.data)),
        [(s7, {'byteSize': len(s7.data) + 1})])
    as_jpeg = Sample(s7.filename, s7.data, 'image/jpeg', s7.width, s7.height, '', '')
    add('IG-BLB-005', 'png-declared-jpeg',
        'the PNG `7-quilt-palette.png` declared `image/jpeg`, stored as `images/<its true '
        'sha256>.jpg` (path and media type agree); size and dimensions are right',
        [(as_jpeg, {})], blobs={as_jpeg.path: as_jpeg.data})
    html = (b'<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Not an image'
            b'</title></head>\n<body><p>An HTML page, not a PNG.</p></body>\n</html>\n')
    page = Sample('page.html', html, 'image/png', 1, 1, '', '')
    add('IG-BLB-005', 'html-declared-png',
        'a %d-byte HTML page declared `image/png` (`images/<its true sha256>.png`, right '
        'byteSize; width and height 1)' % len(html),
        [(page, {})], blobs={page.path: page.data})
    add('IG-BLB-006', 'width-mismatch',
        'the image width is %d, twice the %d of its IHDR (height right)' % (2 * s7.width, s7.width),
        [(s7, {'width': 2 * s7.width})])
    garbage = PNG_SIG + b'This is not a chunk stream: no IHDR, no IDAT, no IEND. ' * 2
    bad = Sample('garbage.png', garbage, 'image/png', 1, 1, '', '')
    add('IG-BLB-007', 'header-unreadable',
        'a %d-byte blob: the PNG signature followed by ASCII text (no IHDR), declared '
        '`image/png` with its true sha256 and byteSize; width and height 1' % len(garbage),
        [(bad, {})], blobs={bad.path: bad.data})

    # ---- IG-THM: thumbnail.png ---------------------------------------------
    one = [(s7, {})]
    tw, th = placeholder_thumbnail_size([{'width': s7.width, 'height': s7.height}])
    add('IG-THM-001', 'thumbnail-missing', 'no `thumbnail.png` entry', one, omit=('thumbnail.png',))
    grey = Image.new('RGB', (tw, th), (128, 128, 128))
    add('IG-THM-002', 'thumbnail-jpeg',
        '`thumbnail.png` holds a JPEG (the %dx%d grey placeholder saved by Pillow, quality 85)'
        % (tw, th), one, thumbnail=save_jpeg(grey, quality=85))
    add('IG-THM-003', 'thumbnail-16-bit',
        '`thumbnail.png` is a valid %dx%d 16-bit RGB PNG (uniform grey 0x8080; own encoder)' % (tw, th),
        one, thumbnail=png_encode(tw, th, 16, 2, [b'\x80' * (6 * tw)] * th, filter_type=0, level=9))
    add('IG-THM-004', 'thumbnail-interlaced',
        '`thumbnail.png` is a valid %dx%d 8-bit RGB Adam7-interlaced PNG (uniform grey; own '
        'encoder)' % (tw, th),
        one, thumbnail=png_encode(tw, th, 8, 2, [b'\x80' * (3 * tw)] * th, interlace=True,
                                  filter_type=0, level=9))
    add('IG-THM-005', 'thumbnail-too-large',
        '`thumbnail.png` is a valid 2000x10 8-bit greyscale PNG, non-interlaced (long side over 1,024)',
        one, thumbnail=png_encode(2000, 10, 8, 0, [b'\x80' * 2000] * 10, filter_type=0, level=9))
    add('IG-THM-006', 'thumbnail-no-ihdr',
        '`thumbnail.png` is the PNG signature followed by a tEXt chunk and IEND: no IHDR',
        one, thumbnail=PNG_SIG + png_chunk(b'tEXt', b'Comment\x00no IHDR chunk here')
        + png_chunk(b'IEND', b''))

    # ---- deep/: sound containers and headers, pixels that do not decode ------
    # Each blob carries its true sha256 and byteSize and a readable header: only decoding
    # (`validate --deep`) finds the defect.
    def deep(id_, slug, desc, sample, data, **kw):
        bad = Sample(slug + '.' + sample.filename.rsplit('.', 1)[1], data, sample.media_type,
                     sample.width, sample.height, '', '')
        add(id_, slug, desc, [(bad, {})], blobs={bad.path: bad.data}, folder='invalid/deep', when=DEEP, **kw)

    s1, s6 = by['1'], by['6']
    cut = len(s1.data) * 3 // 5
    deep('IG-BLB-008', 'jpeg-truncated',
         '`1-sunset.jpg` cut to its first %d of %d bytes, inside the scan (no EOI)' % (cut, len(s1.data)),
         s1, s1.data[:cut])
    sos = s1.data.index(b'\xff\xda')
    mid = sos + (len(s1.data) - sos) // 2
    # All-ones bit runs are never a valid Huffman code, so a decoder must complain.
    deep('IG-BLB-008', 'jpeg-bad-huffman',
         '`1-sunset.jpg` with 256 bytes of its scan data, from byte %d, replaced by 128 stuffed '
         '0xFF 0x00 pairs (all-ones bits, which no Huffman table can decode; libjpeg-turbo 2.1 '
         'reports the damage as extraneous bytes before the EOI marker)' % mid,
         s1, s1.data[:mid] + b'\xff\x00' * 128 + s1.data[mid + 256:])
    idat = s2.data.index(b'IDAT') + 4
    flipped = bytearray(s2.data)
    flipped[idat + 100] ^= 0x01
    deep('IG-BLB-008', 'png-idat-crc',
         '`2-tiles.png` with one bit of its IDAT data flipped (byte %d): the chunk fails its CRC and '
         'the zlib stream its Adler-32 (libpng reports the Adler-32 first)' % (idat + 100),
         s2, bytes(flipped))
    cut6 = len(s6.data) * 3 // 5
    deep('IG-BLB-008', 'png-truncated',
         '`6-bubbles.png` cut to its first %d of %d bytes, inside the image data (no IEND)' % (cut6, len(s6.data)),
         s6, s6.data[:cut6])
    # Streamed row by row, a PNG holds one row: only the work of decoding every pixel bounds it.
    huge = png_encode(32768, 32768, 1, 0, [b'\x00' * 4096] * 32768, filter_type=0, level=9)
    deep('IG-BLB-009', 'png-1-gigapixel',
         'a valid 32768x32768 1-bit greyscale PNG (1,073,741,824 pixels, past the default limit of '
         '1,000,000,000 decoded pixels; %d bytes)' % len(huge),
         Sample('huge.png', huge, 'image/png', 32768, 32768, '', ''), huge)
    thumb = bytearray(placeholder_thumbnail([{'width': s7.width, 'height': s7.height}]))
    tidat = bytes(thumb).index(b'IDAT') + 4
    thumb[tidat + 20] ^= 0x01
    add('IG-THM-007', 'thumbnail-idat-crc',
        'the canonical placeholder `thumbnail.png` with one bit of its IDAT data flipped (byte %d), '
        'so the chunk fails its CRC and the zlib stream its Adler-32' % (tidat + 20), one, thumbnail=bytes(thumb), folder='invalid/deep', when=DEEP)
    return out


# ---------------------------------------------------------------------------
# Large fixtures (--large DIR): too big for the repository, made at test time
# ---------------------------------------------------------------------------

LARGE_CAPTION_GAP = 400


def make_large(samples):
    b = Broken(samples)
    # IG-PKG-023: 201,000 entries (limit 200,000) -> ZIP64 EOCD (count > 65,535)
    ents = b.entries('IG-PKG-023-too-many-entries')
    for i in range(201000 - len(ents)):
        ents.append(Entry('x/%05x' % i, b'', 0, b.dos))
    assert len(ents) == 201000
    b.add('IG-PKG-023', 'too-many-entries', OPEN,
          '201,000 entries (limit 200,000): the gallery plus 200,996 empty stored entries '
          '`x/00000`..; ZIP64 EOCD record and locator because the count exceeds 65,535', build_zip(ents))

    # IG-MAN-005: a manifest of about 70 MB (limit 64 MiB) that deflates under 100:1
    key = 'IG-MAN-005-manifest-too-large'
    did = doc_id('invalid/' + key)
    rng = random.Random('imagegallery:large-manifest')
    alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
    pattern = ('The quick brown fox jumps over the lazy dog; ' * 300)[:10000]
    recs = []
    for i in range(6800):
        chars = list(pattern)
        pos = rng.randrange(LARGE_CAPTION_GAP)
        while pos < len(chars):
            chars[pos] = alphabet[rng.getrandbits(6)]
            pos += 1 + rng.randrange(2 * LARGE_CAPTION_GAP)
        recs.append(image_record(did, i, b.sample, caption=''.join(chars)))
    m = make_manifest(did, 'Broken: a manifest larger than 64 MiB', FIXED_DATE, recs)
    mbytes = canonical_json(m)
    ents = b.entries(key, m, mbytes)
    ratio = len(mbytes) / ents[1].csize
    assert len(mbytes) > 64 * 1024 * 1024 and ratio < 100, (len(mbytes), ratio)
    b.add('IG-MAN-005', 'manifest-too-large', OPEN,
          'manifest.json of %d bytes (limit 64 MiB = 67,108,864): 6,800 images, each with a '
          '10,000-character caption; deflated %d bytes (ratio %.0f:1, under 100:1)'
          % (len(mbytes), ents[1].csize, ratio), build_zip(ents))
    return b.items


# ---------------------------------------------------------------------------
# README files
# ---------------------------------------------------------------------------

REGEN = ('Regenerate with `make fixtures`, which runs `/usr/bin/python3 scripts/make-fixtures.py` '
         '(Debian python3 + python3-pil; deterministic: a second run gives identical bytes; '
         '`scripts/make-fixtures.py --check` verifies that).')


def readme_images(samples):
    lines = ['# Sample images', '',
             'Synthetic pictures drawn by `scripts/make-fixtures.py` itself (no outside sources, '
             'nothing to license). Used by `make demo`, by the tests and by the galleries in '
             '`valid/`, `tolerant/` and `invalid/`.', '', REGEN, '',
             'The names make natural order differ from byte order: natural order is 1, 2, ..., 9, 10; '
             'byte order puts `10-fractal.jpg` second. `create` with this folder as source must use '
             'natural order (see `valid/images-folder.imagegallery`). This README is not an image: '
             '`create` skips it with a warning.', '',
             '| file | bytes | width x height (header) | kind | how it is made | sha256 |',
             '|---|---:|---|---|---|---|']
    for s in samples:
        lines.append('| `%s` | %d | %d x %d | %s | %s | `%s` |' % (
            s.filename, len(s.data), s.width, s.height, s.kind, s.how, s.sha256))
    lines += ['',
              'Notes:', '',
              '- `5-balloon-rotated.jpg` stores 480 x 320 pixels with EXIF Orientation 6; a viewer '
              'shows it 320 x 480. Its manifest `width`/`height` are the header values (480 x 320), '
              'as the brief says ("as in the image header").',
              '- `8-deep-gradient.png` and `9-rings-interlaced.png` come from the script\'s own small '
              'PNG encoder, because Pillow cannot write 16-bit RGB or Adam7. Both decode with Pillow '
              'and pass libpng\'s `pngfix`.',
              '- Byte-exactness depends on the Pillow / libjpeg-turbo / zlib builds (Debian 12: '
              'python3-pil 9.4, libjpeg62-turbo 2.1.5, zlib 1.2.13).', '']
    return '\n'.join(lines)


def readme_valid(valid, samples):
    L = ['# Valid galleries (canonical form)', '',
         'Written by the small canonical writer in `scripts/make-fixtures.py` (ZIP records packed '
         'by hand with `struct`, not `zipfile`), exactly per the v1 brief. For each '
         '`NAME.imagegallery` there is `NAME.manifest.json`: the exact bytes of its '
         '`manifest.json` entry.', '', REGEN, '',
         '## Rules these files follow', '',
         '- Entries: `mimetype` (STORED), `manifest.json` (DEFLATED: raw deflate, '
         '`zlib.compressobj(6, zlib.DEFLATED, -15)`), `thumbnail.png` (STORED), then each distinct '
         'blob `images/<sha256>.<ext>` (STORED) in gallery order, at its first occurrence.',
         '- Every local and central header: flags 0x0800, version needed 20, version made by '
         '0x0314, no extra field, no data descriptor, no comments, internal attributes 0, external '
         'attributes 0o100644 << 16, DOS date/time = `modified` in UTC (2026-01-02 03:04:04: '
         'seconds rounded down to even). No ZIP64 (nothing overflows). No archive comment.',
         '- Manifest: canonical JSON (keys sorted by UTF-8 bytes, 2-space indent, `": "`, LF, '
         'final newline, only `"`, `\\` and U+0000..U+001F escaped -- as `\\b \\f \\n \\r \\t` or '
         '`\\u00xx` with lowercase hex -- non-ASCII raw); an empty array is written `[]`.',
         '- `format` "imagegallery", `formatVersion` "1.0", `created` = `modified` = the date, '
         '`generator` "%s".' % GENERATOR,
         '- Image id = `uuid5(namespace: UUID(document id), name: "<index>:<sha256hex>")`, index '
         '0-based position in the gallery, sha256hex the blob\'s lowercase hex SHA-256 (so a blob '
         'listed twice gets two ids).',
         '- `filename` = the source file\'s base name. No `caption`, `source` or `added` except in '
         '`all`.',
         '- **Revision** (the brief fixes no rule; this is the Swift `create`\'s '
         '`Manifest.contentRevision`): `uuid5(namespace: UUID(document id), name: "revision:" + '
         'sha256hex(canonical manifest bytes with "revision" set to the nil UUID '
         '"00000000-0000-0000-0000-000000000000"))`. If the Swift writer changes, change '
         '`revision_for()` in the script and regenerate.',
         '- Thumbnail: the placeholder -- uniform RGB (128,128,128), 8-bit RGB PNG, long side 256, '
         'short side = max(1, round(256 * short / long)) with round-half-to-even on the double '
         'quotient (Python `round`; Swift `.rounded(.toNearestOrEven)`) of the first image\'s header '
         'size (no sample hits a tie), 256 x 256 when there are no images; every row with filter type 0; one IDAT = '
         '`zlib.compress(raw, 9)`; chunks IHDR, IDAT, IEND only.',
         '- Document ids are `uuid5(uuid5(NAMESPACE_DNS, "fixtures.imagegallery.invalid"), '
         '"valid/NAME")`; date %s for `--date`.' % FIXED_DATE, '',
         '## The galleries', '']
    for f in valid:
        if not f.relpath.endswith('.imagegallery'):
            continue
        name = os.path.basename(f.relpath)
        mt = f.meta
        L.append('### `%s`' % name)
        L.append('')
        L.append('- id: `%s`' % mt['id'])
        L.append('- title: "%s"' % mt['title'])
        L.append('- date (created = modified): `%s`' % mt['date'])
        L.append('- revision: `%s`' % mt['revision'])
        L.append('- sources in order: %s' % (', '.join('`%s`' % x for x in mt['sources']) or '(none)'))
        if mt['note']:
            L.append('- %s' % mt['note'])
        if mt['comparable']:
            cmd = ['imagegallery', 'create', 'OUT.imagegallery', '--title', "'%s'" % mt['title'],
                   '--date', mt['date'], '--id', mt['id']] + mt['create_args']
            L.append('- the same bytes should come from (run in the repository root):')
            L.append('')
            L.append('  ```sh')
            L.append('  ' + ' '.join(cmd))
            L.append('  ```')
        else:
            L.append('- not producible by `create` (reader fixture only).')
        L.append('')
    return '\n'.join(L)


def readme_tolerant(tol):
    L = ['# Tolerant galleries', '',
         'Galleries a v1 reader MUST open without error (brief, "Reader tolerance"). Most are '
         'written by Python\'s `zipfile` (a different writer from ours); a few by hand where '
         '`zipfile` cannot produce the layout. Each has a valid manifest (two sample images: '
         '`7-quilt-palette.png`, `8-deep-gradient.png`, with correct sha256, sizes and dimensions), '
         'a placeholder thumbnail and `mimetype` first, STORED, without extra field or data '
         'descriptor. Checked with `unzip -tq`, `python3 -m zipfile -t`, `bsdtar -tf` and `7z t`. '
         'Note that `zipfile` leaves general-purpose flag bit 11 clear on ASCII names, so every '
         'zipfile-made file also checks that a reader accepts ASCII names without the UTF-8 flag.',
         '', REGEN, '', '| file | writer | what is unusual |', '|---|---|---|']
    for f in tol:
        L.append('| `%s` | %s | %s |' % (os.path.basename(f.relpath), f.meta['writer'], f.meta['desc']))
    L.append('')
    return '\n'.join(L)


IMPOSSIBLE_OR_LARGE = [
    ('IG-PKG-023', 'made only by `scripts/make-fixtures.py --large DIR` (about 18 MB: 201,000 '
                   'entries cannot be stored small enough for the repository)'),
    ('IG-MAN-005', 'made only by `--large DIR` (a manifest over 64 MiB must deflate to more '
                   'than 640 KB to stay under the 100:1 ratio limit; the file is about 1.1 MB)'),
    ('IG-MAN-013', 'info only, not an error: see `tolerant/future-minor-version.imagegallery`'),
]


def readme_invalid(broken, large, content):
    deep = [f for f in content if f.meta['when'] == DEEP]
    content = [f for f in content if f.meta['when'] != DEEP]
    L = ['# Broken galleries', '',
         'Each file has exactly one defect; everything else in it is canonical (same writer as '
         '`valid/`, one image `7-quilt-palette.png`, unless the table says otherwise). The file '
         'name starts with the diagnostic id a reader MUST report for it. `warnings/` holds '
         'files whose only diagnostic is a warning (the gallery still opens).', '', REGEN, '',
         '"When": **open** = found when opening (EOCD, central directory, the `mimetype` and '
         '`manifest.json` entries, their local headers and data); **read** = found only when '
         'reading the entry\'s data (CRC, sizes, inflate, its local header). "Also" names a '
         'second diagnostic the file may legitimately produce.', '',
         '| file | expected id | defect | when | also |', '|---|---|---|---|---|']
    for f in broken + large:
        name = '`%s`' % f.relpath.split('/', 1)[1]
        if f in large:
            name += ' (`--large` only)'
        L.append('| %s | %s | %s | %s | %s |' % (name, f.meta['id'], f.meta['desc'].replace('|', '\\|'),
                                               f.meta['when'], f.meta['also']))
    ids = sorted({f.meta['id'] for f in broken + large})
    pkg = ['IG-PKG-%03d' % i for i in range(1, 34)]
    man = ['IG-MAN-%03d' % i for i in range(1, 15)]
    missing = [i for i in pkg + man if i not in ids]
    L += ['', '## Coverage', '',
          'Ids with at least one fixture: %s.' % ', '.join(ids), '',
          'Ids without a fixture in this folder: %s.' % (', '.join(missing) or 'none'), '']
    for i, why in IMPOSSIBLE_OR_LARGE:
        L.append('- %s: %s.' % (i, why))
    L += ['', '## Notes', '',
          '- `IG-PKG-003-truncated-in-cd`: with the tail cut off there is no EOCD, so a reader '
          'that only searches for the EOCD reports IG-PKG-001. The brief lists "truncated in the '
          'middle of the CD" as a truncation example; a reader that sees a local file header at '
          'offset 0 can say IG-PKG-003. Decide which and record it here.',
          '- `IG-PKG-017-prepended-stub` also moves `mimetype` away from offset 0 (IG-PKG-005): '
          'the two cannot be separated.',
          '- `IG-PKG-016-shared-local-header`: two CD entries cannot share one local header without '
          'one of them disagreeing with it by name (IG-PKG-015) or being a duplicate (IG-PKG-009); '
          '`IG-PKG-016-nested-entry` is the overlap with no second defect.',
          '- Unreferenced bytes are judged by what a streaming reader walking local headers from '
          'offset 0 sees (libarchive on a pipe, Java\'s ZipInputStream): a local header signature in '
          'them is IG-PKG-031, any bytes between two entries IG-PKG-032 (errors), plain bytes after '
          'the last entry IG-PKG-025 (a warning). A stored entry with a data descriptor is '
          'IG-PKG-033: a streaming reader must search its data for where it ends. '
          '`scripts/check-streaming-view.py FILE...` shows what two streaming readers see in a file; '
          '`StreamingViewTests` compares that with what our reader sees through the central directory.',
          '- The defects in extra, unreferenced entries (names, symlink, ratio bomb) do not touch '
          'the gallery itself; unreferenced entries are not a PKG error (an orphan *blob* is '
          'IG-BLB-002, a validate warning).',
          '- Large fixtures: `/usr/bin/python3 scripts/make-fixtures.py --large DIR` writes '
          '`IG-PKG-023-too-many-entries.imagegallery` and `IG-MAN-005-manifest-too-large.imagegallery` '
          'into DIR (a few seconds; deterministic).', '']
    L += ['## Blobs and thumbnail (`content/`)', '',
          'Galleries whose ZIP container and manifest are canonical (same writer as `valid/`, '
          'built from the sample images; one image `7-quilt-palette.png` unless the table says '
          'otherwise) but whose blobs or `thumbnail.png` disagree with the manifest or the format. '
          'Only `imagegallery validate` finds these, when it checks the entries against the manifest '
          '(after opening), so "when" is **read** throughout. Each file has exactly one defect: the only error `validate` '
          'reports is the file\'s id; `IG-BLB-002` is a warning, and its file has no error at all.',
          '', '| file | expected id | defect | when | also |', '|---|---|---|---|---|']
    for f in content:
        L.append('| `%s` | %s | %s | %s | %s |' % (f.relpath.split('/', 1)[1], f.meta['id'],
                                                 f.meta['desc'].replace('|', '\\|'), f.meta['when'],
                                                 f.meta['also']))
    cids = sorted({f.meta['id'] for f in content})
    want = ['IG-BLB-%03d' % i for i in range(1, 8)] + ['IG-THM-%03d' % i for i in range(1, 7)]  # deep/: the rest
    L += ['', 'Ids with at least one fixture: %s.' % ', '.join(cids), '',
          'Ids without a fixture in this folder: %s.' % (', '.join(i for i in want if i not in cids)
                                                        or 'none'), '',
          'Notes:', '',
          '- The thumbnail, where it is not the defect, is the canonical placeholder for the first '
          'image\'s real header size (also in `IG-BLB-006-width-mismatch`, whose manifest width is '
          'wrong); for the two blobs that are not images (`html-declared-png`, `header-unreadable`) '
          'it follows the manifest\'s 1 x 1, so it is 256 x 256.',
          '- The image ids are `uuid5(document id, "<index>:<true sha256 of the blob>")`, also in '
          '`IG-BLB-003-sha256-mismatch` (an id is opaque to a reader: nothing ties it to the digest).',
          '- `IG-BLB-005`: `validate` checks the leading bytes against `mediaType` first; once they '
          'disagree (or are neither JPEG nor PNG) it does not go on to compare the image header, so '
          'no IG-BLB-006 / IG-BLB-007 follows (the manifest\'s width and height 1 in '
          '`html-declared-png` are never compared).', '']
    L += ['## Pixels (`deep/`)', '',
          'Galleries that are valid to `imagegallery validate` without `--deep`: the container, the '
          'manifest, every blob\'s sha256, byteSize, media type and header, and the thumbnail\'s '
          'header are all right. Only decoding the pixels (`validate --deep`) finds the defect. '
          'IG-BLB-009 is a warning: the image may be fine, but it is past the default decode limit, '
          'so its pixels are not decoded.', '',
          '| file | expected id | defect | when |', '|---|---|---|---|']
    for f in deep:
        L.append('| `%s` | %s | %s | %s |' % (f.relpath.split('/', 1)[1], f.meta['id'],
                                           f.meta['desc'].replace('|', '\\|'), f.meta['when']))
    L.append('')
    return '\n'.join(L)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

MANAGED_DIRS = ['images', 'valid', 'tolerant', 'invalid', 'invalid/warnings', 'invalid/content', 'invalid/deep',
                'sync']


# ---------------------------------------------------------------------------
# sync/: a document with the conflict copies sync clients leave beside it
# ---------------------------------------------------------------------------

SYNC_COPIES = [
    # (file name, what differs from trip.imagegallery, same document?)
    ('trip.sync-conflict-20261122-081502-ABCDEF7.imagegallery',
     'Syncthing copy: adds 3-lighthouse.jpg at the end', True),
    ('trip (conflicted copy jane 2026-11-22 081502).imagegallery',
     'Nextcloud/ownCloud copy: adds 4-dunes.jpg at the end', True),
    ("trip (Jane's conflicted copy 2026-11-22).imagegallery",
     'Dropbox copy: the two images in the other order', True),
    ("trip (Bob's conflicted copy 2026-11-23).imagegallery",
     'a lookalike: named like a Dropbox copy, but another document (another id); never offered', False),
]


def make_sync(samples):
    blobs = {s.path: s.data for s in samples}
    did = doc_id('sync/trip')
    base = [image_record(did, i, s) for i, s in enumerate(samples[:2])]
    variants = [
        base + [image_record(did, 2, samples[2])],
        base + [image_record(did, 3, samples[3])],
        [base[1], base[0]],
        None,
    ]
    out = []

    def gallery(name, document_id, records, date):
        m = make_manifest(document_id, 'Trip', date, records)
        data, _ = write_canonical(m, blobs)
        out.append(Fixture('sync/' + name, data))

    gallery('trip.imagegallery', did, base, FIXED_DATE)
    lines = ['# Sync-client conflict copies', '',
             '`trip.imagegallery` and the conflict copies that Syncthing, Nextcloud/ownCloud and Dropbox '
             'leave beside a file changed on two machines at once. Generated by `scripts/make-fixtures.py`; '
             'do not edit.', '', '| File | What it is |', '|---|---|',
             '| `trip.imagegallery` | the document: 1-sunset.jpg, 2-tiles.png |']
    for (name, what, same), records in zip(SYNC_COPIES, variants):
        if same:
            gallery(name, did, records, '2026-11-22T08:15:02Z')
        else:
            other = doc_id('sync/other')
            gallery(name, other, [image_record(other, 0, samples[4])], '2026-11-23T08:15:02Z')
        lines.append('| `%s` | %s |' % (name, what))
    out.append(Fixture('sync/README.md', ('\n'.join(lines) + '\n').encode('utf-8')))
    return out


def generate():
    samples = make_samples()
    files = [Fixture('images/' + s.filename, s.data) for s in samples]
    valid = make_valid(samples)
    tolerant = make_tolerant(samples)
    broken = make_invalid(samples)
    content = make_invalid_content(samples)
    files += valid + tolerant + broken + content + make_sync(samples)
    files.append(Fixture('images/README.md', readme_images(samples).encode('utf-8')))
    files.append(Fixture('valid/README.md', readme_valid(valid, samples).encode('utf-8')))
    files.append(Fixture('tolerant/README.md', readme_tolerant(tolerant).encode('utf-8')))
    large_meta = [Fixture('large/%s-%s.imagegallery' % (i, slug), b'', id=i, slug=slug, when=OPEN,
                          desc=desc, also='') for i, slug, desc in LARGE_DESCRIPTIONS]
    files.append(Fixture('invalid/README.md', readme_invalid(broken, large_meta, content).encode('utf-8')))
    return files


LARGE_DESCRIPTIONS = [
    ('IG-PKG-023', 'too-many-entries',
     '201,000 entries (limit 200,000): the gallery plus 200,996 empty stored entries; ZIP64 EOCD '
     'record and locator because the count exceeds 65,535'),
    ('IG-MAN-005', 'manifest-too-large',
     'manifest.json of about 70 MB (limit 64 MiB): 6,800 images with 10,000-character captions, '
     'deflating under the 100:1 ratio limit'),
]


def write_tree(outdir, files):
    written = set()
    for f in files:
        path = os.path.join(outdir, f.relpath)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            with open(path, 'rb') as fh:
                same = fh.read() == f.data
        except FileNotFoundError:
            same = False
        if not same:
            with open(path + '.tmp', 'wb') as fh:
                fh.write(f.data)
            os.replace(path + '.tmp', path)
        written.add(os.path.normpath(path))
    for d in MANAGED_DIRS:
        full = os.path.join(outdir, d)
        if not os.path.isdir(full):
            continue
        for n in os.listdir(full):
            p = os.path.normpath(os.path.join(full, n))
            if os.path.isfile(p) and p not in written:
                os.remove(p)
    return written


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(root, 'Fixtures'),
                    help='folder to write (default: Fixtures/ of this repository)')
    ap.add_argument('--large', metavar='DIR',
                    help='write only the large fixtures (IG-PKG-023, IG-MAN-005) into DIR')
    ap.add_argument('--check', action='store_true',
                    help='regenerate in memory and compare byte for byte with --out')
    args = ap.parse_args()
    if args.large:
        os.makedirs(args.large, exist_ok=True)
        items = make_large(make_samples())
        for f in items:
            with open(os.path.join(args.large, os.path.basename(f.relpath)), 'wb') as fh:
                fh.write(f.data)
            print('%s %d bytes' % (os.path.join(args.large, os.path.basename(f.relpath)), len(f.data)))
        return 0
    files = generate()
    if args.check:
        bad = 0
        for f in files:
            p = os.path.join(args.out, f.relpath)
            try:
                with open(p, 'rb') as fh:
                    ok = fh.read() == f.data
            except FileNotFoundError:
                ok = False
            if not ok:
                print('differs: %s' % p)
                bad += 1
        print('%d files checked, %d differ' % (len(files), bad))
        return 1 if bad else 0
    write_tree(args.out, files)
    total = sum(len(f.data) for f in files)
    print('wrote %d files, %d bytes, under %s' % (len(files), total, args.out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
