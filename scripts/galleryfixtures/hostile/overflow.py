"""Family o-: values at the edges of 16-, 32- and 64-bit arithmetic, in ZIP records, image headers
and manifest integers."""

import struct
import zlib

from ..png import PNG_SIG, ihdr, png_chunk
from ..zipwriting import DIRMODE, E, build
from .gallery import R, base, base_with_thumbnail, raw_subst, setp
from .images import jpeg_set_dims, make_jpeg
from .output import U, V, X, want


F = "overflow"
M64 = (1 << 64) - 1


def case_writer(g):
    """Z(name, entries, ids, note, q=False, cat="PKG", **build options): the file NAME, the archive of
    ENTRIES with G's dates, when the run wants it (q: the quick corpus does too)."""
    def Z(name, entries, ids, note, q=False, cat="PKG", **bkw):
        if want(q):
            X(name, build(entries, g.dt(), **bkw), cat, ids, note, family=F, q=True)
    return Z


def fam_overflow():
    """Values at the edges of 16-, 32- and 64-bit arithmetic, where sums and products overflow."""
    g = base()
    zip64_entry_cases(g)
    record_field_cases(g)
    image_header_cases()
    manifest_integer_cases()
    entry_count_cases(g)


def zip64_entry_cases(g):
    """Offsets and sizes at 2^32, 2^63 and 2^64 - 1 in ZIP64 extras and data descriptors."""
    es, Z = g.entries, case_writer(g)
    for i, v in enumerate([1 << 63, (1 << 63) - 1, M64, M64 - 29, (1 << 64) - 70, 1 << 32]):
        e = es()
        e[3] = E(e[3].name, e[3].data, 0, z64central=["offset"], z64c_vals={"offset": v})
        Z(f"o-zip64-offset-{v:x}", e, ["IG-PKG-003", "IG-PKG-018"], f"a blob's ZIP64 local header offset {v:#x}",
          q=(v == M64))
    for i, (f, v) in enumerate([("csize", M64), ("csize", 1 << 63), ("usize", M64), ("usize", 1 << 63)]):
        e = es()
        e[3] = E(e[3].name, e[3].data, 8, z64central=["usize", "csize"], z64local=True,
                 z64c_vals={f: v}, **{f"z64l_{f}": v})
        Z(f"o-zip64-{f}-{v:x}", e, ["IG-PKG-003", "IG-PKG-027", "IG-PKG-016", "IG-PKG-021"],
          f"a deflated blob declaring {f} {v:#x} in both ZIP64 extras", q=(i == 0))
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, z64local=True, z64l_csize=M64)
    Z("o-zip64-local-csize-max", e, ["IG-PKG-015", "IG-PKG-003"], "local ZIP64 extra csize 2^64-1, central normal")
    e = es()
    e[3] = E(e[3].name, e[3].data, 8, dd={"wide": True, "csize": M64, "usize": M64}, z64local=True)
    Z("o-descriptor-sizes-max", e, ["IG-PKG-015"], "a deflated blob's 8-byte data descriptor with sizes 2^64-1")


def record_field_cases(g):
    """End records, lengths and offsets whose sums wrap at 2^16, 2^32 or 2^64."""
    es, Z = g.entries, case_writer(g)
    for nm, z in [("cd-offset-max", {"rec": {"cd_offset": M64}}), ("cd-size-max", {"rec": {"cd_size": M64}}),
                  ("cd-offset-plus-size-wraps", {"rec": {"cd_offset": M64 - 9, "cd_size": 20}}),
                  ("count-max", {"rec": {"n_disk": M64, "n_total": M64}}),
                  ("locator-offset-max", {"loc": {"z64_offset": M64}}),
                  ("record-size-max", {"rec": {"recsize": M64}}),
                  ("record-size-100", {"rec": {"recsize": 100}}),
                  ("record-size-0", {"rec": {"recsize": 0}})]:
        z = dict(z)
        z["sentinels"] = True
        Z(f"o-zip64-eocd-{nm}", es(), ["IG-PKG-019", "IG-PKG-018", "IG-PKG-023", "IG-PKG-003"],
          f"ZIP64 end records: {z}", q=(nm == "cd-offset-max"), z64=z)
    Z("o-eocd-offset-plus-size-wraps-32", es(), ["IG-PKG-018", "IG-PKG-003"],
      "classic EOCD: CD offset 0xFFFFFF00 + size 0x200 wraps at 2^32", eocd={"cd_offset": 0xFFFFFF00, "cd_size": 0x200})
    e = es()
    e[4] = E(e[4].name, e[4].data, 0, l_nlen=0xFFFF)
    Z("o-local-name-length-max", e, ["IG-PKG-015", "IG-PKG-003", "IG-PKG-016"], "last entry's local name length 65535")
    e = es()
    e[4] = E(e[4].name, e[4].data, 0, l_xlen=0xFFFF)
    Z("o-local-extra-length-max", e, ["IG-PKG-016", "IG-PKG-003", "IG-PKG-015"], "last entry's local extra length 65535")
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, cextra=struct.pack("<HH", 0x0001, 0xFFFF) + bytes(8))
    if want(False):
        U("o-central-extra-length-lies", build(e, g.dt()), "a ZIP64 extra block whose data size 65535 runs past the "
          "record and the CD, on an entry whose values need no ZIP64: a malformed extra (PKG-030?) or an unneeded "
          "extra to ignore (9.1)? open", family=F)
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, z64central=["offset"], cextra=b"", c_offset=0xFFFFFFFF,
             z64c_vals={"offset": 0})
    e[3].kw["z64central"] = []
    Z("o-offset-sentinel-without-extra", e, ["IG-PKG-019", "IG-PKG-003", "IG-PKG-030", "IG-PKG-015"],
      "central offset 0xFFFFFFFF and no ZIP64 extra to resolve it")


def image_header_cases():
    """Image and thumbnail headers whose sizes overflow when multiplied out."""
    big = PNG_SIG + ihdr(2147483647, 2147483647, 16, 6) + png_chunk(b"IDAT", zlib.compress(bytes(64))) + png_chunk(b"IEND", b"")
    gg = base()
    gg.add(big, "image/png", 2147483647, 2147483647)
    V("o-png-2^31-1-squared-16bit-rgba", gg.zip(),
      "PNG IHDR 2147483647 x 2147483647, 16-bit RGBA (8 bytes/pixel: 3.7e19 bytes overflow 64 bits); "
      "consistent with the manifest: conforming without --deep", family=F, q=True)
    V("o-png-2^31-1-squared-16bit-rgba-deep", gg.zip(),
      "the same with --deep: 4.6e18 pixels, past the budget, which is checked from the header before any decode: "
      "IG-BLB-009 (warning); must not overflow", deep=True, family=F, q=True)
    huge = PNG_SIG + ihdr(0xFFFFFFFF, 0xFFFFFFFF, 8, 2) + png_chunk(b"IDAT", zlib.compress(bytes(64))) + png_chunk(b"IEND", b"")
    gg = base()
    gg.add(huge, "image/png", 2147483647, 2147483647)
    X("o-png-ihdr-ffffffff", gg.zip(), "BLB", ["IG-BLB-007", "IG-BLB-006"],
      "PNG IHDR 0xFFFFFFFF x 0xFFFFFFFF (past the PNG maximum 2^31-1)", family=F, q=True)
    gg = base()
    gg.thumb = huge
    X("o-thumbnail-ihdr-ffffffff", gg.zip(), "THM", ["IG-THM-005", "IG-THM-006"],
      "thumbnail IHDR 0xFFFFFFFF x 0xFFFFFFFF", family=F, q=True)
    gg = base()
    gg.thumb = PNG_SIG + ihdr(2147483647, 2147483647, 16, 6) + png_chunk(b"IDAT", zlib.compress(bytes(64))) + png_chunk(b"IEND", b"")
    X("o-thumbnail-2^31-1-squared-deep", gg.zip(), "THM", ["IG-THM-003", "IG-THM-005"],
      "thumbnail IHDR 2147483647^2 16-bit, --deep", family=F, deep=True)
    hj = jpeg_set_dims(make_jpeg(16, 16, 41), 65535, 65535)
    gg = base()
    gg.add(hj, "image/jpeg", 65535, 65535)
    V("o-jpeg-65535-squared-deep", gg.zip(),
      "JPEG frame 65535 x 65535 with --deep: past the pixel budget, IG-BLB-009 (warning), not decoded", deep=True, family=F)


def manifest_integer_cases():
    """Manifest integers at the edges of Int64, UInt64 and Double."""
    for i, (path, raw) in enumerate([(("images", 0, "byteSize"), "9223372036854775807"),
                                     (("images", 0, "byteSize"), "9223372036854775808"),
                                     (("images", 0, "byteSize"), "18446744073709551615"),
                                     (("images", 0, "byteSize"), "18446744073709551616"),
                                     (("images", 0, "byteSize"), "-9223372036854775808"),
                                     (("images", 0, "byteSize"), "-9223372036854775809"),
                                     (("images", 0, "width"), "4294967297"),
                                     (("images", 0, "width"), "-2147483649"),
                                     (("images", 0, "width"), "1e-400"),
                                     (("images", 0, "height"), "9007199254740993"),
                                     (("images", 0, "height"), "1.7976931348623157e309")]):
        if not want(i in (1, 3)):
            continue
        gg = base_with_thumbnail()
        setp(gg.m, path, R(raw))
        X(f"o-int-{i:02d}-{path[-1]}", build(gg.entries(mtext=raw_subst(gg.text())), gg.dt()), "MAN", ["IG-MAN-008"],
          f"{'/'.join(map(str, path))} = {raw}", family=F, q=True)


def entry_count_cases(g):
    """Exactly 65,535 entries and no ZIP64 records: the count 0xFFFF is the value 65,535 (B.4)."""
    es = g.entries
    if want(False):
        # exactly 65,535 entries and no ZIP64 records: the count 0xFFFF is the value 65,535 (B.4)
        e = es()
        n = 65535 - len(e)
        e += [E(f"d/{i:x}/", b"", 0, c_eattr=DIRMODE) for i in range(n)]
        V("o-65535-entries-no-zip64", build(e, g.dt()),
          "65,535 entries (65,530 directory entries), classic EOCD count 0xFFFF, no ZIP64 (B.4)", family=F)
