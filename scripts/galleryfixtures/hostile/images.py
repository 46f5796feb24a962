"""Images the hostile corpus puts in galleries: PNGs and JPEGs, correct or not, of any declared size."""

import functools
import io
import random
import struct
import zlib

from PIL import Image

from ..compression import compress_zeros
from ..png import ADAM7, CHANNELS, PNG_SIG, ihdr, png_chunk


def png_raw(w, h, depth, ctype, interlace, rng=None, fill=0, filt=0):
    ch = CHANNELS[ctype]
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    out = bytearray()
    for xs, ys, dx, dy in passes:
        pw = (w - xs + dx - 1) // dx if w > xs else 0
        ph = (h - ys + dy - 1) // dy if h > ys else 0
        if pw == 0 or ph == 0:
            continue
        rb = (pw * ch * depth + 7) // 8
        for _ in range(ph):
            out.append(filt)
            out += rng.randbytes(rb) if rng else bytes([fill]) * rb
    return bytes(out)


@functools.lru_cache(maxsize=None)
def make_png(w, h, depth=8, ctype=2, interlace=0, seed=None, fill=0, idat_chunks=1, zlevel=6,
             before=(), after=()):
    """A correct PNG; seed=None gives uniform `fill` bytes, else random pixels."""
    rng = random.Random(f"png:{seed}") if seed is not None else None
    parts = [PNG_SIG, ihdr(w, h, depth, ctype, interlace)]
    if ctype == 3:
        n = 1 << depth
        prng = random.Random(f"plte:{seed}")
        parts.append(png_chunk(b"PLTE", prng.randbytes(3 * n)))
    parts += list(before)
    z = zlib.compress(png_raw(w, h, depth, ctype, interlace, rng, fill), zlevel)
    k = max(1, idat_chunks)
    step = max(1, (len(z) + k - 1) // k)
    for i in range(0, len(z), step):
        parts.append(png_chunk(b"IDAT", z[i:i + step]))
    parts += list(after)
    parts.append(png_chunk(b"IEND", b""))
    return b"".join(parts)


def zlib_zeros(n):
    """A zlib stream of n zero bytes (n may be huge): IDAT data, or a bomb in a compressed chunk."""
    return compress_zeros(zlib.compressobj(9, zlib.DEFLATED, 15, 9), n)


def png_zero_big(w, h, depth=1, ctype=0):
    """A correct PNG of all-zero pixels, of any size, IDAT streamed."""
    rb = (w * CHANNELS[ctype] * depth + 7) // 8
    idat = zlib_zeros(h * (1 + rb))
    parts = [PNG_SIG, ihdr(w, h, depth, ctype, 0)]
    for i in range(0, len(idat), 1 << 20):
        parts.append(png_chunk(b"IDAT", idat[i:i + (1 << 20)]))
    parts.append(png_chunk(b"IEND", b""))
    return b"".join(parts)


@functools.lru_cache(maxsize=None)
def make_jpeg(w, h, seed=0, mode="RGB", progressive=False, quality=75, orient=None, subsampling=-1,
              smooth=False):
    rng = random.Random(f"jpeg:{seed}")
    ch = {"RGB": 3, "L": 1, "CMYK": 4}[mode]
    basec = [rng.randrange(256) for _ in range(ch)]
    data = bytearray()
    for y in range(h):
        for x in range(w):
            for c in range(ch):
                if smooth:
                    data.append(basec[c])
                else:
                    data.append((basec[c] + x * (c + 1) * 3 + y * (c + 2) * 2 + rng.randrange(24)) & 255)
    im = Image.frombytes(mode, (w, h), bytes(data))
    kw = dict(quality=quality, progressive=progressive, optimize=False)
    if orient is not None:
        ex = Image.Exif()
        ex[0x0112] = orient
        kw["exif"] = ex.tobytes()
    if subsampling >= 0:
        kw["subsampling"] = subsampling
    buf = io.BytesIO()
    im.save(buf, "JPEG", **kw)
    return buf.getvalue()


def jpeg_split(b):
    """([(marker, payload)] up to and including the first SOS, rest after it)."""
    assert b[:2] == b"\xff\xd8"
    i = 2
    segs = []
    while True:
        assert b[i] == 0xFF, (i, b[i])
        m = b[i + 1]
        n = struct.unpack(">H", b[i + 2:i + 4])[0]
        segs.append((m, b[i + 4:i + 2 + n]))
        i += 2 + n
        if m == 0xDA:
            break
    return segs, b[i:]


def jpeg_join(segs, rest, soi=b"\xff\xd8"):
    out = bytearray(soi)
    for m, p in segs:
        out += bytes([0xFF, m]) + struct.pack(">H", len(p) + 2) + p
    return bytes(out) + rest


def jpeg_set_dims(b, w, h, sof=None):
    segs, rest = jpeg_split(b)
    out = []
    for m, p in segs:
        if m in (0xC0, 0xC1, 0xC2):
            p = p[:1] + struct.pack(">HH", h, w) + p[5:]
            if sof is not None:
                m = sof
        out.append((m, p))
    return jpeg_join(out, rest)


def gif_bytes():
    return (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
            b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def webp_bytes():
    body = b"WEBPVP8L" + struct.pack("<I", 5) + b"\x2f\x00\x00\x00\x00" + b"\x00"
    return b"RIFF" + struct.pack("<I", len(body)) + body
