"""Family v-: valid documents in the non-canonical forms of section 9.1 that every reader must
tolerate: other ZIP layouts (this module), other manifest texts (validmanifest.py), unusual images
and thumbnails, and files written by Python's zipfile."""

import functools
import hashlib
import io
import json
import random
import struct
import zipfile
import zlib

from ..compression import ratio_exact
from ..png import PNG_SIG, ihdr, png_chunk
from ..zipwriting import (MIMETYPE, REG, DIRMODE, E, UnseekableSink, build, ext_ut, ext_unknown, ext_ux, same_entry,
                          with_descriptors)
from .gallery import G, base, std_image
from .images import jpeg_join, jpeg_set_dims, jpeg_split, make_jpeg, make_png
from .output import U, V, X, want

F = "valid"


def py_zipfile(g, force_zip64=True, stream=False, deflate_all=True, attrs=REG):
    """A document written by Python's zipfile (another writer, section 9.1)."""
    sink = UnseekableSink() if stream else io.BytesIO()
    dtt = (2026, 11, 22, 10, 42, 16)
    with zipfile.ZipFile(sink, "w") as z:
        zi = zipfile.ZipInfo("mimetype", dtt)
        zi.compress_type = zipfile.ZIP_STORED
        zi.external_attr = attrs
        z.writestr(zi, MIMETYPE)
        items = [("manifest.json", g.text()), ("thumbnail.png", g.thumbnail())] + list(g.blobs.items())
        for name, data in items:
            zi = zipfile.ZipInfo(name, dtt)
            zi.compress_type = zipfile.ZIP_DEFLATED if deflate_all else zipfile.ZIP_STORED
            zi.external_attr = attrs
            with z.open(zi, "w", force_zip64=force_zip64) as f:
                f.write(data)
    return bytes(sink.buf) if stream else sink.getvalue()


def fam_valid():
    """The ZIP container in the forms of 9.1 (the manifest texts follow in validmanifest.py)."""
    g = base()
    for cases in (gallery_shape_cases, layout_and_method_cases, data_descriptor_cases, extra_field_cases, zip64_cases,
                  comment_and_directory_cases, attribute_and_flag_cases, unknown_entry_cases):
        cases(g)


def gallery_shape_cases(g):
    """Galleries of no image, shared blobs and many images."""
    V("v-canonical", g.zip(), "canonical document (sections 4, 6.2)", family=F, q=True)
    ge = G("empty", ())
    V("v-empty-gallery", ge.zip(), "zero images, 256x256 placeholder (section 6.6, 7)", family=F)
    if want(True):
        gs = G("shared", ("j1", "p1"))
        gs.add(*std_image("j1"), caption="Same photo, listed twice.")
        V("v-shared-blob", gs.zip(), "third image lists the first image's blob (section 5)", family=F, q=True)
    if want(False):
        gm = G("many", ("j1", "p1", "j2", "p2", "p3"))
        specs = ["j1", "p1", "j2", "p2", "p3"]
        rng = random.Random("many")
        for i in range(2000):
            gm.add(*std_image(specs[rng.randrange(5)]), caption=f"image {i}")
        V("v-2005-images-5-blobs", gm.zip(), "2005 images sharing 5 blobs", family=F, extractFiles=2005)
        # Many images in a small file: sequential image ids make the manifest deflate about 94:1, under the
        # ratio bound (10). Regressions: `list --json` built its whole output in memory (226 MB for 100,000
        # images) and crashed under RLIMIT_AS 256 MiB from 40,000 images on.
        for n, minified in [(40000, False), (90000, True)]:
            gn = G(f"sequential-{n}", ("j1",))
            gn.thumb = gn.thumbnail()
            im0 = gn.m["images"][0]
            gn.m["images"] = [dict(im0, id="00000000-0000-4000-8000-%012x" % i) for i in range(n)]
            t = (json.dumps(gn.m, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode() if minified
                 else gn.text())
            V(f"v-images-{n}-sequential-ids{'-minified' if minified else ''}", gn.zip(mtext=t),
              f"{n} images sharing one blob, ids 00000000-0000-4000-8000-000000000000 upwards"
              f"{', minified JSON' if minified else ''}: a {len(t) >> 20} MiB manifest in a small file; every "
              "command stays within its bounds (list --json printed all of it from one document in memory)",
              family=F, extractFiles=n)


def layout_and_method_cases(g):
    """Entries in another order, and other compression choices for the manifest and the blobs."""
    V("v-manifest-last", g.zip(order="manifest-last"),
      "manifest stored last (9.1)", family=F)
    if want(False):
        V("v-blobs-before-manifest", g.zip(order="blobs-first"),
          "blobs, thumbnail, then manifest (9.1)", family=F)
    V("v-manifest-stored", g.zip(mmethod=0), "manifest STORED (9.1)", family=F, q=True)
    V("v-blobs-thumb-deflated", g.zip(tmethod=8, bmethod=8),
      "thumbnail and blobs DEFLATED (9.1)", family=F, q=True)
    if want(False):
        es = g.entries()
        es[1] = E("manifest.json", g.text(), 8, level=0)
        V("v-manifest-deflate-level0", build(es, g.dt()), "manifest deflated at level 0 (stored blocks)", family=F)
        es = g.entries()
        es[1] = E("manifest.json", g.text(), 8, level=9, strategy=zlib.Z_FIXED)
        V("v-manifest-deflate-fixed", build(es, g.dt()), "manifest deflated with fixed Huffman codes", family=F)
        es = g.entries()
        es[1] = E("manifest.json", g.text(), 8, level=1, strategy=zlib.Z_HUFFMAN_ONLY)
        V("v-manifest-deflate-huffman-only", build(es, g.dt()), "manifest deflated, Huffman only", family=F)
        # a deflate stream made of many small blocks, including empty stored ones
        t = g.text()
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        parts = []
        for i in range(0, len(t), 50):
            parts.append(c.compress(t[i:i + 50]))
            parts.append(c.flush(zlib.Z_FULL_FLUSH))
        parts.append(c.flush())
        es = g.entries()
        es[1] = E("manifest.json", t, 8, payload=b"".join(parts))
        V("v-manifest-deflate-many-blocks", build(es, g.dt()), "manifest deflate stream with full flushes", family=F)


def data_descriptor_cases(g):
    """Data descriptors, on deflated entries only (9.1)."""
    # Data descriptors on deflated entries only: the deflate stream marks where the data ends. A
    # stored entry with one is IG-PKG-033 (the c-stored-data-descriptor-* files of fam_container).
    deflated = functools.partial(g.entries, tmethod=8, bmethod=8)
    V("v-data-descriptors-sig", build(with_descriptors(deflated()), g.dt()),
      "data descriptors with signature on every entry but mimetype, all of them deflated (9.1)", family=F, q=True)
    if want(False):
        V("v-data-descriptors-nosig", build(with_descriptors(deflated(), sig=False), g.dt()),
          "data descriptors without signature on every entry but mimetype, all of them deflated (9.1)", family=F)
        V("v-data-descriptors-realvalues", build(with_descriptors(deflated(), zero=False), g.dt()),
          "data descriptors on deflated entries, local header also holding the real CRC and sizes", family=F)
        es = [g.entries()[0]] + [same_entry(e, dd=dict(wide=True), z64local=True)
                                 for e in deflated()[1:]]
        V("v-data-descriptors-zip64", build(es, g.dt()),
          "local ZIP64 extra and 8-byte data descriptors on deflated entries (9.1)", family=F)
        U("u-data-descriptors-wide-no-zip64-extra", build(with_descriptors(deflated(), wide=True), g.dt()),
          "8-byte descriptor sizes without a local ZIP64 extra, on deflated entries: 9.1 says 4- or 8-byte sizes are "
          "tolerated, APPNOTE 4.3.9 reads 8-byte sizes only with the ZIP64 extra; ambiguous", family=F)


def extra_field_cases(g):
    """Extra fields a reader must skip."""
    es = g.entries()
    es = es[:1] + [same_entry(e, lextra=ext_ut() + ext_ux() + ext_unknown(),
                              cextra=ext_ut() + ext_unknown(0x6375, b"\x01" + struct.pack("<I", 0) + b"x"))
                   for e in es[1:]]
    V("v-foreign-extra-fields", build(es, g.dt()), "UT, ux and unknown extra fields on entries but mimetype (9.1)",
      family=F, q=True)
    if want(False):
        es = g.entries()
        es = es[:1] + [same_entry(e, extra=struct.pack("<HH", 0xD935, 6) + bytes(6)) for e in es[1:]]
        V("v-extra-android-align", build(es, g.dt()), "Android alignment extra (0xD935) in both headers", family=F)


def zip64_cases(g):
    """ZIP64 records where nothing needs them."""
    es = [g.entries()[0]] + [same_entry(e, z64local=True) for e in g.entries()[1:]]
    V("v-zip64-local-sentinels", build(es, g.dt()),
      "local ZIP64 extras with 0xFFFFFFFF sentinels where nothing overflows, as Python's force_zip64 (9.1)",
      family=F, q=True)
    if want(False):
        es = [g.entries()[0]] + [same_entry(e, z64local=True, z64central=["usize", "csize", "offset"])
                                 for e in g.entries()[1:]]
        V("v-zip64-central-all", build(es, g.dt()),
          "central ZIP64 extras for sizes and offset, sentinels in the classic fields (9.1)", family=F)
        es = [g.entries()[0]] + [same_entry(e, z64local=True, z64local_keep=True, z64central=["usize", "csize"],
                                            z64central_keep=True) for e in g.entries()[1:]]
        V("v-zip64-extras-no-sentinels", build(es, g.dt()),
          "ZIP64 extras although the classic fields hold the real values (9.1: ZIP64 extras where no value overflows)",
          family=F)
        es = [g.entries()[0]] + [same_entry(e, z64central=["offset"]) for e in g.entries()[1:]]
        V("v-zip64-central-offset-only", build(es, g.dt()), "central ZIP64 extra holding only the offset", family=F)
    V("v-zip64-end-records", g.zip(z64={}), "ZIP64 end record and locator with 4 entries, classic EOCD real values (9.1)",
      family=F, q=True)
    if want(False):
        V("v-zip64-end-records-sentinels", g.zip(z64={"sentinels": True}),
          "ZIP64 end records; classic EOCD holds 0xFFFF/0xFFFFFFFF sentinels, resolved through them", family=F)
        V("v-zip64-everything", build([g.entries()[0]] + [same_entry(e, z64local=True,
                                                                     z64central=["usize", "csize", "offset"])
                                                          for e in g.entries()[1:]], g.dt(), z64={"sentinels": True}),
          "ZIP64 on every entry but mimetype and in the end records", family=F)


def comment_and_directory_cases(g):
    """Archive and file comments, and directory entries."""
    V("v-archive-comment", g.zip(comment=b"written by some other zip tool\r\n"), "archive comment (9.1)",
      family=F, q=True)
    if want(False):
        rng = random.Random("comment")
        cm = bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz ") for _ in range(65535))
        V("v-archive-comment-65535", g.zip(comment=cm),
          "archive comment of 65,535 bytes: EOCD found by searching back 22+65,535 bytes (9.1)", family=F)
        U("u-archive-comment-fake-eocd", g.zip(comment=b"PK\x05\x06" + bytes(18)),
          "the archive comment holds a second, fake EOCD signature: which EOCD wins is not specified", family=F)
    es = [same_entry(e, comment=f"comment {i} \u00e9".encode()) for i, e in enumerate(g.entries())]
    V("v-file-comments", build(es, g.dt()), "file comments in the central directory (9.1)", family=F, q=True)
    es = g.entries()
    es.insert(3, E("images/", b"", 0, c_eattr=DIRMODE))
    V("v-directory-entry", build(es, g.dt()), "directory entry images/ (9.1)", family=F, q=True)
    if want(False):
        es = g.entries()
        es.insert(3, E("images/", b"", 0, c_eattr=0x10, c_made=0x0014))
        es.insert(3, E("extra/dir/", b"", 0, c_eattr=0x10, c_made=0x0014))
        V("v-directory-entries-msdos", build(es, g.dt()), "MS-DOS directory entries (attribute 0x10) (9.1)", family=F)


def attribute_and_flag_cases(g):
    """Other hosts, versions, attributes and flags in the headers."""
    es = [same_entry(e, c_made=0x0014, c_eattr=0x20) for e in g.entries()]
    V("v-made-by-msdos", build(es, g.dt()), "version made by MS-DOS, archive attribute only (9.1)", family=F, q=True)
    if want(False):
        es = [same_entry(e, c_eattr=0) for e in g.entries()]
        V("v-unix-no-type-bits", build(es, g.dt()),
          "made by Unix, external attributes 0: no Unix file-type bits, a regular file (9.1)", family=F)
        es = [same_entry(e, c_made=0x033F, h_ver=63, c_eattr=(0o100600 << 16) | 0x01, h_time=0xFFFF, h_date=0xFFFF)
              for e in g.entries()]
        V("v-odd-versions-attrs-times", build(es, g.dt()),
          "version 6.3, mode 0600 + DOS read-only bit, DOS time/date 0xFFFF: timestamps carry no information (4.8, 9.1)",
          family=F)
    es = [same_entry(e, h_flags=0) for e in g.entries()]
    V("v-no-utf8-flag", build(es, g.dt()), "flag bit 11 clear on ASCII names (Appendix B.16)", family=F, q=True)


def unknown_entry_cases(g):
    """Entries the format does not name, and bytes no entry accounts for."""
    es = g.entries()
    es += [E("META-INF/container.xml", b"<container/>", 8), E("readme.txt", b"hello\n", 0)]
    V("v-unknown-entries", build(es, g.dt()), "entries the format does not name (9.1, B.9)", family=F, q=True)
    es = g.entries()
    orphan = make_png(3, 3, seed=99)
    es.append(E(f"images/{hashlib.sha256(orphan).hexdigest()}.png", orphan, 0))
    V("v-orphan-blob", build(es, g.dt()), "an unlisted blob: IG-BLB-002 is a warning (5)", family=F, q=True)
    # (bytes no entry accounts for: fam_hidden)
    if want(False):
        U("u-trailing-bytes-after-eocd", g.zip(trailing=b"\x00" * 100),
          "bytes after the end of central directory record: PKG-025 warning or EOCD not found; spec unclear", family=F)


def fam_valid_images():
    """Images, thumbnails and other writers (after the manifest texts of validmanifest.py)."""
    g = base()
    for cases in (image_cases, thumbnail_cases, other_writer_cases):
        cases(g)


def image_cases(g):
    """Images at the edges of what the header may say, JPEG and PNG variants, blobs that are more than an image."""
    big = PNG_SIG + ihdr(2147483647, 1, 1, 0) + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b"")
    gg = base()
    gg.add(big, "image/png", 2147483647, 1)
    V("v-png-width-2147483647", gg.zip(),
      "PNG IHDR width 2^31-1 = manifest width (max of 6.4); no pixel decoding without --deep", family=F)
    gg = base(imgs=("j3",))
    V("v-jpeg-progressive", gg.zip(), "progressive JPEG (SOF2)", family=F, q=True)
    if want(False):
        gg = G("jpegs", ())
        gg.add(make_jpeg(31, 23, 7, mode="L"), "image/jpeg", 31, 23)
        gg.add(make_jpeg(25, 19, 8, mode="CMYK"), "image/jpeg", 25, 19)
        gg.add(make_jpeg(40, 16, 9, subsampling=2), "image/jpeg", 40, 16)
        gg.add(make_jpeg(40, 16, 9, subsampling=0), "image/jpeg", 40, 16)
        gg.add(jpeg_set_dims(make_jpeg(24, 16, 10), 24, 16, sof=0xC1), "image/jpeg", 24, 16)
        V("v-jpeg-variants", gg.zip(), "grayscale, CMYK, 4:2:0, 4:4:4 and SOF1 JPEGs", family=F)
    gg = G("exif", ())
    gg.add(make_jpeg(48, 32, 11, orient=6), "image/jpeg", 48, 32)
    V("v-jpeg-exif-rotated", gg.zip(),
      "Exif orientation 6: width/height are the frame header's, before orientation (5)", family=F, q=True)
    if want(False):
        segs, rest = jpeg_split(make_jpeg(48, 32, 12))
        dht = [s for s in segs if s[0] == 0xC4]
        other = [s for s in segs if s[0] != 0xC4]
        i = [m for m, _ in other].index(0xC0)
        # DHT before the frame header, a fake SOF inside an APP segment, fill bytes before SOF
        fake = (0xE1, b"Exif\x00\x00" + b"\xff\xc0\x00\x11\x08\x99\x99\x77\x77\x03" + bytes(20))
        other = other[:i] + [fake] + dht + other[i:]
        b = jpeg_join(other, rest)
        j = b.index(b"\xff\xc0\x00\x11\x08", b.index(b"\xff\xc4"))
        b = b[:j] + b"\xff\xff\xff" + b[j:]
        gg = G("tricky-jpeg", ())
        gg.add(b, "image/jpeg", 48, 32)
        V("v-jpeg-tricky-markers", gg.zip(),
          "DHT before SOF, fill bytes before SOF, a fake SOF inside APP1: the frame header says 48x32", family=F)
        # embedded Exif thumbnail with another size
        thumbj = make_jpeg(16, 12, 13)
        segs, rest = jpeg_split(make_jpeg(48, 32, 14))
        segs.insert(1, (0xE1, b"Exif\x00\x00MM\x00*\x00\x00\x00\x08" + thumbj))
        gg = G("exif-thumb", ())
        gg.add(jpeg_join(segs, rest), "image/jpeg", 48, 32)
        V("v-jpeg-embedded-thumbnail", gg.zip(),
          "a JPEG whose APP1 holds another (16x12) JPEG: the frame header of the outer image counts", family=F)
        gg = G("pngs", ())
        gg.add(make_png(13, 7, 16, 6, seed=20), "image/png", 13, 7)
        gg.add(make_png(13, 7, 1, 0, seed=21), "image/png", 13, 7)
        gg.add(make_png(13, 7, 8, 3, seed=22, after=()), "image/png", 13, 7)
        gg.add(make_png(33, 17, 8, 2, 1, seed=23), "image/png", 33, 17)
        gg.add(make_png(33, 17, 8, 4, 0, seed=24, idat_chunks=40), "image/png", 33, 17)
        gg.add(make_png(20, 20, 8, 2, 0, seed=25, before=(png_chunk(b"tEXt", b"Comment\x00" + b"x" * 200000),
                                                          png_chunk(b"zTXt", b"Big\x00\x00" + zlib.compress(b"y" * 100000)))),
               "image/png", 20, 20)
        V("v-png-variants", gg.zip(),
          "16-bit RGBA, 1-bit gray, palette, interlaced blob (only the thumbnail must not be), 40 IDATs, big text chunks",
          family=F)
        poly = make_jpeg(32, 32, 15) + build([E("inner.txt", b"polyglot", 0)])
        gg = G("polyglot", ())
        gg.add(poly, "image/jpeg", 32, 32)
        V("v-jpeg-zip-polyglot-blob", gg.zip(),
          "a JPEG blob with a ZIP appended after EOI: the blob is opaque bytes; header, size and hash agree", family=F)
        inner = b"innermost"
        for lvl in range(6):
            inner = build([E(f"level{lvl}.zip", inner, 8)])
        es = g.entries() + [E("nested.zip", inner, 0)]
        V("v-nested-zip-unknown-entry", build(es, g.dt()), "an unknown entry that is itself a 6-level nested zip", family=F)


def thumbnail_cases(g):
    """Thumbnails of every size and colour type the format allows."""
    for (tw, th, depth, ct, note, q) in [(1024, 1, 8, 2, "1024x1 thumbnail (longer side 1..1024)", True),
                                         (1, 1, 8, 0, "1x1 gray thumbnail", False),
                                         (1024, 1024, 8, 6, "1024x1024 RGBA thumbnail", False),
                                         (200, 100, 8, 3, "8-bit palette thumbnail", False),
                                         (64, 64, 8, 4, "8-bit gray+alpha thumbnail, wrong aspect ratio (not checked, 7)", False)]:
        if not want(q):
            continue
        gg = base()
        gg.thumb = make_png(tw, th, depth, ct, seed=f"t{tw}x{th}{ct}") if tw * th < 5000 else make_png(tw, th, depth, ct, fill=7)
        V(f"v-thumb-{tw}x{th}-c{ct}", gg.zip(), note, family=F, q=True)
    if want(False):
        gg = base()
        gg.thumb = make_png(256, 192, 8, 2, seed="tz", before=(png_chunk(b"zTXt", b"bomb\x00\x00" + zlib.compress(bytes(5 << 20), 9)),))
        V("v-thumb-with-ztxt", gg.zip(), "thumbnail with a 5 MB zTXt chunk (not decoded)", family=F)


def other_writer_cases(g):
    """Files written by Python's zipfile, and sizes at the bounds of 4.3 and 10."""
    V("v-python-zipfile-force-zip64", py_zipfile(g), "written by Python zipfile, force_zip64, deflated (9.1)",
      family=F, q=True)
    if want(False):
        V("v-python-zipfile-stored-plain", py_zipfile(g, force_zip64=False, deflate_all=False, attrs=0),
          "written by Python zipfile, STORED, external attributes 0", family=F)
        X("x-python-zipfile-streamed", py_zipfile(g, stream=True), "PKG", ["IG-PKG-026"],
          "Python zipfile to an unseekable stream sets flag bit 3 on mimetype too (4.4)", family=F)
        V("v-name-1024-bytes", build(g.entries() + [E("d/" + "n" * 1022, b"x", 0)], g.dt()),
          "an entry name of exactly 1024 bytes (limit 1024, 4.3)", family=F)
        # ratio boundaries (section 10): > 1 MiB and > 100:1
        one = 1 << 20
        es = g.entries() + [E("pad/exactly-1MiB.bin", bytes(one), 8, level=9)]
        V("v-ratio-1MiB-exempt", build(es, g.dt()),
          "a 1 MiB entry deflated ~1000:1: exempt, the size does not exceed 1 MiB (10)", family=F)
        data, payload = ratio_exact(100)
        es = g.entries() + [E("pad/ratio-100.bin", data, 8, payload=payload)]
        V("v-ratio-exactly-100", build(es, g.dt()),
          f"a {len(data)}-byte entry compressed exactly 100:1 ({len(payload)} bytes): not past the limit (10)", family=F)
