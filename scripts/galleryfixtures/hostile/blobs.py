"""Families b- and d-: blobs against the manifest (5), and pixel decoding with --deep (decompression
bombs, truncated and garbage images, CPU bombs, big but correct images)."""

import hashlib
import random
import struct
import zlib

from ..compression import crc32, deflate
from ..png import PNG_SIG, ihdr, png_chunk
from . import output
from .gallery import G, std_image, uuid4
from .images import (gif_bytes, jpeg_join, jpeg_set_dims, jpeg_split, make_jpeg, make_png, png_raw, png_zero_big,
                     webp_bytes, zlib_zeros)
from .output import U, V, X, want


def png_with(w, h, seed, depth=8, ctype=2, raw=None, mutate_z=None, chunks_fn=None, filt=0):
    """A PNG whose IDAT stream (zlib bytes) or chunk list can be altered; the header stays right."""
    rng = random.Random(f"pw:{seed}")
    if raw is None:
        raw = png_raw(w, h, depth, ctype, 0, rng, filt=filt)
    z = zlib.compress(raw, 6)
    if mutate_z:
        z = mutate_z(z)
    chunks = [(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))]
    if ctype == 3:
        chunks.append((b"PLTE", rng.randbytes(3 << depth)))
    chunks += [(b"IDAT", z), (b"IEND", b"")]
    if chunks_fn:
        chunks = chunks_fn(chunks)
    out = [PNG_SIG]
    for c in chunks:
        if len(c) == 2:
            out.append(png_chunk(c[0], c[1]))
        else:
            out.append(c[2])   # a raw, pre-built chunk
    return b"".join(out)


def progressive_many_scans(w, h, nscans, ahal=0x00):
    """A grayscale progressive JPEG followed by `nscans` repeated AC scans (Ss=1, Se=63, Ah/Al
    from `ahal`) that each cover every block with EOB runs (a minimal-size scan), before EOI.
    ahal=0x00 repeats first scans, which T.81 forbids but libjpeg accepts without a warning;
    ahal=0x10 makes them refinement scans of bits never coded: a 'bogus progression' warning."""
    b = make_jpeg(w, h, 40, mode="L", progressive=True, smooth=True)
    assert b.endswith(b"\xff\xd9")
    body = b[:-2]
    # AC table 1: one symbol 0xE0 (EOB run of 2^14 + 14 extra bits) with the 1-bit code '0'
    dht = b"\xff\xc4" + struct.pack(">H", 2 + 17 + 1) + b"\x11" + bytes([1] + [0] * 15) + b"\xe0"
    blocks = ((w + 7) // 8) * ((h + 7) // 8)
    bits = ""
    left = blocks
    while left > 0:
        run = min(left, 32767)
        if run >= 16384:
            bits += "0" + format(run - 16384, "014b")
            left -= run
        else:
            # smaller runs need other symbols; pad with a full 16384 run (over-long runs are tolerated)
            bits += "0" + format(0, "014b")
            left -= 16384
    bits += "1" * (-len(bits) % 8)
    scan = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)).replace(b"\xff", b"\xff\x00")
    sos = b"\xff\xda" + struct.pack(">HB", 8, 1) + b"\x01\x01" + b"\x01\x3f" + bytes([ahal])
    return body + dht + (sos + scan) * nscans + b"\xff\xd9"


F = "blob"


def B(name, cat, ids, note, add_fn, q=False, deep=False, bmethod=0, kind="X", **more):
    """The file NAME: a gallery of the image `add_fn` adds, invalid (kind X, category CAT), valid (V) or
    open (U), in family deep when DEEP."""
    if not want(q):
        return
    gg = G(f"img-{name}", ("j1",))
    add_fn(gg)
    data = gg.zip(bmethod=bmethod)
    fam = "deep" if deep else F
    if kind == "V":
        V(name, data, note, deep=deep, family=fam, q=True, **more)
    elif kind == "U":
        U(name, data, note, deep=deep, family=fam, q=True, **more)
    else:
        X(name, data, cat, ids, note, deep=deep, family=fam, q=True, **more)


def dpng(name, note, q=False, kind="X", ids=("IG-BLB-008",), w=64, h=48, **kw):
    """A --deep case of a PNG that png_with makes with KW (invalid, IG-BLB-008, unless told)."""
    b = png_with(w, h, name, **kw)
    B(name, "BLB" if kind == "X" else None, list(ids) if kind == "X" else [], note,
      lambda gg: gg.add(b, "image/png", w, h), q=q, deep=True, kind=kind)


def djpeg(name, note, b, w, h, q=False, kind="X"):
    """A --deep case of the JPEG B (invalid, IG-BLB-008, unless told)."""
    B(name, "BLB" if kind == "X" else None, ["IG-BLB-008"] if kind == "X" else [], note,
      lambda gg: gg.add(b, "image/jpeg", w, h), q=q, deep=True, kind=kind)


def fam_blobs():
    for cases in (blob_reference_cases, unreadable_header_cases, header_only_cases, png_pixel_cases,
                  big_image_cases, jpeg_pixel_cases):
        cases()


def blob_reference_cases():
    """Blobs that are missing, or disagree with their image record: digest, size, media type, dimensions (5)."""
    p1 = std_image("p1")
    j2 = std_image("j2")
    B("b-blob-missing", "BLB", ["IG-BLB-001"], "an image whose blob is not in the container",
      lambda gg: gg.add(*p1, store=False), q=True)

    def sha_mismatch(gg):
        real = p1[0]
        fake = bytearray(real)
        fake[len(fake) // 2] ^= 0x55
        im = gg.add(*p1, store=False)
        gg.blobs[im["path"]] = bytes(fake)
    B("b-sha-mismatch", "BLB", ["IG-BLB-003"], "blob bytes differ from sha256 (same length, header intact)",
      sha_mismatch, q=True)
    B("b-size-mismatch", "BLB", ["IG-BLB-004"], "byteSize is one more than the blob's length",
      lambda gg: gg.add(*p1, byteSize=len(p1[0]) + 1), q=True)

    def sha_of_compressed(gg):
        comp = deflate(p1[0])
        sha = hashlib.sha256(comp).hexdigest()
        gg.m["images"].append(dict(id=uuid4(gg.rng), path=f"images/{sha}.png", mediaType="image/png", width=40,
                                   height=30, byteSize=len(p1[0]), sha256=sha))
        gg.blobs[f"images/{sha}.png"] = p1[0]
    B("b-sha-of-compressed-bytes", "BLB", ["IG-BLB-003"],
      "a deflated blob whose sha256 is that of its compressed bytes (5: digest of the uncompressed data)",
      sha_of_compressed, bmethod=8)
    B("b-png-as-jpeg", "BLB", ["IG-BLB-005"], "a PNG blob declared image/jpeg (.jpg)",
      lambda gg: gg.add(p1[0], "image/jpeg", 40, 30), q=True)
    B("b-jpeg-as-png", "BLB", ["IG-BLB-005"], "a JPEG blob declared image/png (.png)",
      lambda gg: gg.add(j2[0], "image/png", 33, 17))
    B("b-gif-as-png", "BLB", ["IG-BLB-005", "IG-BLB-007"], "a GIF declared image/png",
      lambda gg: gg.add(gif_bytes(), "image/png", 1, 1))
    B("b-webp-as-jpeg", "BLB", ["IG-BLB-005", "IG-BLB-007"], "a WebP declared image/jpeg",
      lambda gg: gg.add(webp_bytes(), "image/jpeg", 1, 1))
    B("b-width-mismatch-png", "BLB", ["IG-BLB-006"], "PNG IHDR 40 wide, manifest 41",
      lambda gg: gg.add(p1[0], "image/png", 41, 30), q=True)
    B("b-height-mismatch-jpeg", "BLB", ["IG-BLB-006"], "JPEG frame 17 high, manifest 18",
      lambda gg: gg.add(j2[0], "image/jpeg", 33, 18), q=True)
    B("b-exif-rotated-dims-swapped", "BLB", ["IG-BLB-006"],
      "Exif orientation 6 and the manifest gives the displayed 32x48 instead of the frame's 48x32 (5)",
      lambda gg: gg.add(make_jpeg(48, 32, 11, orient=6), "image/jpeg", 32, 48))
    B("b-shared-blob-inconsistent", "BLB", ["IG-BLB-006"], "two images list one blob; the second says width 65",
      lambda gg: gg.add(*std_image("j1")[:2], 65, 48))


def unreadable_header_cases():
    """PNG and JPEG blobs whose header cannot be read (5)."""
    p1 = std_image("p1")
    bad_pngs = [("sig-only", PNG_SIG, 1, 1, True),
                ("no-ihdr", PNG_SIG + png_chunk(b"IEND", b""), 1, 1, False),
                ("ihdr-short", PNG_SIG + png_chunk(b"IHDR", struct.pack(">IIBBBB", 40, 30, 8, 2, 0, 0)) + png_chunk(b"IEND", b""), 40, 30, False),
                ("ihdr-truncated", PNG_SIG + ihdr(40, 30)[:15], 40, 30, False),
                ("ihdr-not-first", PNG_SIG + png_chunk(b"tEXt", b"a\x00b") + p1[0][8:], 40, 30, False),
                ("ihdr-bad-crc", PNG_SIG + ihdr(40, 30)[:-4] + b"\x00\x00\x00\x00" + p1[0][8 + 25:], 40, 30, False),
                ("ihdr-width-0", PNG_SIG + ihdr(0, 30) + p1[0][8 + 25:], 1, 30, False),
                ("ihdr-bad-depth", PNG_SIG + ihdr(40, 30, 7, 2) + p1[0][8 + 25:], 40, 30, False),
                ("ihdr-bad-colour-type", PNG_SIG + ihdr(40, 30, 8, 5) + p1[0][8 + 25:], 40, 30, False),
                ("ihdr-width-2^31", PNG_SIG + ihdr(2 ** 31, 1) + p1[0][8 + 25:], 2147483647, 1, False)]
    for nm, b, w, h, q in bad_pngs:
        ids = ["IG-BLB-007"] + (["IG-BLB-006"] if nm in ("ihdr-width-0", "ihdr-width-2^31") else [])
        note = f"PNG blob: {nm} (its header cannot be read, 5)"
        if nm == "ihdr-bad-crc":
            note += "; arguable: the IHDR fields are intact, only its CRC is wrong"
        B(f"b-png-{nm.replace('^', '')}", "BLB", ids, note, lambda gg, b=b, w=w, h=h: gg.add(b, "image/png", w, h), q=q)
    segs, rest = jpeg_split(make_jpeg(64, 48, 1))
    nosof = jpeg_join([s for s in segs if s[0] not in (0xC0, 0xC4, 0xDA)], b"\xff\xd9")
    sof = [p for m, p in segs if m == 0xC0][0]
    bad_jpegs = [("no-sof", nosof, True), ("soi-only", b"\xff\xd8\xff", False),
                 ("segment-past-end", b"\xff\xd8\xff\xe1\xff\xff" + b"Exif\x00\x00" + bytes(100), False),
                 ("segment-length-1", b"\xff\xd8\xff\xe0\x00\x01" + bytes(50) + b"\xff\xc0\x00\x11" + sof[:15], False),
                 ("sof-truncated", b"\xff\xd8\xff\xc0\x00\x11\x08\x00", False),
                 ("eoi-before-sof", b"\xff\xd8\xff\xd9" + jpeg_join(segs, rest)[2:], False),
                 ("not-a-marker", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"garbage" * 10, False)]
    for nm, b, q in bad_jpegs:
        B(f"b-jpeg-{nm}", "BLB", ["IG-BLB-007"], f"JPEG blob: {nm} (its header cannot be read, 5)",
          lambda gg, b=b: gg.add(b, "image/jpeg", 64, 48), q=q)
    B("b-jpeg-sof-height-0", "BLB", ["IG-BLB-006", "IG-BLB-007"],
      "JPEG frame header with height 0 (DNL-style), manifest height 48",
      lambda gg: gg.add(jpeg_set_dims(make_jpeg(64, 48, 1), 64, 0), "image/jpeg", 64, 48))


def header_only_cases():
    """Consistent headers over too few pixels: valid without --deep, past the pixel budget with it."""
    hj = jpeg_set_dims(make_jpeg(16, 16, 41), 65500, 65500)
    B("b-jpeg-65500x65500-header-only", None, [], "JPEG frame 65500x65500 with 16x16 worth of data; header, size, "
      "hash consistent: conforming without --deep (5 checks the header only)",
      lambda gg: gg.add(hj, "image/jpeg", 65500, 65500), kind="V", q=True)
    B("d-jpeg-65500x65500", None, [], "JPEG frame 65500x65500 with 16x16 of data, --deep: past the pixel budget, "
      "checked from the header before any decode: IG-BLB-009, a warning (format 10, 11; validation-report --deep)",
      lambda gg: gg.add(hj, "image/jpeg", 65500, 65500), kind="V", deep=True, q=True)
    hp = png_with(50000, 50000, "hp", depth=1, ctype=0, raw=bytes(6251 * 20))
    B("b-png-50000x50000-1bit-header-only", None, [], "PNG IHDR 1-bit 50000x50000 with 20 rows of data; conforming "
      "without --deep", lambda gg: gg.add(hp, "image/png", 50000, 50000), kind="V")
    B("d-png-50000x50000-1bit-truncated", None, [], "PNG 1-bit 50000x50000 with 20 rows of data, --deep: past the "
      "pixel budget, not decoded: IG-BLB-009 warning (validation-report --deep: limits before any decode)",
      lambda gg: gg.add(hp, "image/png", 50000, 50000), kind="V", deep=True)


def png_pixel_cases():
    """PNGs whose header is right and whose pixel data is not, or is costly to reach (--deep)."""
    dpng("d-png-truncated-idat", "IDAT zlib stream cut in half (chunk CRC right)", q=True,
         mutate_z=lambda z: z[:len(z) // 2])
    dpng("d-png-bad-idat-crc", "IDAT chunk CRC wrong", q=True,
         chunks_fn=lambda cs: [c if c[0] != b"IDAT" else (c[0], c[1], png_chunk(b"IDAT", c[1], crc=crc32(b"IDAT" + c[1]) ^ 1)) for c in cs])
    dpng("d-png-bad-adler32", "zlib Adler-32 of the IDAT stream wrong (diagnostics BLB-008 names the Adler-32)",
         mutate_z=lambda z: z[:-4] + bytes(b ^ 0xFF for b in z[-4:]))
    dpng("d-png-too-little-data", "IDAT holds a complete zlib stream of only half the rows",
         raw=png_raw(64, 24, 8, 2, 0, random.Random(1)))
    dpng("d-png-too-much-data", "IDAT holds 1000 bytes more than the image needs: libpng's sequential reader "
         "raises the benign error 'Too much image data', the progressive one a warning 'Extra compressed data' "
         "that does not touch the pixels: verdict open (validation-report --deep)",
         kind="U", raw=png_raw(64, 48, 8, 2, 0, random.Random(2)) + bytes(1000))
    dpng("d-png-bad-filter-type", "every row uses filter type 5 (undefined)", filt=5)
    dpng("d-png-missing-iend", "no IEND chunk; all rows present: a truncated PNG (BLB-008 'truncated')",
         chunks_fn=lambda cs: [c for c in cs if c[0] != b"IEND"])
    # The chunk walk to the first IDAT finds these two without decoding (IG-BLB-018, issue 28).
    dpng("d-png-huge-chunk-length", "an ancillary chunk declares length 0x7FFFFFFF before IDAT (file ends first)",
         ids=("IG-BLB-018", "IG-BLB-008"), chunks_fn=lambda cs: cs[:1] + [(b"tEXt", b"", struct.pack(">I", 0x7FFFFFFF) + b"tEXtkey\x00value")] + cs[1:])
    dpng("d-png-chunk-length-over-2^31", "a chunk length 0xFFFFFFF0 (over the PNG maximum 2^31-1)",
         ids=("IG-BLB-018", "IG-BLB-008"), chunks_fn=lambda cs: cs[:1] + [(b"zzZz", b"", struct.pack(">I", 0xFFFFFFF0) + b"zzZz" + bytes(8))] + cs[1:])
    dpng("d-png-idat-garbage", "IDAT holds random bytes", mutate_z=lambda z: random.Random(3).randbytes(len(z)))
    dpng("d-png-valid-many-empty-idats", "5000 zero-length IDAT chunks before the real one: a correct PNG",
         kind="V", chunks_fn=lambda cs: cs[:1] + [(b"IDAT", b"")] * 5000 + cs[1:])
    if want(False):
        bombsz = 100 << 20
        zb = zlib_zeros(bombsz)
        dpng("d-png-ztxt-bomb", "a zTXt chunk inflating to 100 MiB: the image is fine; ancillary chunks are "
             "skipped unread (validation-report --deep)", kind="V", chunks_fn=lambda cs: cs[:1] + [(b"zTXt", b"bomb\x00\x00" + zb)] + cs[1:])
        dpng("d-png-itxt-bomb", "a compressed iTXt chunk inflating to 100 MiB: skipped unread, image fine", kind="V",
             chunks_fn=lambda cs: cs[:1] + [(b"iTXt", b"bomb\x00\x01\x00\x00\x00" + zb)] + cs[1:])
        dpng("d-png-iccp-bomb", "an iCCP profile inflating to 100 MiB: skipped unread, image fine", kind="V",
             chunks_fn=lambda cs: cs[:1] + [(b"iCCP", b"icc\x00\x00" + zb)] + cs[1:])
        dpng("d-png-10000-text-chunks", "10,000 tEXt chunks (CRCs right): skipped unread, image fine", kind="V",
             chunks_fn=lambda cs: cs[:1] + [(b"tEXt", b"k\x00v")] * 10000 + cs[1:])
        dpng("d-png-valid-16bit-rgba", "16-bit RGBA", kind="V", depth=16, ctype=6)
        dpng("d-png-valid-1bit-gray", "1-bit gray", kind="V", depth=1, ctype=0)
        dpng("d-png-valid-palette", "4-bit palette", kind="V", depth=4, ctype=3)
        B("d-png-valid-interlaced", None, [], "Adam7 interlaced blob, correct",
          lambda gg: gg.add(make_png(33, 17, 8, 2, 1, seed=23), "image/png", 33, 17), deep=True, kind="V")


def big_image_cases():
    """Big but correct images: decoded within limits or IG-BLB-009 (a warning); never more than 100 MB."""
    side = 20000 if output.QUICK else 50000
    big1 = png_zero_big(side, side, 1, 0)
    B(f"d-png-{side}x{side}-1bit-correct", None, [], f"a correct all-black {side}x{side} 1-bit PNG ({len(big1)} bytes): "
      "past the default pixel budget: BLB-009 (warning) or decoded in bounded memory", lambda gg: gg.add(big1, "image/png", side, side),
      deep=True, kind="V", q=True)
    if want(False):
        b1e8 = png_zero_big(10000, 10000, 1, 0)
        B("d-png-10000x10000-1bit-correct", None, [], "a correct 10000x10000 1-bit PNG: exactly 1e8 pixels (the default budget)",
          lambda gg: gg.add(b1e8, "image/png", 10000, 10000), deep=True, kind="V")
    rs = 3000 if output.QUICK else 8000
    brgba = png_zero_big(rs, rs, 8, 6)
    B(f"d-png-{rs}x{rs}-rgba-correct", None, [], f"a correct {rs}x{rs} RGBA PNG ({rs * rs * 4 >> 20} MiB decoded)",
      lambda gg: gg.add(brgba, "image/png", rs, rs), deep=True, kind="V", q=True)


def jpeg_pixel_cases():
    """JPEGs whose header is right and whose scans are damaged or costly (--deep)."""
    jb = make_jpeg(64, 48, 42)
    djpeg("d-jpeg-truncated", "JPEG cut at 60% (no EOI)", jb[:len(jb) * 6 // 10], 64, 48, q=True)
    segs, rest = jpeg_split(jb)
    rng = random.Random("garbage")
    garbage = rng.randbytes(len(rest) - 2).replace(b"\xff", b"\xff\x00")
    djpeg("d-jpeg-garbage-entropy", "entropy-coded data replaced by random bytes (byte-stuffed), EOI kept",
          jpeg_join(segs, garbage + b"\xff\xd9"), 64, 48)
    garbage2 = rng.randbytes(len(rest))
    djpeg("d-jpeg-garbage-after-sos", "random bytes (with stray markers) after SOS, EOI kept",
          jpeg_join(segs, garbage2 + b"\xff\xd9"), 64, 48, q=True)
    djpeg("d-jpeg-no-eoi", "complete scan, EOI missing: libjpeg warns 'premature end' (12: stop on any warning); "
          "arguable", jb[:-2], 64, 48)
    djpeg("d-jpeg-frame-larger-than-data", "frame header 2000x2000 (4 Mpx, within budget) with 64x48 of data",
          jpeg_set_dims(jb, 2000, 2000), 2000, 2000)
    nsc = 600 if output.QUICK else 5000
    djpeg(f"d-jpeg-progressive-{nsc}-repeated-scans", f"progressive 2048x2048 JPEG followed by {nsc} repeated AC "
          "first scans of the whole image (a CPU DoS if decoded without a scan limit): more than 500 scans, "
          "IG-BLB-009 warning, not decoded (diagnostics BLB-009, validation-report --deep)",
          progressive_many_scans(2048, 2048, nsc, 0x00), 2048, 2048, q=True, kind="V")
    djpeg("d-jpeg-progressive-400-bogus-refinement", "progressive 2048x2048 JPEG followed by 400 refinement scans "
          "of bits never coded: libjpeg warns 'Inconsistent progression sequence' (12: stop on any decoder warning)",
          progressive_many_scans(2048, 2048, 400, 0x10), 2048, 2048, q=True)
    if want(False):
        djpeg("d-jpeg-valid-cmyk", "a correct 4-component (CMYK, Adobe) JPEG", make_jpeg(25, 19, 8, mode="CMYK"), 25, 19,
              kind="V")
        djpeg("d-jpeg-valid-gray", "a correct grayscale JPEG", make_jpeg(31, 23, 7, mode="L"), 31, 23, kind="V")
        djpeg("d-jpeg-valid-progressive", "a correct progressive JPEG", make_jpeg(20, 30, 3, progressive=True), 20, 30,
              kind="V")
        djpeg("d-jpeg-valid-exif-rotated", "a correct JPEG with Exif orientation 6", make_jpeg(48, 32, 11, orient=6),
              48, 32, kind="V")
