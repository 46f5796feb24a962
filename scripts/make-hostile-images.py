#!/usr/bin/python3
"""Write hostile and valid WebP, GIF, AVIF and HEIC files (format 2.0, issue 18), with verdicts.

Usage: make-hostile-images.py OUTDIR [--large]

--large writes only the GIFs whose decode costs seconds for their size (large_gif_files), which
the tests of the thumbnail paths' CPU bound write during the run instead of committing.

Writes OUTDIR/<type>-<what>.<ext> and OUTDIR/expected.json, which maps each file name to
  {"verdict": "valid" | "refused", "why": one sentence,
   "width": N, "height": N,   (valid files only: the stored header size, before any irot/imir)
   "header": id}              (some refused files: the header reader refuses it, without decoding,
                               with this diagnostic id)

"refused" means a careful reader or decoder must refuse the file or stop within its bounds
(Specs/imagegallery-format.md, sections 5 and 10: 65,535 pixels a side, 10,000 frames, 1,024 grid
tiles, the pixel limits); "valid" means it must be read and decoded.

Python 3 standard library only. The AVIF and HEIC files are rebuilt from the committed samples
in Fixtures/format-2.0 (their boxes parsed into items and properties, then written again with
new offsets), the JPEG carried by heic-primary-jpeg.heic is Fixtures/images/1-sunset.jpg, and
every GIF and the hand-made WebP files are written from scratch (GIF LZW and a VP8L bitstream
of one- and two-symbol prefix codes). Output is deterministic (no randomness, no clock), every
file is under 16 MB, the whole run takes a few seconds, and nothing is written outside OUTDIR.
Fixtures/format-2.0/HOSTILE.md lists the files.
"""

import json
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "Fixtures" / "format-2.0"
SUNSET_JPEG = ROOT / "Fixtures" / "images" / "1-sunset.jpg"
MAX_FILE = 16 * 1024 * 1024


def le16(v): return struct.pack("<H", v)
def le24(v): return struct.pack("<I", v)[:3]
def le32(v): return struct.pack("<I", v)
def be16(v): return struct.pack(">H", v)
def be32(v): return struct.pack(">I", v)
def be64(v): return struct.pack(">Q", v)


class Output:
    def __init__(self, folder):
        self.folder = Path(folder)
        self.expected = {}

    def add(self, name, data, verdict, why, size=None, header_id=None):
        assert name == os.path.basename(name) and not name.startswith(".") and name != "expected.json", name
        assert name not in self.expected, name
        assert verdict in ("valid", "refused") and (size is not None) == (verdict == "valid"), name
        assert len(data) < MAX_FILE, (name, len(data))
        (self.folder / name).write_bytes(bytes(data))
        entry = {"verdict": verdict, "why": why}
        if size is not None:
            entry["width"], entry["height"] = size
        if header_id is not None:
            entry["header"] = header_id
        self.expected[name] = entry

    def finish(self):
        text = json.dumps(self.expected, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        (self.folder / "expected.json").write_text(text, encoding="utf-8")


class BitWriter:
    """Least significant bit first, as both VP8L and GIF's LZW pack their bits."""

    def __init__(self):
        self.out, self.acc, self.count = bytearray(), 0, 0

    def write(self, value, bits):
        assert 0 <= value < (1 << bits)
        self.acc |= value << self.count
        self.count += bits
        while self.count >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.count -= 8

    def bytes(self):
        return bytes(self.out) + (bytes([self.acc]) if self.count else b"")


# ---------------------------------------------------------------------------------------------
# WebP: RIFF chunks and a VP8L encoder for images of at most two values per channel

def chunk(fourcc, payload):
    return fourcc + le32(len(payload)) + payload + (b"\0" if len(payload) % 2 else b"")


def riff(*chunks):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + le32(len(body)) + body


def vp8l(width, height, pixels):
    """A VP8L bitstream. pixels: a list of (a, r, g, b), or one tuple for a uniform image (which
    then costs no bits at all per pixel: every prefix code has a single symbol). No transforms,
    no colour cache, no meta prefix codes; each channel a simple prefix code of one or two symbols."""
    uniform = isinstance(pixels, tuple)
    rows = [pixels] if uniform else pixels
    assert uniform or len(rows) == width * height
    bits = BitWriter()
    bits.write(0x2F, 8)
    bits.write(width - 1, 14)
    bits.write(height - 1, 14)
    bits.write(int(any(p[0] != 255 for p in rows)), 1)   # alpha_is_used (a hint)
    bits.write(0, 3)                                      # version
    bits.write(0, 1)                                      # no transform
    bits.write(0, 1)                                      # no colour cache
    bits.write(0, 1)                                      # no meta prefix codes
    codes = []
    for channel in (2, 1, 3, 0):                          # green, red, blue, alpha
        symbols = sorted({p[channel] for p in rows})
        assert len(symbols) <= 2, "two values per channel at most"
        codes.append((channel, symbols))
        bits.write(1, 1)                                  # simple code
        bits.write(len(symbols) - 1, 1)
        if symbols[0] < 2:
            bits.write(0, 1)
            bits.write(symbols[0], 1)
        else:
            bits.write(1, 1)
            bits.write(symbols[0], 8)
        if len(symbols) == 2:
            bits.write(symbols[1], 8)
    bits.write(1, 1)                                      # distance code: one symbol, 0
    bits.write(0, 1)
    bits.write(0, 1)
    bits.write(0, 1)
    if not uniform:
        for p in rows:                                    # canonical codes: 0 is the smaller symbol
            for channel, symbols in codes:
                if len(symbols) == 2:
                    bits.write(symbols.index(p[channel]), 1)
    return bits.bytes()


def vp8x(flags, width, height):
    return chunk(b"VP8X", bytes([flags, 0, 0, 0]) + le24(width - 1) + le24(height - 1))


def anmf(x, y, width, height, duration, frame_chunks, flags=0):
    assert x % 2 == 0 and y % 2 == 0
    return chunk(b"ANMF", le24(x // 2) + le24(y // 2) + le24(width - 1) + le24(height - 1)
                 + le24(duration) + bytes([flags]) + frame_chunks)


def pattern(width, height, colours, choose):
    return [colours[choose(x, y)] for y in range(height) for x in range(width)]


# ---------------------------------------------------------------------------------------------
# GIF

def lzw(indices, min_size):
    """GIF LZW, as giflib's encoder does it (a clear code first, and again when the table would
    reach 4,095 codes)."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    bits = BitWriter()
    size, next_code, table = min_size + 1, end + 1, {}
    bits.write(clear, size)
    current = indices[0]
    for pixel in indices[1:]:
        key = (current, pixel)
        if key in table:
            current = table[key]
            continue
        bits.write(current, size)
        if next_code >= (1 << size) and size < 12:
            size += 1
        if next_code >= 4095:
            bits.write(clear, size)
            size, next_code, table = min_size + 1, end + 1, {}
        else:
            table[key] = next_code
            next_code += 1
        current = pixel
    bits.write(current, size)
    if next_code >= (1 << size) and size < 12:
        size += 1
    bits.write(end, size)
    return bits.bytes()


def sub_blocks(data, terminate=True):
    out = bytearray()
    for i in range(0, len(data), 255):
        piece = data[i:i + 255]
        out.append(len(piece))
        out += piece
    if terminate:
        out.append(0)
    return bytes(out)


def gif_header(width, height, palette):
    bits = (len(palette) - 1).bit_length() - 1
    assert len(palette) == 2 << bits
    return (b"GIF89a" + le16(width) + le16(height) + bytes([0x80 | (bits << 4) | bits, 0, 0])
            + b"".join(bytes(c) for c in palette))


def gif_gce(delay=0, transparent=None, disposal=0):
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    return b"\x21\xF9\x04" + bytes([flags]) + le16(delay) + bytes([transparent or 0]) + b"\0"


def gif_loop():
    return b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + le16(0) + b"\0"


def gif_image(x, y, width, height, min_size, data, interlaced=False, terminate=True):
    return (b"," + le16(x) + le16(y) + le16(width) + le16(height) + bytes([0x40 if interlaced else 0])
            + bytes([min_size]) + sub_blocks(data, terminate))


def interlace_rows(rows):
    order = list(range(0, len(rows), 8)) + list(range(4, len(rows), 8)) + list(range(2, len(rows), 4)) \
        + list(range(1, len(rows), 2))
    return [rows[i] for i in order]


def lzw_run_cycle(min_size, colour):
    """The codes of one run of a single colour from an empty table until the table is full, and
    the clear code after it, as (code, width) pairs, and the pixels they decode to. A run's
    strings grow by one pixel per code, so one table holds about 8.4 million pixels."""
    clear = 1 << min_size
    first = clear + 2
    codes, size, next_code, length, pixels = [], min_size + 1, first, 1, 0
    while True:
        codes.append((colour if length == 1 else first + length - 2, size))
        pixels += length
        if next_code >= (1 << size) and size < 12:
            size += 1
        if next_code >= 4095:
            codes.append((clear, size))
            return codes, pixels
        next_code += 1
        length += 1


def pack_codes(codes):
    bits = BitWriter()
    for code, width in codes:
        bits.write(code, width)
    return bits


# ---------------------------------------------------------------------------------------------
# ISOBMFF / HEIF: a parser into items and properties, and a writer

CONTAINERS = {b"meta": 4, b"iprp": 0, b"ipco": 0, b"iref": 4, b"dinf": 0}


def walk_boxes(data, start, end):
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[offset + 8:offset + 16])[0], 16
        elif size == 0:
            size = end - offset
        assert size >= header and offset + size <= end, (kind, offset)
        yield kind, offset, header, size
        offset += size


def find_box(data, path):
    """The (offset, header length, size) of the box at path, e.g. [b"meta", b"iprp", b"ipco"]."""
    start, end = 0, len(data)
    for depth, kind in enumerate(path):
        for found, offset, header, size in walk_boxes(data, start, end):
            if found == kind:
                break
        else:
            raise KeyError(path)
        if depth == len(path) - 1:
            return offset, header, size
        start, end = offset + header + CONTAINERS.get(kind, 0), offset + size


def box(kind, payload):
    return be32(8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, bytes([version]) + struct.pack(">I", flags)[1:] + payload)


def ispe(width, height):
    return full_box(b"ispe", 0, 0, be32(width) + be32(height))


class Item:
    def __init__(self, kind, data=b"", props=(), name=b"", hidden=False):
        self.kind, self.data, self.name, self.hidden = kind, data, name, hidden
        self.props = list(props)   # [(property box bytes, essential)]


class Heif:
    def __init__(self, brands, hdlr, primary, items, refs):
        self.brands = brands       # (major, minor, [compatible])
        self.hdlr = hdlr           # the hdlr box, whole
        self.primary = primary
        self.items = items         # {id: Item}
        self.refs = refs           # [(kind, from, [to])]

    def copy(self):
        items = {i: Item(it.kind, it.data, it.props, it.name, it.hidden) for i, it in self.items.items()}
        return Heif((self.brands[0], self.brands[1], list(self.brands[2])), self.hdlr, self.primary, items,
                    [(k, f, list(t)) for k, f, t in self.refs])

    @staticmethod
    def parse(data):
        def uint(at, n):
            return int.from_bytes(data[at:at + n], "big") if n else 0
        top = {kind: (offset, header, size) for kind, offset, header, size in walk_boxes(data, 0, len(data))}
        offset, header, size = top[b"ftyp"]
        body = data[offset + header:offset + size]
        brands = (body[:4], uint(offset + header + 4, 4), [body[i:i + 4] for i in range(8, len(body), 4)])
        m_off, m_header, m_size = top[b"meta"]
        meta = {kind: (offset, header, size)
                for kind, offset, header, size in walk_boxes(data, m_off + m_header + 4, m_off + m_size)}
        hdlr = data[meta[b"hdlr"][0]:meta[b"hdlr"][0] + meta[b"hdlr"][2]]
        primary = uint(meta[b"pitm"][0] + 12, 2)
        items, props, refs = {}, [], []
        offset, header, size = meta[b"iinf"]
        at = offset + header + 4 + (2 if data[offset + header] == 0 else 4)
        for kind, offset, header, size in walk_boxes(data, at, offset + size):
            version, flags = data[offset + header], uint(offset + header + 1, 3)
            assert kind == b"infe" and version == 2
            p = offset + header + 4
            name_end = data.index(b"\0", p + 8, offset + size)
            items[uint(p, 2)] = Item(data[p + 4:p + 8], name=data[p + 8:name_end], hidden=bool(flags & 1))
        offset, header, size = meta[b"iloc"]
        p = offset + header
        version = data[p]
        sizes = data[p + 4] >> 4, data[p + 4] & 15, data[p + 5] >> 4, data[p + 5] & 15
        assert version in (0, 1)
        count, p = uint(p + 6, 2), p + 8
        # Construction method 1 reads from the idat box (heif-enc puts a grid's few bytes
        # there); the data is written back into mdat, where method 0 finds it.
        idat = meta[b"idat"][0] + meta[b"idat"][1] if b"idat" in meta else None
        for _ in range(count):
            item, p = uint(p, 2), p + 2
            method = 0
            if version == 1:
                method, p = uint(p, 2) & 15, p + 2
                assert method == 0 or (method == 1 and idat is not None), "construction method 0 or 1 only"
            p += 2                                      # data_reference_index
            base, p = uint(p, sizes[2]), p + sizes[2]
            base += idat if method == 1 else 0
            extents, p = uint(p, 2), p + 2
            pieces = []
            for _ in range(extents):
                p += sizes[3] if version == 1 else 0
                ext_off, p = uint(p, sizes[0]), p + sizes[0]
                ext_len, p = uint(p, sizes[1]), p + sizes[1]
                pieces.append(data[base + ext_off:base + ext_off + ext_len])
            items[item].data = b"".join(pieces)
        iprp_offset, iprp_header, iprp_size = meta[b"iprp"]
        for kind, offset, header, size in walk_boxes(data, iprp_offset + iprp_header, iprp_offset + iprp_size):
            if kind == b"ipco":
                props = [data[o:o + s] for _, o, _, s in walk_boxes(data, offset + header, offset + size)]
            elif kind == b"ipma":
                p = offset + header
                version, flags = data[p], uint(p + 1, 3)
                count, p = uint(p + 4, 4), p + 8
                for _ in range(count):
                    id_size = 4 if version else 2
                    item, p = uint(p, id_size), p + id_size
                    n, p = data[p], p + 1
                    for _ in range(n):
                        wide = 2 if flags & 1 else 1
                        value, p = uint(p, wide), p + wide
                        top_bit = 1 << (8 * wide - 1)
                        items[item].props.append((props[(value & (top_bit - 1)) - 1], bool(value & top_bit)))
        if b"iref" in meta:
            offset, header, size = meta[b"iref"]
            assert data[offset + header] == 0
            for kind, o, h, s in walk_boxes(data, offset + header + 4, offset + size):
                count = uint(o + h + 2, 2)
                refs.append((kind, uint(o + h, 2), [uint(o + h + 4 + 2 * i, 2) for i in range(count)]))
        return Heif(brands, hdlr, primary, items, refs)

    def build(self, mdat="normal", extra_props=None):
        """The file: ftyp, meta, mdat (mdat "normal", "large" for a 64-bit size, or "zero" for size
        0, to the end of the file). extra_props: ipma entries past the end of ipco,
        {item: [index]}."""
        ftyp = box(b"ftyp", self.brands[0] + be32(self.brands[1]) + b"".join(self.brands[2]))
        ids = sorted(self.items)
        props = []
        for i in ids:
            for prop, _ in self.items[i].props:
                if prop not in props:
                    props.append(prop)

        def meta_box(data_start):
            iloc, offset = bytearray(), data_start
            for i in ids:
                n = len(self.items[i].data)
                iloc += be16(i) + be16(0) + be16(1) + be32(offset) + be32(n)
                offset += n
            iloc = full_box(b"iloc", 0, 0, bytes([0x44, 0x00]) + be16(len(ids)) + iloc)
            infe = b"".join(full_box(b"infe", 2, int(self.items[i].hidden),
                                     be16(i) + be16(0) + self.items[i].kind + self.items[i].name + b"\0")
                            for i in ids)
            iinf = full_box(b"iinf", 0, 0, be16(len(ids)) + infe)
            entries = []
            for i in ids:
                indices = [(props.index(p) + 1, e) for p, e in self.items[i].props]
                indices += [(k, False) for k in (extra_props or {}).get(i, [])]
                if indices:
                    entries.append((i, indices))
            wide = any(k > 127 for _, ind in entries for k, _ in ind)
            ipma = bytearray(be32(len(entries)))
            for i, indices in entries:
                ipma += be16(i) + bytes([len(indices)])
                for k, essential in indices:
                    ipma += be16(k | (0x8000 if essential else 0)) if wide else bytes([k | (0x80 if essential else 0)])
            iprp = box(b"iprp", box(b"ipco", b"".join(props)) + full_box(b"ipma", 0, int(wide), bytes(ipma)))
            iref = b""
            if self.refs:
                iref = full_box(b"iref", 0, 0, b"".join(
                    box(kind, be16(source) + be16(len(targets)) + b"".join(be16(t) for t in targets))
                    for kind, source, targets in self.refs))
            pitm = full_box(b"pitm", 0, 0, be16(self.primary))
            return full_box(b"meta", 0, 0, self.hdlr + pitm + iloc + iinf + iref + iprp)

        payload = b"".join(self.items[i].data for i in ids)
        mdat_header = {"normal": be32(8 + len(payload)) + b"mdat",
                       "large": be32(1) + b"mdat" + be64(16 + len(payload)),
                       "zero": be32(0) + b"mdat"}[mdat]
        size = len(meta_box(0))
        meta = meta_box(len(ftyp) + size + len(mdat_header))
        assert len(meta) == size
        return ftyp + meta + mdat_header + payload


def grid_payload(rows, columns, width, height):
    wide = width > 0xFFFF or height > 0xFFFF
    dims = (be32(width) + be32(height)) if wide else (be16(width) + be16(height))
    return bytes([0, int(wide), rows - 1, columns - 1]) + dims


def patch_size(data, path, size_field):
    """Overwrite the 32-bit size of the box at path."""
    offset, _, _ = find_box(data, path)
    return data[:offset] + be32(size_field) + data[offset + 4:]


# ---------------------------------------------------------------------------------------------

SAMPLE_FILES = [
    # (sample, type, width, height, what it is)
    ("lossy.webp", "webp", 800, 600, "a lossy VP8 still written by cwebp"),
    ("lossless-alpha.webp", "webp", 320, 320, "a lossless VP8L still with alpha (no VP8X), written by cwebp"),
    ("anim.webp", "webp", 400, 300, "a VP8X animation of three lossless frames, written by img2webp"),
    ("b.gif", "gif", 480, 360, "a one-frame GIF written by ImageMagick"),
    ("anim.gif", "gif", 400, 300, "a three-frame GIF with local colour tables, written by gifsicle"),
    ("sunset.avif", "avif", 800, 600, "an av01 primary item written by avifenc"),
    ("bubbles.avif", "avif", 320, 320, "an av01 item with an alpha auxiliary item, written by avifenc"),
    ("rotated.avif", "avif", 800, 600, "an av01 item with irot and imir (stored 800 x 600, shown 600 x 800)"),
    ("grid.avif", "avif", 800, 600, "a 2x2 grid of av01 tiles written by avifenc"),
    ("sunset.heic", "heic", 800, 600, "an hvc1 primary item written by heif-enc"),
    ("bubbles.heic", "heic", 320, 320, "an hvc1 item with an alpha auxiliary item, written by heif-enc"),
]


def header_end(kind, data):
    """Where the bytes a header reader needs for the size end."""
    if kind == "webp":
        first = data[12:16]
        return 20 + {b"VP8 ": 10, b"VP8L": 5, b"VP8X": 10}[first]
    if kind == "gif":
        return 13 + (3 * (2 << (data[10] & 7)) if data[10] & 0x80 else 0)
    offset, header, _ = find_box(data, [b"mdat"])
    return offset + header


def samples_and_truncations(out):
    for sample, kind, width, height, what in SAMPLE_FILES:
        data = (SAMPLES / sample).read_bytes()
        stem, ext = sample.rsplit(".", 1)
        out.add(f"{kind}-{stem}.{ext}", data, "valid", f"Fixtures/format-2.0/{sample} unchanged: {what}.",
                (width, height))
        out.add(f"{kind}-{stem}-trunc-half.{ext}", data[:len(data) // 2], "refused",
                f"{sample} cut to its first {len(data) // 2} of {len(data)} bytes: the image data ends early.")
        cut = header_end(kind, data) + 4
        place = {"webp": "its first chunk's header", "gif": "its logical screen and colour table",
                 "avif": "its meta box and mdat header", "heic": "its meta box and mdat header"}[kind]
        out.add(f"{kind}-{stem}-trunc-header.{ext}", data[:cut], "refused",
                f"{sample} cut 4 bytes past {place} ({cut} bytes): the size reads but the image data is missing.")


def webp_files(out):
    opaque = [(255, 200, 40, 30), (255, 30, 160, 30), (255, 200, 160, 220), (255, 30, 40, 220)]
    still = pattern(64, 48, opaque + [(128, 200, 40, 30), (128, 30, 160, 30), (128, 200, 160, 220),
                                      (128, 30, 40, 220)],
                    lambda x, y: ((x // 8 + y // 8) % 2) + 2 * ((y // 12) % 2) + 4 * (x >= 32))
    out.add("webp-lossless-handmade.webp", riff(chunk(b"VP8L", vp8l(64, 48, still))), "valid",
            "A still lossless VP8L image written by hand (simple prefix codes), 64 x 48, half of it half transparent.",
            (64, 48))
    frames = b"".join(
        anmf(0, 0, 32, 32, 200, chunk(b"VP8L", vp8l(32, 32, pattern(
            32, 32, opaque, lambda x, y, k=k: ((x // 4 + y // 4 + k) % 2) + 2 * (k % 2)))))
        for k in range(3))
    out.add("webp-anim-handmade.webp",
            riff(vp8x(0x02, 32, 32), chunk(b"ANIM", le32(0xFFFFFFFF) + le16(0)), frames), "valid",
            "A VP8X animation written by hand: three 32 x 32 lossless frames filling the canvas.", (32, 32))

    out.add("webp-vp8l-bomb.webp", riff(chunk(b"VP8L", vp8l(16383, 16383, (255, 10, 120, 200)))), "refused",
            "A complete, correct VP8L stream of 16383 x 16383 pixels (268 megapixels, 1 GiB as RGBA) in a few dozen"
            " bytes: every prefix code has one symbol, so a pixel costs no bits.")
    lossy = bytearray((SAMPLES / "lossy.webp").read_bytes())
    assert lossy[12:16] == b"VP8 " and lossy[23:26] == b"\x9d\x01\x2a"
    lossy[26:30] = le16(16383) + le16(16383)
    out.add("webp-vp8-bomb.webp", lossy, "refused",
            "lossy.webp with its VP8 key frame header changed to 16383 x 16383: the frame's data is for 800 x 600.")
    one = chunk(b"VP8L", vp8l(1, 1, (255, 255, 0, 0)))
    out.add("webp-vp8x-canvas-bomb.webp",
            riff(vp8x(0x02, 1 << 24, 1 << 24), chunk(b"ANIM", le32(0) + le16(0)), anmf(0, 0, 1, 1, 100, one)),
            "refused", "A VP8X animation canvas of 16777216 x 16777216 (the 24-bit maximum; 2^48 pixels, past the"
            " spec's 2^32 - 1) with one 1 x 1 frame.")
    out.add("webp-vp8x-canvas-bomb-still.webp", riff(vp8x(0x00, 1 << 24, 1 << 24), one), "refused",
            "A still VP8X canvas of 16777216 x 16777216 whose image is 1 x 1: past every limit, and a still image"
            " must be its canvas's size.")
    small = chunk(b"VP8L", vp8l(16, 16, pattern(16, 16, opaque, lambda x, y: (x + y) % 2)))
    out.add("webp-canvas-larger.webp",
            riff(vp8x(0x02, 16384, 16384), chunk(b"ANIM", le32(0) + le16(0)), anmf(0, 0, 16, 16, 100, small)),
            "refused", "A VP8X animation canvas of 16384 x 16384 (268 megapixels) whose only frame is 16 x 16: the"
            " canvas is past the pixel limit whatever its frames.")
    out.add("webp-frame-outside.webp",
            riff(vp8x(0x02, 16, 16), chunk(b"ANIM", le32(0) + le16(0)), anmf(0, 0, 16, 16, 100, small),
                 anmf(32, 32, 16, 16, 100, small)), "refused",
            "A 16 x 16 animation whose second frame is at (32, 32), wholly outside the canvas.")
    out.add("webp-frame-overhang.webp",
            riff(vp8x(0x02, 16, 16), chunk(b"ANIM", le32(0) + le16(0)), anmf(8, 0, 16, 16, 100, small)),
            "refused", "A 16 x 16 animation whose only frame is at (8, 0) and 16 x 16, so half of it lies past the"
            " canvas's right edge.")


def gif_files(out):
    palette = [(0, 0, 0), (230, 60, 40), (40, 160, 70), (250, 250, 250)]
    w, h = 40, 30
    picture = [[((x // 5) + (y // 5)) % 3 + (1 if (x - 20) ** 2 + (y - 15) ** 2 < 64 else 0) for x in range(w)]
               for y in range(h)]
    flat = [min(v, 3) for row in picture for v in row]
    out.add("gif-transparent-handmade.gif",
            gif_header(w, h, palette) + gif_gce(transparent=0) + gif_image(0, 0, w, h, 2, lzw(flat, 2)) + b";",
            "valid", "A one-frame GIF written by hand whose colour 0 is transparent (a graphic control extension).",
            (w, h))
    rows = [[(x * 4 // w + y // 8) % 4 for x in range(w)] for y in range(h)]
    out.add("gif-interlaced-handmade.gif",
            gif_header(w, h, palette)
            + gif_image(0, 0, w, h, 2, lzw([v for row in interlace_rows(rows) for v in row], 2), interlaced=True)
            + b";", "valid", "An interlaced one-frame GIF written by hand (rows stored in the four passes).", (w, h))
    out.add("gif-1x1.gif", gif_header(1, 1, palette[:2]) + gif_image(0, 0, 1, 1, 2, lzw([1], 2)) + b";",
            "valid", "The smallest GIF: a 1 x 1 logical screen and frame, two colours.", (1, 1))

    out.add("gif-screen-bomb.gif", gif_header(65535, 65535, palette[:2]) + gif_image(0, 0, 1, 1, 2, lzw([1], 2))
            + b";", "refused", "A logical screen of 65535 x 65535 (4.3 gigapixels) holding one 1 x 1 frame.")

    # One run of colour 1 from an empty table to a full one, repeated: each cycle (made a whole
    # number of bytes by clear codes in front) decodes to about 8.4 million pixels.
    codes, pixels = lzw_run_cycle(2, 1)
    lead = [(4, 3)] * next(j for j in range(1, 9) if (3 * j + sum(w for _, w in codes)) % 8 == 0)
    cycle = pack_codes(lead + codes)
    assert cycle.count == 0
    cycle = cycle.bytes()
    repeats = 14_500_000 // len(cycle)
    stream = cycle * repeats + pack_codes([(5, 3)]).bytes()
    out.add("gif-lzw-subblock-bomb.gif",
            gif_header(1, 1, palette[:2]) + gif_image(0, 0, 1, 1, 2, stream) + b";", "valid",
            f"A 1 x 1 frame whose {len(stream) / 1e6:.1f} MB of sub-blocks are one LZW stream decoding to"
            f" {repeats * pixels / 1e9:.0f} gigapixels; it ends properly. Valid and cheap here: the decoder reads"
            " the frame's one pixel and skips the other sub-blocks by their lengths, never decoding them"
            " (as browsers do); a decoder that decodes every code spends minutes.", size=(1, 1))
    endless = pack_codes([(4, 3), (1, 3)] + [(4, 3)] * 6).bytes() + pack_codes([(4, 3)] * 8).bytes() * 350_029
    out.add("gif-lzw-no-end.gif", gif_header(1, 1, palette[:2]) + gif_image(0, 0, 1, 1, 2, endless, terminate=False),
            "refused", "A 1 x 1 frame whose LZW stream never has its end code: after the pixel, 1 MB of clear codes"
            " in full sub-blocks to the end of the file, with no block terminator and no trailer.")

    frame = gif_gce(delay=1) + gif_image(0, 0, 1, 1, 2, lzw([1], 2))
    for count in (100_000, 20_000):
        out.add(f"gif-frames-{count}.gif", gif_header(1, 1, palette[:2]) + gif_loop() + frame * count + b";",
                "refused", f"A looping animation of {count:,} frames of 1 x 1, past the limit of 10,000 frames.")


def single_colour_lzw(pixels):
    """A GIF LZW stream (minimum code size 2) of at least `pixels` pixels of colour 1: runs from
    an empty table to a full one, each decoding to about 8.4 million pixels, then the end code.
    Real LZW data at the best ratio the format allows, so a decoder must work through every
    pixel: nothing in it can be skipped by its length."""
    codes, per_cycle = lzw_run_cycle(2, 1)
    lead = [(4, 3)] * next(j for j in range(1, 9) if (3 * j + sum(w for _, w in codes)) % 8 == 0)
    cycle = pack_codes(lead + codes)
    assert cycle.count == 0
    cycles = -(-pixels // per_cycle)
    return cycle.bytes() * cycles + pack_codes([(4, 3), (5, 3)]).bytes()


def large_gif_files(out):
    """GIFs whose decode is costly for their size (issue 28): over 300 KiB each, so the corpus
    writes them (the galleries of make hostile and of HostileCorpusTests' large run) and
    Fixtures/hostile leaves them out. Not in this script's own output, which HostileImageTests
    decodes whole under the default limits: the 0.99-gigapixel one would take minutes there."""
    palette = [(0, 0, 0), (230, 60, 40)]
    out.add("gif-large-tall-frame.gif",
            gif_header(64, 64, palette) + gif_image(0, 0, 65535, 65535, 2, single_colour_lzw(65535 * 65535)) + b";",
            "refused", "A 64 x 64 logical screen whose first frame declares 65535 x 65535 (4.3 gigapixels) with"
            " real LZW data for every pixel (about 3 MB): its decode is a minute of CPU unless the frame's whole"
            " work is admitted before the first row.")
    for side, what in ((32400, "1.05 gigapixels, past the 1-gigapixel work limit"),
                       (31464, "0.99 gigapixels, within the 1-gigapixel work limit but about 15 s of LZW")):
        out.add(f"gif-large-{side}.gif",
                gif_header(side, side, palette) + gif_image(0, 0, side, side, 2, single_colour_lzw(side * side)) + b";",
                "refused", f"A {side} x {side} one-frame GIF covering its screen ({what}), with real LZW data for"
                " every pixel: a thumbnail path must refuse it by the codec's cost per pixel.")


def set_ispe(heif, item, width, height):
    """HEIF with the ispe property of ITEM saying WIDTH x HEIGHT."""
    heif.items[item].props = [(ispe(width, height), e) if p[4:8] == b"ispe" else (p, e)
                              for p, e in heif.items[item].props]
    return heif


def heif_samples():
    """The committed samples every HEIF case starts from: sunset.avif, grid.avif and sunset.heic parsed,
    and a HEIC grid built by hand, bubbles.heic's colour image (320 x 320, no alpha) as every tile."""
    bubbles_heic = Heif.parse((SAMPLES / "bubbles.heic").read_bytes())
    tile = bubbles_heic.items[1]
    heic_grid = Heif(bubbles_heic.brands, bubbles_heic.hdlr, 1, {
        1: Item(b"grid", grid_payload(2, 2, 640, 640), [(ispe(640, 640), False)]),
        2: Item(b"hvc1", tile.data, tile.props, hidden=True)}, [(b"dimg", 1, [2, 2, 2, 2])])
    return (Heif.parse((SAMPLES / "sunset.avif").read_bytes()), Heif.parse((SAMPLES / "grid.avif").read_bytes()),
            Heif.parse((SAMPLES / "sunset.heic").read_bytes()), heic_grid)


def heif_files(out):
    samples = heif_samples()
    for files in (rewritten_box_files, grid_files, lying_box_size_files, refused_item_type_files,
                  inconsistent_item_files):
        files(out, samples)
    # Last in the list, so that the files before them keep their galleries' bytes.
    contradicted_size_files(out, samples)


def rewritten_box_files(out, samples):
    """Valid files rewritten with other box layouts, and ispe properties that lie about the size."""
    sunset_avif, _, sunset_heic, heic_grid = samples
    out.add("heic-grid-handmade.heic", heic_grid.build(), "valid",
            "A 2x2 HEIC grid written by hand whose four tiles are one 320 x 320 hvc1 item (bubbles.heic's colour"
            " image), 640 x 640.", (640, 640))
    out.add("avif-mdat-largesize.avif", sunset_avif.build(mdat="large"), "valid",
            "sunset.avif rewritten with a 64-bit mdat size (size 1 and a correct largesize).", (800, 600))
    out.add("heic-mdat-size-0.heic", sunset_heic.build(mdat="zero"), "valid",
            "sunset.heic rewritten with mdat, the last box, of size 0 (to the end of the file).", (800, 600))

    for kind, heif, item in (("avif", sunset_avif, 1), ("heic", sunset_heic, 1)):
        for side in (100000, 65535):
            # ispe lies (issue 28): past 65,535 the size is refused as such (IG-BLB-012); within it,
            # the codec's own header (the HEVC SPS, the AV1 sequence header) says 800 x 600.
            out.add(f"{kind}-ispe-{side}.{kind}", set_ispe(heif.copy(), item, side, side).build(), "refused",
                    f"sunset.{kind} whose primary item's ispe says {side} x {side}"
                    + (" (past 65,535 pixels a side)." if side > 65535 else
                       " (4.3 gigapixels, past the pixel limit) while its coded image is 800 x 600 (IG-BLB-019)."),
                    header_id=None if side > 65535 else "IG-BLB-019")
    for side in ((1600, 1200), (400, 300)):
        out.add(f"heic-ispe-{side[0]}x{side[1]}.heic", set_ispe(sunset_heic.copy(), 1, *side).build(), "refused",
                f"sunset.heic whose ispe says {side[0]} x {side[1]} while its HEVC sequence parameter set codes 800 x 600"
                " (IG-BLB-019, found without decoding).", header_id="IG-BLB-019")


def grid_files(out, samples):
    """Grids of thousands of tiles, and dimg loops."""
    _, grid_avif, _, heic_grid = samples
    for kind, base, tile_ids, tile_size in (("avif", grid_avif, [2, 3, 4, 5], (400, 300)),
                                            ("heic", heic_grid, [2], (320, 320))):
        for n, absent in ((100, True), (64, False)):
            heif = base.copy()
            width, height = n * tile_size[0], n * tile_size[1]
            heif.items[1].data = grid_payload(n, n, width, height)
            set_ispe(heif, 1, width, height)
            if absent:
                targets = tile_ids + list(range(max(tile_ids) + 1, max(tile_ids) + 1 + n * n - len(tile_ids)))
                how = f"{len(tile_ids)} present and {n * n - len(tile_ids):,} absent item ids"
            else:
                targets = (tile_ids * (n * n))[:n * n]
                how = f"the {len(tile_ids)} present tile{'s' if len(tile_ids) > 1 else ''} again and again"
            heif.refs = [(b"dimg", 1, targets)]
            out.add(f"{kind}-grid-{n * n}-tiles.{kind}", heif.build(), "refused",
                    f"A {n}x{n} grid of {tile_size[0]} x {tile_size[1]} tiles ({width} x {height}) whose dimg lists"
                    f" {n * n:,} tiles, {how}: past the limit of 1,024 tiles.")
        n = len(base.refs[0][2])
        heif = base.copy()
        heif.refs = [(b"dimg", 1, (tile_ids * 4)[:n - 1] + [1])]
        out.add(f"{kind}-grid-self-ref.{kind}", heif.build(), "refused",
                "A 2x2 grid whose dimg lists the grid item itself as its last tile (a loop).")
        heif = base.copy()
        heif.items[6] = Item(b"grid", heif.items[1].data, heif.items[1].props, hidden=True)
        heif.refs = [(b"dimg", 1, [6] + (tile_ids * 4)[:n - 1]), (b"dimg", 6, [1] + (tile_ids * 4)[:n - 1])]
        out.add(f"{kind}-grid-mutual-ref.{kind}", heif.build(), "refused",
                "Two 2x2 grids, items 1 and 6, each listing the other as its first tile (a loop).")


def lying_box_size_files(out, samples):
    """Box sizes, item locations and properties that lie."""
    sunset_avif, _, sunset_heic, _ = samples
    for kind, heif in (("avif", sunset_avif), ("heic", sunset_heic)):
        good = heif.build()
        out.add(f"{kind}-box-past-eof.{kind}", patch_size(good, [b"meta"], len(good) + 4096), "refused",
                f"sunset.{kind} whose meta box claims {len(good) + 4096} bytes, past the end of the file.")
        if kind == "avif":
            bad, what = patch_size(good, [b"meta", b"iinf"], 4), "its iinf box (inside meta) a size of 4"
        else:
            bad, what = patch_size(good, [b"mdat"], 7), "its mdat box (at the top level) a size of 7"
        out.add(f"{kind}-box-size-small.{kind}", bad, "refused", f"sunset.{kind} giving {what}, less than a box header.")
        large = bytearray(heif.build(mdat="large"))
        offset, _, _ = find_box(bytes(large), [b"mdat"])
        large[offset + 8:offset + 16] = be64(1 << 40)
        out.add(f"{kind}-largesize-past-eof.{kind}", large, "refused",
                f"sunset.{kind} whose mdat has a 64-bit largesize of 2^40 bytes, past the end of the file.")
        out.add(f"{kind}-meta-size-0.{kind}", patch_size(good, [b"meta"], 0), "refused",
                f"sunset.{kind} whose meta box has size 0 (to the end of the file) while mdat follows it.")
        out.add(f"{kind}-ipma-past-ipco.{kind}", heif.build(extra_props={1: [len(heif.items[1].props) + 20]}),
                "refused", f"sunset.{kind} whose ipma gives the primary item property {len(heif.items[1].props) + 20},"
                f" past the {len(heif.items[1].props)} in ipco.")
        bad = heif.copy()
        bad.primary = 7
        out.add(f"{kind}-pitm-absent.{kind}", bad.build(), "refused",
                f"sunset.{kind} whose pitm names item 7, which iinf does not have.")
        bad = bytearray(good)
        offset, header, _ = find_box(good, [b"meta", b"iloc"])
        assert good[offset + header + 8:offset + header + 10] == be16(1)
        bad[offset + header + 18:offset + header + 22] = be32(len(good) * 4)
        out.add(f"{kind}-iloc-past-eof.{kind}", bad, "refused",
                f"sunset.{kind} whose iloc extent for the primary item ends past the end of the file.")
        bad = heif.copy()
        bad.items[1].props = [(p, e) for p, e in bad.items[1].props if p[4:8] != b"ispe"]
        out.add(f"{kind}-no-ispe.{kind}", bad.build(), "refused",
                f"sunset.{kind} without the ispe property HEIF requires, so the header states no size.")


def refused_item_type_files(out, samples):
    """Primary items of types format 2.0 refuses, and brands that contradict the codec."""
    sunset_avif, _, sunset_heic, _ = samples
    neutral = (b"mif1", 0, [b"mif1", b"miaf"])
    jpeg = SUNSET_JPEG.read_bytes()
    heif = Heif(neutral, sunset_heic.hdlr, 1, {1: Item(b"jpeg", jpeg, [(ispe(800, 600), False)])}, [])
    out.add("heic-primary-jpeg.heic", heif.build(), "refused",
            "A HEIF (brands mif1, miaf) whose primary item is of type jpeg, a whole baseline JPEG of 800 x 600:"
            " format 2.0 takes only av01, hvc1 and grid.")
    avcc = box(b"avcC", bytes([1, 66, 0, 30, 0xFF, 0xE0, 0]))
    heif = Heif(neutral, sunset_heic.hdlr, 1, {1: Item(b"avc1", bytes(16), [(avcc, True), (ispe(16, 16), False)])}, [])
    out.add("heic-primary-avc1.heic", heif.build(), "refused",
            "A HEIF whose primary item is of type avc1 (H.264, an empty avcC): format 2.0 takes only av01, hvc1 and grid.")
    rgb = bytes(((x * 32) & 255, (y * 32) & 255, 128) [c] for y in range(8) for x in range(8) for c in range(3))
    uncc = full_box(b"uncC", 1, 0, b"rgb3")
    heif = Heif(neutral, sunset_heic.hdlr, 1, {1: Item(b"unci", rgb, [(uncc, True), (ispe(8, 8), False)])}, [])
    out.add("heic-primary-unci.heic", heif.build(), "refused",
            "A HEIF whose primary item is of type unci (ISO 23001-17 uncompressed, uncC version 1 rgb3, 8 x 8):"
            " format 2.0 takes only av01, hvc1 and grid.")
    heif = sunset_heic.copy()
    heif.brands = (b"avif", 0, [b"avif", b"mif1", b"miaf"])
    out.add("avif-brand-hvc1.avif", heif.build(), "refused",
            "sunset.heic's items under the brands avif, mif1, miaf: an AVIF-branded file whose primary item is hvc1.")
    heif = sunset_avif.copy()
    heif.brands = (b"heic", 0, [b"mif1", b"heic"])
    out.add("heic-brand-av01.heic", heif.build(), "refused",
            "sunset.avif's items under the brands heic, mif1: a HEIC-branded file whose primary item is av01.")


def inconsistent_item_files(out, samples):
    """Items that do not hold together, which the box reader refuses without decoding (IG-BLB-017,
    issue 28): an iloc extent of 4 GiB, a grid short of a tile, an empty irot."""
    sunset_avif, grid_avif, sunset_heic, heic_grid = samples
    for kind, heif in (("avif", sunset_avif), ("heic", sunset_heic)):
        good = heif.build()
        bad = bytearray(good)
        offset, header, _ = find_box(good, [b"meta", b"iloc"])
        assert good[offset + header + 8:offset + header + 10] == be16(1)
        bad[offset + header + 18:offset + header + 22] = be32(0xFFFFFFFF)
        out.add(f"{kind}-iloc-4GiB.{kind}", bad, "refused",
                f"sunset.{kind} whose iloc extent for the primary item is 4 GiB long (0xFFFFFFFF bytes) in a file of"
                f" {len(good)} bytes.", header_id="IG-BLB-017")
    for kind, base, tile_ids in (("avif", grid_avif, [2, 3, 4]), ("heic", heic_grid, [2, 2, 2])):
        heif = base.copy()
        heif.refs = [(b"dimg", 1, tile_ids)]
        out.add(f"{kind}-grid-missing-tile.{kind}", heif.build(), "refused",
                "A 2x2 grid whose dimg lists 3 tiles: the fourth is missing.", header_id="IG-BLB-017")
    heif = Heif.parse((SAMPLES / "rotated.avif").read_bytes())
    heif.items[heif.primary].props = [(box(b"irot", b""), e) if p[4:8] == b"irot" else (p, e)
                                      for p, e in heif.items[heif.primary].props]
    out.add("avif-irot-empty.avif", heif.build(), "refused",
            "rotated.avif whose irot property is empty (a box of 8 bytes, no angle).", header_id="IG-BLB-017")


def contradicted_size_files(out, samples):
    """Declared sizes that the coded image contradicts, and one that real encoders write (IG-BLB-019,
    issue 28)."""
    _, grid_avif, sunset_heic, heic_grid = samples
    out.add("heic-ispe-padded.heic", set_ispe(sunset_heic.copy(), 1, 799, 599).build(), "valid",
            "sunset.heic whose ispe says 799 x 599: an odd size that a 4:2:0 picture cannot crop to, so its 800 x 600"
            " picture is the encoder's padding of one column and row, which a decoder leaves out.", (799, 599))
    heif = set_ispe(grid_avif.copy(), 1, 65535, 65535)
    out.add("avif-grid-ispe-lie.avif", heif.build(), "refused",
            "grid.avif whose grid item's ispe says 65535 x 65535 while its grid description gives 800 x 600.",
            header_id="IG-BLB-019")
    heif = heic_grid.copy()
    heif.items[1].data = grid_payload(2, 2, 4000, 4000)
    set_ispe(heif, 1, 4000, 4000)
    out.add("heic-grid-tiles-short.heic", heif.build(), "refused",
            "A 2x2 grid of 320 x 320 hvc1 tiles whose description and ispe both say 4000 x 4000: the tiles cover"
            " 640 x 640.", header_id="IG-BLB-019")
    one = chunk(b"VP8L", vp8l(1, 1, (255, 255, 0, 0)))
    out.add("webp-anmf-lie.webp",
            riff(vp8x(0x02, 4096, 4096), chunk(b"ANIM", le32(0) + le16(0)), anmf(0, 0, 4096, 4096, 100, one)),
            "refused", "A 4096 x 4096 animation whose only frame's ANMF chunk says 4096 x 4096 over a 1 x 1 VP8L"
            " bitstream.", header_id="IG-BLB-019")
    out.add("webp-canvas-lie.webp", riff(vp8x(0x00, 4096, 4096), one), "refused",
            "A still VP8X canvas of 4096 x 4096 over a 1 x 1 VP8L image: a still image is its canvas's size.",
            header_id="IG-BLB-019")


def main(argv):
    args = [a for a in argv[1:] if a != "--large"]
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit(__doc__.split("\n\n")[1])
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    out = Output(folder)
    if "--large" in argv:
        large_gif_files(out)
    else:
        samples_and_truncations(out)
        webp_files(out)
        gif_files(out)
        heif_files(out)
    out.finish()
    valid = sum(1 for e in out.expected.values() if e["verdict"] == "valid")
    print(f"{len(out.expected)} files ({valid} valid, {len(out.expected) - valid} refused) in {folder}")


if __name__ == "__main__":
    main(sys.argv)
