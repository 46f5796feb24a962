"""Bytes and records only some readers see (9.1, 9.2, 12): concatenated archives, end records inside
the archive comment (family c-, "container"), and bytes no entry accounts for, judged by what a
streaming reader sees (family "hidden")."""

import hashlib
import struct

from ..compression import crc32
from ..zipwriting import E, build, data_descriptor, end_record, locals_of
from .garbage import plain_zip
from .gallery import G, base
from .images import make_jpeg, make_png
from .output import V, X, want


# ----------------------------------------------------------------------------
# concatenated archives and end records inside the archive comment (9.1, 9.2, 12)


def fam_concat():
    F = "container"
    g = base()
    A_ = g.zip()
    g2 = G("second", ("p1",), title="The second gallery")
    B_ = g2.zip()
    plain = plain_zip()
    concat_ids = ["IG-PKG-030", "IG-PKG-018", "IG-PKG-017", "IG-PKG-005", "IG-PKG-004", "IG-PKG-015", "IG-PKG-016"]
    X("c-concat-two-galleries", A_ + B_, "PKG", concat_ids,
      "two galleries back to back (cat a b): the last end record is the second's, whose offsets count from its own "
      "start and so point into the first: not a gallery (9.2)", family=F, q=True)
    X("c-concat-gallery-then-zip", A_ + plain, "PKG", concat_ids,
      "a gallery followed by an ordinary zip (cat): the end record found is the zip's; offsets point into the gallery",
      family=F, q=True)
    X("c-concat-two-galleries-adjusted", g2.zip(prefix=A_), "PKG", ["IG-PKG-017", "IG-PKG-005"],
      "a whole gallery prepended to another whose offsets were adjusted (zip -A): the second's entries start "
      "after the first's bytes: prepended data, mimetype not at 0 (9.2)", family=F, q=True)
    es = g.entries() + [E("hello.txt", b"hello", 0)]
    X("c-concat-zip-then-gallery-adjusted", g.zip(prefix=plain), "PKG", ["IG-PKG-017", "IG-PKG-005"],
      "an ordinary zip prepended to a gallery, offsets adjusted: prepended data (9.2)", family=F)
    X("c-concat-gallery-then-gallery-records-only", A_ + B_[B_.index(b"PK\x01\x02"):], "PKG", concat_ids,
      "a gallery followed by another gallery's central directory and end record alone (no entries)", family=F)
    # EOCD signatures inside the archive comment (the end record is found by searching backwards, 9.1)
    V("c-comment-eocd-signature", g.zip(comment=b"a comment holding PK\x05\x06 and then more text"),
      "the archive comment holds PK\\x05\\x06 with too few bytes after it to be an end record: the real one "
      "is found (9.1)", family=F, q=True)
    V("c-comment-eocd-signature-at-end", g.zip(comment=b"trailing signature: PK\x05\x06"),
      "the comment ends with PK\\x05\\x06: no complete record there; the real one is found", family=F)
    real = g.zip()
    eo = real.rindex(b"PK\x05\x06")
    V("c-comment-fake-eocd-agrees", g.zip(comment=real[eo:eo + 20] + b"\x00\x00"),
      "the comment is a complete end record (comment length 0, reaching the end of the file) identical to the real "
      "one: either record gives the same gallery; a reader taking the last one sees the real record as 22 hidden "
      "bytes after the central directory, where no streaming reader looks (IG-PKG-025, a warning)", family=F, q=True)
    X("c-comment-fake-eocd-bad-offset", g.zip(comment=real[eo:eo + 16] + struct.pack("<IH", 7, 0)), "PKG",
      ["IG-PKG-018", "IG-PKG-030", "IG-PKG-003"],
      "the comment is a complete end record (its comment length 0 reaches the end of the file) whose central "
      "directory is at byte 7: searching backwards (9.1) finds it first, and there is no directory there", family=F)
    # a fake end record in the comment that points at a second, hidden central directory listing another manifest:
    # two readers see two galleries (a parser differential, 12)
    gb = base()
    gb.m["title"] = "What the other reader sees"
    tb = gb.text()
    es = g.entries() + [E("manifest.json", tb, 8)]
    dB = build(es, g.dt(), cd_order=[0, 5, 2, 3, 4])
    dA = build(es, g.dt(), cd_order=[0, 1, 2, 3, 4])
    cdB0, cdA0 = dB.index(b"PK\x01\x02"), dA.index(b"PK\x01\x02")
    assert cdB0 == cdA0
    local = dB[:cdB0]
    cdB = dB[cdB0:dB.rindex(b"PK\x05\x06")]
    cdA = dA[cdA0:dA.rindex(b"PK\x05\x06")]
    eocd_b = end_record(n_disk=5, n_total=5, cd_size=len(cdB), cd_offset=len(local))
    eocd_a = end_record(n_disk=5, n_total=5, cd_size=len(cdA), cd_offset=len(local) + len(cdB), clen=len(eocd_b))
    X("c-comment-fake-eocd-second-directory", local + cdB + cdA + eocd_a + eocd_b, "PKG", ["IG-PKG-031"],
      "two complete central directories and two end records, the second inside the first's comment: a reader taking "
      "the last end record sees a gallery titled 'What the other reader sees', one taking the first sees the other "
      "manifest. Whichever it takes, the other manifest.json's local entry is unreferenced: between mimetype and "
      "thumbnail.png for the last record, before the central directory for the first; a local header in unreferenced "
      "bytes is an error (IG-PKG-031, 12)", family=F, q=True)


# ----------------------------------------------------------------------------
# family: bytes no entry accounts for, judged by what a streaming reader sees (9.2, 12)
#
# A streaming reader (libarchive on a pipe, Java's ZipInputStream, upload scanners) walks the local
# headers from offset 0 and never reads the central directory. A local file header in bytes that no
# central record points at is an entry only it sees (IG-PKG-031); any bytes between two entries make
# such readers disagree on the entries after them, one stopping there, another searching on for a
# signature (IG-PKG-032); plain bytes after the last entry are seen by neither (IG-PKG-025, a
# warning). A stored entry with a data descriptor, whose end a streaming reader must search for, is
# IG-PKG-033. scripts/check-streaming-view.py shows what two streaming readers see in each file;
# Tests/CommandLineTests/Read/StreamingViewTests.swift compares it with what our reader sees.


F = "hidden"


def unlisted(g, es, at, e, name, note, ids=("IG-PKG-031",), q=False):
    """es with the entry e written at position `at` but listed by no central record."""
    es = list(es)
    es.insert(at, e)
    X(name, build(es, g.dt(), cd_order=[i for i in range(len(es)) if i != at]), "PKG", list(ids), note,
      family=F, q=q)


def fam_hidden():
    g = base()
    gh = base()
    gh.m["title"] = "The hidden manifest a streaming reader sees"
    hidden_manifest = gh.text()
    plain_byte_cases(g)
    unlisted_header_cases(g, hidden_manifest)
    smuggled_header_cases(g, hidden_manifest)



def plain_byte_cases(g):
    """Bytes with no local header signature, between entries and before the central directory."""
    es = g.entries()
    es[2].kw["pre"] = b"\x00hidden bytes between entries\x00" * 3
    X("c-hidden-bytes-between", build(es, g.dt()), "PKG", ["IG-PKG-032"],
      "96 bytes without a local header signature between manifest.json and thumbnail.png: Java's ZipInputStream "
      "stops there and never sees the thumbnail or the blobs, libarchive searches on (IG-PKG-032)", family=F, q=True)
    es = g.entries()
    es[4].kw["pre"] = b"PK\x01\x02 a central directory signature, nothing more"
    X("c-hidden-cd-signature-between-blobs", build(es, g.dt()), "PKG", ["IG-PKG-032"],
      "bytes holding a central directory header signature between the two blobs: libarchive's streaming reader "
      "takes it for the central directory and stops, missing the second blob (IG-PKG-032)", family=F)
    V("v-hidden-bytes-before-cd", g.zip(gap_before_cd=b"\x00hidden bytes after the last entry\x00" * 2),
      "bytes without a signature after the last entry, before the central directory: every streaming reader has "
      "seen every entry by then (IG-PKG-025, a warning)", family=F, q=True)


def unlisted_header_cases(g, hidden_manifest):
    """Complete local headers that no central record lists."""
    other = make_png(7, 5, seed=77)
    other_path = f"images/{hashlib.sha256(other).hexdigest()}.png"
    unlisted(g, g.entries(), 1, E("manifest.json", hidden_manifest, 8), "c-hidden-manifest-between-mimetype-and-manifest",
             "a complete deflated manifest.json with another title between mimetype and the real manifest.json, "
             "listed by no central record: `cat FILE | bsdtar -xOf - manifest.json` prints the hidden one first "
             "(IG-PKG-031)", q=True)
    unlisted(g, g.entries(), 4, E(other_path, other, 0), "c-hidden-blob-between-blobs",
             "a complete stored blob (another image, named by its own digest) between the two blobs, listed by no "
             "central record: a streaming reader extracts an image the gallery does not have (IG-PKG-031)")
    X("c-hidden-header-before-cd", g.zip(gap_before_cd=locals_of([E("manifest.json", hidden_manifest, 8)])),
      "PKG", ["IG-PKG-031"],
      "a complete deflated manifest.json with another title after the last entry, before the central directory: a "
      "streaming reader extracting the file keeps the last manifest.json it meets, the hidden one (IG-PKG-031)",
      family=F, q=True)
    if want(False):
        script = E("evil.sh", b"#!/bin/sh\necho pwned\n", 0)
        X("c-hidden-shell-script-before-cd", g.zip(gap_before_cd=locals_of([script])), "PKG", ["IG-PKG-031"],
          "a complete stored local entry evil.sh after the last entry, before the central directory: an entry only "
          "streaming readers see (IG-PKG-031)", family=F)
    es = g.entries()
    blob_name = es[3].name.decode()
    fake = make_jpeg(64, 48, 99)
    unlisted(g, es, 3, E(blob_name, fake, 0), "c-hidden-header-with-a-blob-name",
             "a complete local entry named like the first blob, with another image's bytes, just before it and listed "
             "by no central record: a streaming reader meets the blob's name twice, the hidden bytes first; one that "
             "keeps the first (bsdtar -k, a scanner) checks the wrong image (IG-PKG-031)", q=True)
    unlisted(g, g.entries(), 2, E("manifest.json", hidden_manifest, 8, dd=dict()), "c-hidden-header-data-descriptor",
             "a hidden deflated manifest.json with flag bit 3 (CRC and sizes 0 in its local header, a signed data "
             "descriptor after its data) after the real manifest: a streaming reader inflates it to find its end and "
             "goes on to the listed entries; a reader of the unreferenced bytes must find the signature, not rely on "
             "sizes (IG-PKG-031)")


def smuggled_header_cases(g, hidden_manifest):
    """Hidden headers inside the data of listed entries, and unlisted headers that swallow listed ones."""
    # A stored entry with a data descriptor has no size a streaming reader can use: libarchive ends
    # it at the first PK\x07\x08 followed by the CRC-32 of the bytes before it. A fake descriptor
    # inside a listed entry's data ends it early, and what follows is read as further entries:
    # hidden headers in bytes the central directory does account for.
    prefix = b"the start of an entry the format does not name\n"
    fake_descriptor = data_descriptor(crc32(prefix), len(prefix), len(prefix))
    smuggled = prefix + fake_descriptor + locals_of([E("manifest.json", hidden_manifest, 8)]) + b"\nthe rest\n"
    X("c-hidden-header-inside-stored-data-descriptor-entry", build(g.entries() + [E("notes.bin", smuggled, 0, dd=dict())],
                                                                   g.dt()), "PKG", ["IG-PKG-033"],
      "a listed stored entry notes.bin with a data descriptor whose data holds a fake descriptor (signature and the "
      "CRC-32 of the bytes before it), then a complete manifest.json local entry with another title: libarchive on a "
      "pipe ends notes.bin at the fake descriptor and extracts the hidden manifest.json after the real one. Every "
      "byte belongs to a listed entry, so no unreferenced-bytes check sees it: a stored entry with a data descriptor "
      "is refused for that (IG-PKG-033, 12)",
      family=F, q=True)
    if want(False):
        unlisted(g, g.entries(), 2, E("manifest.json", hidden_manifest, 0, dd=dict()), "c-hidden-header-stored-data-descriptor",
                 "a hidden stored manifest.json with flag bit 3 and a signed data descriptor after the real manifest: "
                 "libarchive scans for the descriptor signature to find its end. No central record lists it, so it is "
                 "not IG-PKG-033 but unreferenced bytes holding a local header (IG-PKG-031)")
        es = g.entries()
        swallowed = locals_of([es[1]])
        es.insert(1, E("cover.bin", b"", 0, l_crc=crc32(swallowed), l_csize=len(swallowed), l_usize=len(swallowed)))
        X("c-hidden-header-swallows-manifest", build(es, g.dt(), cd_order=[0, 2, 3, 4, 5]), "PKG", ["IG-PKG-031"],
          "an unlisted stored local header cover.bin whose sizes cover the real manifest.json's local header and "
          "data, which follow it: a streaming reader takes them for cover.bin's data and never sees the manifest the "
          "central directory lists (IG-PKG-031)", family=F)
        es = g.entries()
        es[2].kw["pre"] = b"PK\x03\x04 and then no header at all"
        X("c-hidden-signature-only-between", build(es, g.dt()), "PKG", ["IG-PKG-031"],
          "unreferenced bytes between two entries that start with a local header signature but hold no header: a "
          "streaming reader fails there (IG-PKG-031)", family=F)
        X("c-hidden-signature-inside-text-before-cd", g.zip(gap_before_cd=b"plain text, then PK\x03\x04 inside it\n"),
          "PKG", ["IG-PKG-031"],
          "unreferenced text after the last entry with a local header signature inside it: libarchive, searching "
          "forward, tries to read a header there (IG-PKG-031)", family=F)
