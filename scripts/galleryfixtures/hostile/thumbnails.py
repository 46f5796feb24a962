"""Family t- (and d-thumb-): thumbnail.png (7): missing, not a PNG, damaged header, bit depth,
interlacing and size rules, and with --deep damaged pixel data."""

import random
import zlib

from ..png import PNG_SIG, ihdr, png_chunk
from ..zipwriting import DIRMODE, E, build
from .gallery import base, placeholder
from .images import gif_bytes, make_jpeg, make_png, png_raw, zlib_zeros
from .output import U, V, X, want


def fam_thumbs():
    F = "thumbnail"

    def T(name, thumb, cat, ids, note, q=False, deep=False, kind="X", tmethod=0, entries_fn=None):
        if not want(q):
            return
        gg = base()
        gg.thumb = thumb
        es = gg.entries(tmethod=tmethod)
        if entries_fn:
            es = entries_fn(es)
        data = build(es, gg.dt())
        fam = "deep" if deep else F
        if kind == "V":
            V(name, data, note, deep=deep, family=fam, q=True)
        elif kind == "U":
            U(name, data, note, deep=deep, family=fam, q=True)
        else:
            X(name, data, cat, ids, note, deep=deep, family=fam, q=True)

    ok = placeholder(256, 192)
    T("t-missing", ok, "THM", ["IG-THM-001"], "no thumbnail.png", q=True,
      entries_fn=lambda es: [e for e in es if e.name != b"thumbnail.png"])
    T("t-directory-only", ok, "THM", ["IG-THM-001"], "thumbnail.png/ is a directory entry; no thumbnail file",
      entries_fn=lambda es: [e if e.name != b"thumbnail.png" else E("thumbnail.png/", b"", 0, c_eattr=DIRMODE) for e in es])
    for nm, b, q in [("16bit-rgb", make_png(256, 192, 16, 2, fill=90), True), ("16bit-gray", make_png(64, 48, 16, 0, fill=1), False),
                     ("1bit-gray", make_png(256, 192, 1, 0, fill=0), False), ("2bit-gray", make_png(64, 48, 2, 0, fill=0), False),
                     ("4bit-palette", make_png(64, 48, 4, 3, seed=5), False)]:
        T(f"t-{nm}", b, "THM", ["IG-THM-003"], f"thumbnail {nm}: bit depth not 8", q=q)
    T("t-16bit-deflated", make_png(64, 48, 16, 2, fill=9), "THM", ["IG-THM-003"], "16-bit thumbnail stored DEFLATED",
      tmethod=8)
    T("t-interlaced", make_png(256, 192, 8, 2, 1, fill=128), "THM", ["IG-THM-004"], "Adam7-interlaced thumbnail", q=True)
    for nm, w, h, q in [("1025x1", 1025, 1, False), ("5000x5000", 5000, 5000, True), ("1x1025", 1, 1025, False),
                        ("1025x1025", 1025, 1025, False)]:
        T(f"t-{nm}", make_png(w, h, 8, 0, fill=0), "THM", ["IG-THM-005"], f"thumbnail {w}x{h} (limit 1024)", q=q)
    T("t-width-2^31-1", PNG_SIG + ihdr(2147483647, 1, 8, 0) + png_chunk(b"IDAT", zlib.compress(bytes(100))) + png_chunk(b"IEND", b""),
      "THM", ["IG-THM-005"], "thumbnail IHDR 2147483647x1")
    T("t-width-0", PNG_SIG + ihdr(0, 192) + png_chunk(b"IDAT", zlib.compress(bytes(100))) + png_chunk(b"IEND", b""),
      "THM", ["IG-THM-005", "IG-THM-006"], "thumbnail IHDR width 0 (longer side must be 1..1024)")
    for nm, b, ids, q in [("jpeg", make_jpeg(64, 48, 1), ["IG-THM-002"], True), ("text", b"not a png\n", ["IG-THM-002"], False),
                          ("gif", gif_bytes(), ["IG-THM-002"], False), ("empty", b"", ["IG-THM-002", "IG-THM-006"], False),
                          ("sig-only", PNG_SIG, ["IG-THM-006"], False),
                          ("no-ihdr", PNG_SIG + png_chunk(b"IEND", b""), ["IG-THM-006"], True),
                          ("ihdr-truncated", PNG_SIG + ihdr(256, 192)[:20], ["IG-THM-006"], False),
                          ("ihdr-short", PNG_SIG + png_chunk(b"IHDR", bytes(8)) + png_chunk(b"IEND", b""), ["IG-THM-006"], False),
                          ("ihdr-not-first", PNG_SIG + png_chunk(b"tEXt", b"k\x00v") + ok[8:], ["IG-THM-006"], False),
                          ("ihdr-bad-crc", PNG_SIG + ihdr(256, 192)[:-4] + b"\x00\x00\x00\x00" + ok[33:], ["IG-THM-006"], False),
                          ("png-sig-lowercase", b"\x89png\r\n\x1a\n" + ok[8:], ["IG-THM-002"], False)]:
        note = f"thumbnail {nm}"
        if nm == "ihdr-bad-crc":
            note += ": a damaged IHDR (THM-006); arguable, its fields are intact"
        T(f"t-{nm}", b, "THM", ids, note, q=q)
    # deep: pixel data of the thumbnail
    raw = png_raw(256, 192, 8, 2, 0, None, 128)
    z = zlib.compress(raw, 6)
    hdr = PNG_SIG + ihdr(256, 192)
    T("d-thumb-truncated-idat", hdr + png_chunk(b"IDAT", z[:len(z) // 2]) + png_chunk(b"IEND", b""), "THM",
      ["IG-THM-007"], "thumbnail IDAT stream cut in half", deep=True, q=True)
    T("d-thumb-bad-idat-crc", hdr + png_chunk(b"IDAT", z, crc=1) + png_chunk(b"IEND", b""), "THM", ["IG-THM-007"],
      "thumbnail IDAT CRC wrong", deep=True)
    T("d-thumb-garbage-idat", hdr + png_chunk(b"IDAT", random.Random(7).randbytes(len(z))) + png_chunk(b"IEND", b""),
      "THM", ["IG-THM-007"], "thumbnail IDAT is random bytes", deep=True)
    T("d-thumb-valid-1024", make_png(1024, 1024, 8, 6, fill=200), None, [], "a correct 1024x1024 RGBA thumbnail, --deep",
      deep=True, kind="V")
    if want(False):
        bomb = png_chunk(b"zTXt", b"b\x00\x00" + zlib_zeros(100 << 20))
        T("d-thumb-ztxt-bomb", make_png(256, 192, 8, 2, fill=128, before=(bomb,)), None, [],
          "a thumbnail with a zTXt chunk inflating to 100 MiB, --deep: skipped unread, valid", deep=True, kind="V")
