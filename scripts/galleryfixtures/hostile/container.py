"""Family c- (container attacks): mimetype rules, methods and encryption, local and central headers
that disagree, stored entries with data descriptors, damaged data, zip bombs by ratio and by
overlapping entries, lying sizes, end records and ZIP64 abuse."""

import random
import struct
import zlib

from ..compression import crc32, crc_zeros, deflate, deflate_zeros, ratio_exact
from ..png import png_chunk
from ..zipwriting import (MIMETYPE, E, build, central_header, end_record, ext_ut, fifield_overlap, local_header,
                          locals_of, same_entry, with_descriptors, zip64_end_record, zip64_locator)
from . import output
from .gallery import G, base
from .images import make_png
from .output import U, X, want

F = "container"


def fam_container():
    g = base()
    for cases in (mimetype_cases, method_and_header_cases, stored_descriptor_cases, damaged_data_cases,
                  size_lie_and_bomb_cases, overlap_cases, end_record_cases, central_record_cases):
        cases(g)


def case_writer(g):
    """Z(name, entries, category, ids, note, q=False, **build options): the file NAME, the archive of
    ENTRIES with G's dates, when the run wants it (q: the quick corpus does too)."""
    def Z(name, entries, category, ids, note, q=False, **bkw):
        if want(q):
            X(name, build(entries, g.dt(), **bkw), category, ids, note, family=F, q=True)
    return Z


def mimetype_cases(g):
    """The mimetype entry against the rules of section 4.4, and bytes before it."""
    es, Z = g.entries, case_writer(g)
    e = es()
    Z("c-mimetype-missing", e[1:], "PKG", ["IG-PKG-004"], "no mimetype entry", q=True)
    e = es()
    Z("c-mimetype-second", [e[1], e[0]] + e[2:], "PKG", ["IG-PKG-005", "IG-PKG-017"], "mimetype second", q=True)
    e = es()
    e[0] = E("mimetype", MIMETYPE, 8)
    Z("c-mimetype-deflated", e, "PKG", ["IG-PKG-006"], "mimetype DEFLATED", q=True)
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, lextra=ext_ut())
    Z("c-mimetype-extra-field", e, "PKG", ["IG-PKG-007"], "mimetype local header with a UT extra", q=True)
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, z64local=True)
    Z("c-mimetype-zip64-extra", e, "PKG", ["IG-PKG-007"], "mimetype with a ZIP64 extra (B.15)")
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, dd={})
    Z("c-mimetype-data-descriptor", e, "PKG", ["IG-PKG-026"], "mimetype with flag bit 3 and a descriptor", q=True)
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, dd={"zero": False})
    Z("c-mimetype-data-descriptor-realvalues", e, "PKG", ["IG-PKG-026"], "mimetype with flag bit 3, real values in header too")
    for nm, content in [("newline", MIMETYPE + b"\n"), ("space", MIMETYPE + b" "), ("upper", MIMETYPE.upper()),
                        ("empty", b""), ("zip", b"application/zip"), ("bom", b"\xef\xbb\xbf" + MIMETYPE),
                        ("crlf", MIMETYPE + b"\r\n"), ("nul", MIMETYPE + b"\x00")]:
        e = es()
        e[0] = E("mimetype", content, 0)
        Z(f"c-mimetype-content-{nm}", e, "PKG", ["IG-PKG-008"], f"mimetype content {content[:40]!r}", q=(nm == "newline"))
    e = es()
    e[0] = E("MIMETYPE", MIMETYPE, 0)
    Z("c-mimetype-uppercase-name", e, "PKG", ["IG-PKG-004"], "the first entry is MIMETYPE (names match as bytes)")
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, h_crc=0x12345678)
    Z("c-mimetype-bad-crc", e, "PKG", ["IG-PKG-020"], "mimetype CRC-32 wrong in both headers")
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, h_flags=0x0801)
    Z("c-mimetype-encrypted-flag", e, "PKG", ["IG-PKG-013"], "mimetype flag bit 0 (encrypted)")
    e = es()
    e[0] = E("mimetype", MIMETYPE, 0, c_eattr=0o120777 << 16)
    Z("c-mimetype-symlink", e, "PKG", ["IG-PKG-012"], "mimetype is a symbolic link")
    e = es()
    Z("c-mimetype-duplicated", e[:1] + e[:1] + e[1:], "PKG", ["IG-PKG-009"], "two mimetype entries")
    if want(False):
        e = es()
        U("u-mimetype-first-local-second-central", build(e, g.dt(), cd_order=[1, 0, 2, 3, 4]),
          "mimetype's local header at 0 but listed second in the central directory: 'first entry' undefined for that",
          family=F)
    e = es()
    stub = b"MZ" + bytes(62) + b"This program cannot be run in DOS mode.\r\n" + bytes(100)
    Z("c-prepended-stub", e, "PKG", ["IG-PKG-017", "IG-PKG-005"], "an executable stub before mimetype, offsets adjusted",
      q=True, prefix=stub)
    Z("c-prepended-cat", e, "PKG", ["IG-PKG-017", "IG-PKG-005", "IG-PKG-018", "IG-PKG-030", "IG-PKG-015"],
      "bytes prepended with cat: offsets not adjusted", prefix=stub, prefix_in_offsets=False)


def method_and_header_cases(g):
    """Methods and encryption the format refuses, and local headers that disagree with the central directory."""
    es, Z = g.entries, case_writer(g)
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, h_flags=0x0801)
    Z("c-encrypted-blob", e, "PKG", ["IG-PKG-013"], "a blob flagged encrypted (bit 0)", q=True)
    for m in ([12] if output.QUICK else [1, 6, 9, 12, 14, 93, 95, 98, 99]):
        e = es()
        e[3] = E(e[3].name, e[3].data, m, payload=e[3].data)
        Z(f"c-method-{m}", e, "PKG", ["IG-PKG-014", "IG-PKG-013"], f"a blob with compression method {m}", q=True)
    t4 = es()[4]
    for fld, kw in [("name", dict(lname=b"images/" + b"0" * 64 + b".png")), ("method", dict(l_method=8)),
                    ("flags", dict(l_flags=0x0802)), ("crc", dict(l_crc=crc32(t4.data) ^ 1)),
                    ("csize", dict(l_csize=len(t4.data) + 1)), ("usize", dict(l_usize=len(t4.data) + 1))]:
        e = es()
        e[4] = E(e[4].name, e[4].data, 0, **kw)
        Z(f"c-mismatch-{fld}", e, "PKG", ["IG-PKG-015"], f"local header and central directory disagree on {fld}",
          q=fld in ("name", "crc"))
    e = es()
    e[1] = E("manifest.json", e[1].data, 8, dd={"crc": 0xDEADBEEF})
    Z("c-descriptor-disagrees", e, "PKG", ["IG-PKG-015"], "data descriptor CRC differs from the central directory")
    if want(False):
        e = es()
        e[4] = E(e[4].name, e[4].data, 8, h_flags=0x0808)
        U("u-descriptor-flag-but-none", build(e, g.dt()),
          "a deflated blob with flag bit 3 set, real header values and no descriptor bytes after its data", family=F)


def stored_descriptor_cases(g):
    """Stored entries with a data descriptor (IG-PKG-033): a streaming reader can end stored data only
    by searching it for a descriptor signature (libarchive) or refuses it (Java's ZipInputStream)."""
    es, Z = g.entries, case_writer(g)
    Z("c-stored-data-descriptor-sig", with_descriptors(es()), "PKG",
      ["IG-PKG-033"], "data descriptors with signature on every entry but mimetype, the thumbnail and blobs stored "
      "(formerly tolerated; 9.2)", q=True)
    if want(False):
        Z("c-stored-data-descriptor-nosig", with_descriptors(es(), sig=False),
          "PKG", ["IG-PKG-033"], "data descriptors without signature on every entry but mimetype, the thumbnail and "
          "blobs stored: libarchive on a pipe cannot find where their data ends")
        e = es()
        e[3] = same_entry(e[3], dd=dict(zero=False))
        Z("c-stored-data-descriptor-realvalues", e, "PKG", ["IG-PKG-033"],
          "a stored blob with flag bit 3, a signed descriptor and the real CRC and sizes in its local header too")
        e = es()
        e[3] = E(e[3].name, e[3].data, 0, dd=dict(wide=True), z64local=True)
        Z("c-stored-data-descriptor-zip64", e, "PKG", ["IG-PKG-033"],
          "a stored blob with flag bit 3, a local ZIP64 extra and an 8-byte data descriptor")
        e = es()
        e[4] = E(e[4].name, e[4].data, 0, h_flags=0x0808)
        Z("c-stored-descriptor-flag-but-none", e, "PKG", ["IG-PKG-033"],
          "a stored blob with flag bit 3 set, real header values and no descriptor bytes after its data")


def damaged_data_cases(g):
    """Entry data that is damaged or does not match its declared CRC and sizes."""
    es, Z = g.entries, case_writer(g)
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, h_crc=crc32(e[3].data) ^ 0x80)
    Z("c-crc-mismatch-blob", e, "PKG", ["IG-PKG-020"], "blob CRC-32 wrong in both headers", q=True)
    e = es()
    e[2] = E(e[2].name, e[2].data, 0, h_usize=len(e[2].data) + 1)
    Z("c-stored-usize-ne-csize", e, "PKG", ["IG-PKG-021", "IG-PKG-015"], "STORED thumbnail whose uncompressed size is csize+1")
    e = es()
    e[1] = E("manifest.json", e[1].data, 8, h_usize=len(e[1].data) + 100)
    Z("c-inflate-short", e, "PKG", ["IG-PKG-021"], "manifest inflates to 100 bytes fewer than declared")
    e = es()
    bad = bytes([0x07]) + random.Random("bt3").randbytes(200)
    e[3] = E(e[3].name, e[3].data, 8, payload=bad)
    Z("c-deflate-corrupt", e, "PKG", ["IG-PKG-029", "IG-PKG-020", "IG-PKG-021"], "blob deflate stream with block type 3", q=True)
    e = es()
    e[1] = E("manifest.json", e[1].data, 8, payload=zlib.compress(e[1].data, 6))
    Z("c-manifest-zlib-wrapper", e, "PKG", ["IG-PKG-029", "IG-PKG-020", "IG-PKG-021"],
      "manifest compressed with a zlib header and Adler-32 (not raw deflate)", q=True)
    e = es()
    p = deflate(e[1].data)
    e[1] = E("manifest.json", e[1].data, 8, payload=p[:len(p) // 2])
    Z("c-deflate-truncated", e, "PKG", ["IG-PKG-029", "IG-PKG-021", "IG-PKG-020"], "manifest deflate stream cut in half")
    if want(False):
        e = es()
        e[1] = E("manifest.json", e[1].data, 8, payload=deflate(e[1].data) + b"garbage!")
        U("u-deflate-trailing-bytes", build(e, g.dt()),
          "8 bytes after the final deflate block inside the compressed size ('ends within the declared compressed size')",
          family=F)


def size_lie_and_bomb_cases(g):
    """Lying sizes and ratio bombs (sections 10 and 12)."""
    es, Z = g.entries, case_writer(g)
    big = (20 if output.QUICK else 200) << 20
    e = es() + [E("bomb.bin", b"", 8, payload=deflate_zeros(big), usize_real=big, crc_real=crc_zeros(big))]
    Z("c-ratio-bomb", e, "PKG", ["IG-PKG-027"], f"unknown entry: {big >> 20} MiB of zeros deflated ~1000:1", q=True)
    if want(False):
        n = (1 << 20) + 1
        e = es() + [E("bomb.bin", bytes(n), 8, level=9)]
        Z("c-ratio-1MiB-plus-1", e, "PKG", ["IG-PKG-027"], "1 MiB + 1 byte of zeros deflated ~1000:1 (limit: >1 MiB, >100:1)")
        data, payload = ratio_exact(101)
        e = es() + [E("pad/ratio-101.bin", data, 8, payload=payload)]
        Z("c-ratio-exactly-101", e, "PKG", ["IG-PKG-027"], f"{len(data)} bytes deflated exactly 101:1 (limit 100:1)")
    lie = (8 if output.QUICK else 100) << 20
    e = es() + [E("liar.bin", b"", 8, payload=deflate_zeros(lie), usize_real=1000, crc_real=crc_zeros(1000))]
    Z("c-liar-declares-1000", e, "PKG", ["IG-PKG-021"],
      f"entry declares 1000 bytes (exempt from the ratio rule) but inflates to {lie >> 20} MiB: inflation must stop", q=True)
    if want(False):
        t = g.text()
        p = deflate_zeros(50 << 20, prefix=t)
        e = es()
        e[1] = E("manifest.json", t, 8, payload=p)
        Z("c-liar-manifest", e, "PKG", ["IG-PKG-021"], "the manifest's deflate stream continues 50 MiB past its declared size")
        b = e[3].data
        e = es()
        e[3] = E(e[3].name, b, 8, payload=deflate_zeros(50 << 20, prefix=b))
        Z("c-liar-blob", e, "PKG", ["IG-PKG-021"], "a blob's deflate stream continues 50 MiB past its declared size")
        # a PNG blob that is mostly a text chunk of zeros, deflated at a huge ratio
        pbig = make_png(8, 8, seed=30, before=(png_chunk(b"tEXt", b"pad\x00" + bytes(30 << 20)),))
        gb = G("ratio-blob", ())
        gb.add(pbig, "image/png", 8, 8)
        X("c-ratio-bomb-blob", gb.zip(bmethod=8), "PKG", ["IG-PKG-027"],
          "a consistent 30 MiB PNG blob deflated ~1000:1", family=F)
        gt = base()
        gt.thumb = make_png(256, 192, seed=31, before=(png_chunk(b"tEXt", b"pad\x00" + bytes(20 << 20)),))
        X("c-ratio-bomb-thumbnail", gt.zip(tmethod=8), "PKG", ["IG-PKG-027"],
          "a 20 MiB thumbnail deflated ~1000:1", family=F)
    # huge declared sizes
    e = es() + [E("huge.bin", b"x" * 100, 0, h_csize=0xFFFFFFFE, h_usize=0xFFFFFFFE)]
    Z("c-stored-declares-4GiB", e, "PKG", ["IG-PKG-003", "IG-PKG-016", "IG-PKG-027"],
      "a STORED entry declaring 4 GiB - 2 in a small file", q=True)
    e = es() + [E("huge.bin", b"x" * 100, 8, payload=deflate(b"x" * 100), z64local=True, z64central=["usize"],
                  z64l_usize=(1 << 63) - 1, z64c_vals={"usize": (1 << 63) - 1})]
    Z("c-zip64-usize-2^63", e, "PKG", ["IG-PKG-027", "IG-PKG-021"], "ZIP64 uncompressed size 2^63-1 on a small entry")
    if want(False):
        e = es()
        for i in range(20):
            e.append(E(f"huge/{i:02d}.bin", b"", 8, payload=deflate(b"x" * 100), usize_real=0xFFFFFFF0 // 1, crc_real=0))
        Z("c-total-declared-over-64GiB", e, "PKG", ["IG-PKG-027"],
          "20 deflated entries each declaring ~4 GiB: over 64 GiB declared in total (ratio also absurd)")
        e = es() + [E("huge.bin", b"x" * 100, 0, payload=b"x" * 100, z64local=True, z64central=["usize", "csize"],
                      z64l_usize=1 << 62, z64l_csize=1 << 62, z64c_vals={"usize": 1 << 62, "csize": 1 << 62})]
        Z("c-zip64-stored-2^62", e, "PKG", ["IG-PKG-003", "IG-PKG-027", "IG-PKG-016"], "a STORED ZIP64 entry declaring 2^62 bytes")


def overlap_cases(g):
    """Entries that overlap each other or the central directory (section 12)."""
    es, Z = g.entries, case_writer(g)
    e = es()
    nrec = 50 if output.QUICK else 1000
    extra = b""
    off3 = 70 + 30 + 13 + len(e[1].payload) + 30 + 13 + len(e[2].payload)
    b3 = e[3]
    for i in range(nrec):
        nm = f"bomb/{i:05d}".encode()
        extra += central_header(time=0x5548, date=0x5D76, crc=crc32(b3.data), csize=len(b3.data),
                                usize=len(b3.data), nlen=len(nm), offset=off3) + nm
    Z("c-overlap-many-central-records", e, "PKG", ["IG-PKG-015", "IG-PKG-016"],
      f"{nrec} extra central records point at one blob's local header", q=True, cd_raw=extra,
      eocd={"n_disk": 5 + nrec, "n_total": 5 + nrec})
    if want(False):
        Z("c-overlap-duplicate-records", e, "PKG", ["IG-PKG-009", "IG-PKG-016"],
          "the blob's central record repeated 1000 times", cd_order=[0, 1, 2, 3] * 1 + [3] * 1000 + [4])
    body, cd, n = fifield_overlap(20 if output.QUICK else 250, 1 << 20)
    pre = build(es(), g.dt())
    cut = pre.index(b"PK\x01\x02")
    pre_cd = pre[cut:pre.index(b"PK\x05\x06")]
    # shift the bomb's offsets past the gallery's entries and add its records after the gallery's
    shifted = bytearray(cd)
    i = 0
    while i < len(shifted):
        o = struct.unpack_from("<I", shifted, i + 42)[0]
        struct.pack_into("<I", shifted, i + 42, o + cut)
        nl = struct.unpack_from("<H", shifted, i + 28)[0]
        i += 46 + nl
    allcd = pre_cd + bytes(shifted)
    nent = 5 + n
    data = pre[:cut] + body + allcd + end_record(n_disk=nent, n_total=nent, cd_size=len(allcd),
                                                 cd_offset=cut + len(body))
    X("c-overlap-fifield-bomb", data, "PKG", ["IG-PKG-016", "IG-PKG-027"],
      f"{n} entries whose deflate streams quote each other's local headers (non-recursive zip bomb, "
      f"{n} x 1 MiB if overlaps were allowed)", family=F, q=True)
    e = es()
    last = e[4]
    e[4] = E(last.name, last.data, 0, payload=last.data, h_csize=len(last.data) + 20, h_usize=len(last.data) + 20,
             h_crc=0)
    Z("c-overlap-into-cd", e, "PKG", ["IG-PKG-016", "IG-PKG-020", "IG-PKG-021"],
      "the last entry's declared size reaches into the central directory")


def end_record_cases(g):
    """End of central directory and ZIP64 end records that lie."""
    es, Z = g.entries, case_writer(g)
    for nm, ov, ids, q in [
            ("disk-1", {"disk": 1}, ["IG-PKG-018"], True),
            ("cddisk-1", {"cddisk": 1}, ["IG-PKG-018"], False),
            ("counts-disagree", {"n_disk": 4}, ["IG-PKG-018"], True),
            ("count-65000", {"n_disk": 65000, "n_total": 65000}, ["IG-PKG-018", "IG-PKG-030", "IG-PKG-003"], False),
            ("count-ffff-no-locator", {"n_disk": 0xFFFF, "n_total": 0xFFFF}, ["IG-PKG-018", "IG-PKG-030"], False),
            ("count-0", {"n_disk": 0, "n_total": 0}, ["IG-PKG-018", "IG-PKG-030", "IG-PKG-022"], False),
            ("cd-offset-past-eof", {"cd_offset": 0x00FFFFFF}, ["IG-PKG-018", "IG-PKG-003"], True),
            ("cd-offset-negative-looking", {"cd_offset": 0xFFFFFFF0}, ["IG-PKG-018", "IG-PKG-003"], False),
            ("cd-offset-sentinel-no-locator", {"cd_offset": 0xFFFFFFFF}, ["IG-PKG-019"], True),
            ("cd-size-sentinel-no-locator", {"cd_size": 0xFFFFFFFF}, ["IG-PKG-019"], False),
            ("cd-size-huge", {"cd_size": 0x7FFFFFFF}, ["IG-PKG-018", "IG-PKG-023", "IG-PKG-003"], False),
            ("cd-size-short", {"cd_size": 100}, ["IG-PKG-030", "IG-PKG-018"], False),
            ("cd-offset-into-blob", {"cd_offset": 200}, ["IG-PKG-030", "IG-PKG-018"], False),
            ("comment-length-past-eof", {"clen": 1000}, ["IG-PKG-001", "IG-PKG-003", "IG-PKG-018"], False)]:
        Z(f"c-eocd-{nm}", es(), "PKG", ids, f"end of central directory record: {ov}", q=q, eocd=ov)
    for nm, z, ids, q in [
            ("count-2^40", {"rec": {"n_disk": 1 << 40, "n_total": 1 << 40}, "sentinels": True}, ["IG-PKG-023", "IG-PKG-019", "IG-PKG-018"], True),
            ("count-300000", {"rec": {"n_disk": 300000, "n_total": 300000}, "sentinels": True}, ["IG-PKG-023", "IG-PKG-019", "IG-PKG-018"], False),
            ("cd-size-2^62", {"rec": {"cd_size": 1 << 62}, "sentinels": True}, ["IG-PKG-023", "IG-PKG-019", "IG-PKG-018"], False),
            ("cd-size-65MiB", {"rec": {"cd_size": 65 << 20}, "sentinels": True}, ["IG-PKG-023", "IG-PKG-019", "IG-PKG-018"], False),
            ("cd-offset-2^63", {"rec": {"cd_offset": 1 << 63}, "sentinels": True}, ["IG-PKG-019", "IG-PKG-018"], False),
            ("record-bad-signature", {"rec": {"sig": 0x06064B51}, "sentinels": True}, ["IG-PKG-019"], True),
            ("record-size-absurd", {"rec": {"recsize": (1 << 63) + 44}, "sentinels": True}, ["IG-PKG-019"], False),
            ("record-disk-7", {"rec": {"disk": 7, "cddisk": 7}, "sentinels": True}, ["IG-PKG-019", "IG-PKG-018"], False),
            ("locator-offset-past-eof", {"loc": {"z64_offset": 1 << 40}, "sentinels": True}, ["IG-PKG-019"], True),
            ("locator-offset-negative", {"loc": {"z64_offset": (1 << 64) - 16}, "sentinels": True}, ["IG-PKG-019"], False),
            ("locator-offset-zero", {"loc": {"z64_offset": 0}, "sentinels": True}, ["IG-PKG-019"], False),
            ("locator-disks-2", {"loc": {"disks": 2}, "sentinels": True}, ["IG-PKG-019", "IG-PKG-018"], False),
            ("counts-disagree", {"rec": {"n_disk": 4}}, ["IG-PKG-019", "IG-PKG-018"], False),
            ("disagrees-with-classic", {"rec": {"cd_offset": 100}}, ["IG-PKG-019", "IG-PKG-018", "IG-PKG-030"], False)]:
        Z(f"c-zip64-{nm}", es(), "PKG", ids, f"ZIP64 end records: {z}", q=q, z64=z)


def central_record_cases(g):
    """Central directory records that are malformed or point where no local header is."""
    es, Z = g.entries, case_writer(g)
    data = build(es(), g.dt())
    cd = data.index(b"PK\x01\x02")
    second = data.index(b"PK\x01\x02", cd + 4)
    d = bytearray(data)
    d[second:second + 4] = b"PK\x01\x03"
    X("c-central-bad-signature", bytes(d), "PKG", ["IG-PKG-030"], "second central record has a wrong signature", family=F)
    e = es()
    e[4] = E(e[4].name, e[4].data, 0, c_xlen=5000)
    Z("c-central-extra-past-end", e, "PKG", ["IG-PKG-030"], "last central record's extra length runs past the CD")
    e = es()
    e[4] = E(e[4].name, e[4].data, 0, c_clen=300)
    Z("c-central-comment-past-end", e, "PKG", ["IG-PKG-030"], "last central record's comment length runs past the CD")
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, c_offset=0x0FFFFFFF)
    Z("c-local-offset-past-eof", e, "PKG", ["IG-PKG-003"], "a central record points past the end of the file", q=True)
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, c_offset=0xFFFFFFF0)
    Z("c-local-offset-negative-looking", e, "PKG", ["IG-PKG-003", "IG-PKG-019"], "local header offset 0xFFFFFFF0")
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, z64central=["offset"], z64c_vals={"offset": (1 << 64) - 30})
    Z("c-zip64-local-offset-2^64-30", e, "PKG", ["IG-PKG-003"], "ZIP64 local header offset 2^64-30")
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, l_sig=0x04034B51)
    Z("c-local-bad-signature", e, "PKG", ["IG-PKG-015", "IG-PKG-003", "IG-PKG-030"], "a blob's local header signature is wrong")
    e = es()
    e[3] = E(e[3].name, e[3].data, 0, c_offset=1)
    Z("c-local-offset-misaligned", e, "PKG", ["IG-PKG-015", "IG-PKG-016"], "a central record points at byte 1")
    if want(False):
        # 200,001 central records (limit 200,000): must be refused before parsing (10)
        n = 200001
        nm = [f"{i:x}".encode() for i in range(n)]
        lh = local_header(nlen=1) + b"0"
        mt = locals_of([E("mimetype", MIMETYPE)])
        cdr = build([E("mimetype", MIMETYPE)])[len(mt):-22]
        cdb = b"".join([cdr] + [central_header(nlen=len(nm[i]), offset=len(mt)) + nm[i] for i in range(1, n)])
        off = len(mt) + len(lh)
        zr = zip64_end_record(n_disk=n, n_total=n, cd_size=len(cdb), cd_offset=off)
        zl = zip64_locator(z64_offset=off + len(cdb))
        eo = end_record(n_disk=0xFFFF, n_total=0xFFFF, cd_size=len(cdb), cd_offset=off)
        X("c-200001-entries", mt + lh + cdb + zr + zl + eo, "PKG", ["IG-PKG-023"],
          "200,001 central records (limit 200,000, checked before parsing)", family=F)
    # a nested zip as a blob under image/png
    gz = G("nestedzip", ())
    inner = b"core"
    for lvl in range(5):
        inner = build([E(f"l{lvl}.zip", inner, 8), E("mimetype", MIMETYPE)])
    gz.add(inner, "image/png", 64, 64)
    X("c-nested-zip-as-png-blob", gz.zip(), "BLB", ["IG-BLB-005"],
      "a 5-level nested zip stored as an image/png blob (sha, size consistent)", family=F, q=True)
