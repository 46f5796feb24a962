"""Family a-: foreign archives for `convert` (Specs/conversion.md, sections 4 and 5): zip, tar,
tar.gz, tar.bz2, tar.xz, CBZ and CBT with traversal, absolute and option-like names, links,
devices, bombs, lying sizes, truncations and garbage.

Not galleries: `validate` reports them invalid (PKG). Their expectation is the "convert"
record: {"exit": [codes], "images": N or None, "outside": [paths]} for
`imagegallery convert FILE OUT.imagegallery` (see make-hostile-corpus.py's docstring)."""

import bz2
import lzma
import random

from ..compression import crc_zeros, deflate_zeros
from ..zipwriting import E, build, end_record, fifield_overlap
from .gallery import std_image
from .images import jpeg_set_dims, make_jpeg
from .output import emit, want
from .tarwriting import bz2_zeros, gz, gz_zeros, pax_file, tar, tar_header, tar_member, xz

OUTSIDE = "/tmp/imagegallery-hostile-corpus-"      # prefix of every path an escape would write


def foreign_zip(members, **bkw):
    """A plain zip (no mimetype) from (name, data[, method[, E keywords]]) tuples, with the corpus's ZIP writer."""
    es = []
    for m in members:
        name, data = m[0], m[1]
        method = m[2] if len(m) > 2 else 8
        kw = m[3] if len(m) > 3 else {}
        es.append(E(name, data, method, **kw))
    return build(es, **bkw)


def comic_info(title, pages=None, extra=b""):
    x = b'<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo>\n  <Title>' + title.encode() + b"</Title>\n"
    if pages is not None:
        x += b"  <Pages>\n" + b"".join(b'    <Page Image="' + str(p).encode() + b'"/>\n' for p in pages) + b"  </Pages>\n"
    return x + extra + b"</ComicInfo>\n"


F = "foreign"
CONVERTED, REFUSED = [0], [65]      # what convert must exit with: a gallery written, or the input refused
HTML = b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n"


def A(name, ext, data, exit_codes, images, note, q=False, outside=(), **more):
    """The file NAME+EXT, not a gallery, whose conversion must end with one of EXIT_CODES and IMAGES
    images (None: not predictable), writing none of the OUTSIDE paths."""
    conv = {"exit": list(exit_codes), "images": images}
    if outside:
        conv["outside"] = list(outside)
    emit(name, data, "invalid", "PKG", [], False, F, note, q=q, ext=ext, convert=conv, **more)


def sample_images():
    """The three images the archives hold: two JPEGs and a PNG, as (j1, p1, j2)."""
    return std_image("j1")[0], std_image("p1")[0], std_image("j2")[0]


def good_archives(j1, p1, j2):
    """A tar and a zip of the three sample images, which every bound lets through."""
    good_tar = tar(tar_member("pages/1.jpg", j1), tar_member("pages/2.png", p1), tar_member("pages/10.jpg", j2))
    good_zip = foreign_zip([("pages/1.jpg", j1), ("pages/2.png", p1, 0), ("pages/10.jpg", j2)])
    return good_tar, good_zip


def fam_foreign():
    for cases in (good_cases, escaping_name_cases, link_cases, odd_name_cases, bomb_cases, tar_size_cases,
                  truncated_and_garbage_cases, not_an_image_cases, comic_info_cases, entry_count_cases):
        cases()


def good_cases():
    """Good archives of every kind convert reads: every bound met, every entry an image."""
    j1, p1, j2 = sample_images()
    good_tar, good_zip = good_archives(j1, p1, j2)
    A("a-good", ".zip", good_zip, CONVERTED, 3, "a zip of three images (deflated and stored)", q=True)
    A("a-good", ".tar", good_tar, CONVERTED, 3, "a ustar tar of three images", q=True)
    A("a-good", ".tar.gz", gz(good_tar), CONVERTED, 3, "a tar.gz of three images", q=True)
    A("a-good", ".tar.bz2", bz2.compress(good_tar, 9), CONVERTED, 3, "a tar.bz2 of three images")
    A("a-good", ".tar.xz", xz(good_tar), CONVERTED, 3, "a tar.xz of three images")
    ci = comic_info("Hostile Comic", pages=[2, 1, 0])
    A("a-good", ".cbz", foreign_zip([("ComicInfo.xml", ci), ("01.jpg", j1, 0), ("02.png", p1, 0), ("03.jpg", j2, 0)]),
      CONVERTED, 3, "a CBZ with ComicInfo.xml (title, pages in reverse order)", q=True)
    A("a-good", ".cbt", tar(tar_member("ComicInfo.xml", ci), tar_member("01.jpg", j1), tar_member("02.png", p1),
                            tar_member("03.jpg", j2)), CONVERTED, 3, "a CBT (tar comic) with ComicInfo.xml")


def escaping_name_cases():
    """Names that would escape an extraction folder: skipped, the rest imported."""
    j1, p1, j2 = sample_images()
    trav = ["../imagegallery-hostile-corpus-dotdot.jpg", "a/../../imagegallery-hostile-corpus-dotdot2.jpg",
            "../../../../../../../../../../tmp/imagegallery-hostile-corpus-deep.jpg", "..\\..\\windows.jpg"]
    absn = [OUTSIDE + "absolute.jpg", "//" + OUTSIDE[1:] + "double-slash.jpg"]
    outs = [OUTSIDE + "deep.jpg", OUTSIDE + "absolute.jpg", OUTSIDE + "double-slash.jpg"]
    A("a-traversal", ".tar", tar(*[tar_member(n, j1) for n in trav], tar_member("good.jpg", p1)), CONVERTED, 1,
      "'..' names (also ..\\..\\windows.jpg, where backslashes count as separators): skipped (conversion 4); "
      "nothing written outside the output", q=True, outside=outs)
    A("a-traversal", ".zip", foreign_zip([(n, j1) for n in trav] + [("good.jpg", p1)]), CONVERTED, 1,
      "'..' names in a zip: skipped, the good image imported", q=True, outside=outs)
    A("a-absolute", ".tar", tar(*[tar_member(n, j1) for n in absn], tar_member("good.jpg", p1)), CONVERTED, 1,
      "absolute names (/tmp/..., //tmp/...): skipped", q=True, outside=outs)
    A("a-absolute", ".zip", foreign_zip([(n, j1) for n in absn] + [("good.jpg", p1)]), CONVERTED, 1,
      "absolute names in a zip: skipped", outside=outs)


def link_cases():
    """Symbolic and hard links, inside and outside the archive."""
    j1, p1, j2 = sample_images()
    A("a-symlinks-outside", ".tar",
      tar(tar_member("link.jpg", kind=b"2", link="/etc/passwd"),
          tar_member("up.jpg", kind=b"2", link="../../imagegallery-hostile-corpus-up.jpg"),
          tar_member("escape", kind=b"2", link="/tmp"),
          tar_member("escape/imagegallery-hostile-corpus-via-link.jpg", j1),
          tar_member("good.jpg", p1)), CONVERTED, 2,
      "symbolic links to /etc/passwd, ../.., and /tmp followed by a file under the link's name: links skipped; "
      "'escape/...jpg' is an ordinary entry (an image), never written through the link", q=True,
      outside=[OUTSIDE + "via-link.jpg"])
    A("a-symlinks", ".zip",
      foreign_zip([("link.jpg", b"/etc/passwd", 0, {"c_eattr": 0o120777 << 16}),
                   ("up.jpg", b"../../imagegallery-hostile-corpus-up.jpg", 0, {"c_eattr": 0o120777 << 16}),
                   ("good.jpg", p1)]),
      CONVERTED, 1, "zip entries marked as symbolic links (Unix mode 0120777): skipped")
    A("a-hardlinks-outside", ".tar",
      tar(tar_member("hard.jpg", kind=b"1", link=OUTSIDE + "hardlink-target.jpg"),
          tar_member("hard2.jpg", kind=b"1", link="../../imagegallery-hostile-corpus-hard2.jpg"),
          tar_member("hard3.jpg", kind=b"1", link="good.jpg"),
          tar_member("hard.jpg", j1),
          tar_member("good.jpg", p1)), CONVERTED, 2,
      "hard links to a path in /tmp, to ../.., to an entry; then a file under the first link's name: links "
      "skipped, the two files imported", q=True, outside=[OUTSIDE + "hardlink-target.jpg"])


def odd_name_cases():
    """Names that read as options, devices, odd names."""
    j1, p1, j2 = sample_images()
    opts = ["--checkpoint=1", "--checkpoint-action=exec=touch imagegallery-hostile-corpus-pwned.jpg",
            "-rf.jpg", "--to-command=sh.jpg", "dir/-n.jpg"]
    A("a-option-names", ".tar", tar(*[tar_member(n, j1) for n in opts], tar_member("good.jpg", p1)), CONVERTED, 1,
      "names starting with '-' (--checkpoint-action=exec=..., -rf.jpg, dir/-n.jpg): skipped, never passed to a "
      "program", q=True)
    A("a-option-names", ".zip", foreign_zip([(n, j1) for n in opts] + [("good.jpg", p1)]), CONVERTED, 1,
      "option-like names in a zip: skipped")
    A("a-devices", ".tar",
      tar(tar_member("dev/tty.jpg", kind=b"3", devmajor=5, devminor=0),
          tar_member("dev/sda.jpg", kind=b"4", devmajor=8, devminor=0),
          tar_member("fifo.jpg", kind=b"6"),
          tar_member("dir.jpg/", kind=b"5", mode=0o755),
          tar_member("contig.jpg", j1, kind=b"7"),
          tar_member("good.jpg", p1)), CONVERTED, 2,
      "character and block devices, a FIFO, a folder named .jpg, a contiguous file (type 7, a regular file to "
      "libarchive): devices, FIFOs and the folder skipped, the two files imported", q=True)
    long_name = "d/" + "n" * 5000 + ".jpg"
    A("a-odd-names", ".tar",
      tar(tar_member("\x1b[31mred.jpg", j1), tar_member("tab\tname.jpg", j1), tar_member("nl\nname.jpg", j1),
          pax_file(long_name, j1), tar_member("__MACOSX/pages/._1.jpg", j1), tar_member("._2.jpg", j1),
          tar_member("good.jpg", p1)), CONVERTED, 1,
      "control characters in names, a 5,004-byte pax name, __MACOSX/ and ._ AppleDouble names: skipped", q=True)


def bomb_cases():
    """Compression bombs and entries that lie about their size."""
    j1, p1, j2 = sample_images()
    zb = 200 << 20
    hdr = tar_member("a.jpg", j1) + tar_header("zeros.bin", size=zb)
    A("a-bomb-200MiB", ".tar.gz", gz_zeros(zb, prefix=hdr, suffix=bytes(1024)), REFUSED, None,
      "200 MiB of zeros in a ~200 KB tar.gz: past 100x the archive's size after the 16 MiB floor: refused as a "
      "bomb, nothing written", q=True)
    A("a-bomb-200MiB", ".zip",
      build([E("a.jpg", j1, 0), E("zeros.bin", b"", 8, payload=deflate_zeros(zb), usize_real=zb, crc_real=crc_zeros(zb))]),
      REFUSED, None, "200 MiB of zeros deflated in a ~200 KB zip: refused as a bomb", q=True)
    bz = 64 << 20
    A("a-bomb-64MiB", ".tar.bz2", bz2_zeros(bz, prefix=tar_member("a.jpg", j1) + tar_header("zeros.bin", size=bz),
                                            suffix=bytes(1024)), REFUSED, None,
      "64 MiB of zeros in a tar.bz2 of a few hundred bytes: refused as a bomb", q=True)
    body, cd, n = fifield_overlap(100, 1 << 20)
    A("a-bomb-overlapping", ".zip",
      body + cd + end_record(n_disk=n, n_total=n, cd_size=len(cd), cd_offset=len(body)), [0, 65], None,
      "a zip of 100 entries whose deflate streams overlap (Fifield): 100 MiB from 40 KB; none is an image; "
      "refused (65) as a bomb or for holding no image")
    A("a-zip-declares-4GiB", ".zip",
      foreign_zip([("good.jpg", p1), ("huge.jpg", j1, 0, {"h_usize": 0xFFFFFFFE, "h_csize": len(j1)})]), REFUSED, None,
      "a stored entry declaring 4 GiB - 2: over the 1 GiB entry bound (declared): refused")
    A("a-zip64-declares-2^62", ".zip",
      foreign_zip([("good.jpg", p1), ("huge.jpg", j1, 8, {"z64local": True, "z64central": ["usize"],
                                                          "z64l_usize": 1 << 62, "z64c_vals": {"usize": 1 << 62}})]),
      REFUSED, None, "a ZIP64 entry declaring 2^62 bytes: refused")
    lie = 50 << 20
    A("a-zip-liar", ".zip",
      build([E("good.jpg", p1, 0), E("liar.jpg", b"", 8, payload=deflate_zeros(lie), usize_real=2000,
                                     crc_real=crc_zeros(2000))]), [0, 65], None,
      "an entry declaring 2000 bytes whose deflate stream gives 50 MiB: inflation stops at the declared size "
      "(0, the liar skipped as not an image) or the archive is refused (65); never 50 MiB in memory")


def tar_size_cases():
    """Tar headers whose size field lies, or whose checksum is wrong."""
    j1, p1, j2 = sample_images()
    A("a-tar-size-8GiB", ".tar", tar(tar_member("good.jpg", p1), tar_header("huge.jpg", size=0o77777777777) + j1),
      REFUSED, None, "a tar header declaring 8 GiB - 1 (octal) followed by a small file: over the 1 GiB entry bound, "
      "refused before reading")
    A("a-tar-size-base256", ".tar",
      tar(tar_member("good.jpg", p1), tar_header("huge.jpg", size_field=b"\x80" + (1 << 62).to_bytes(11, "big")) + j1),
      REFUSED, None, "a GNU base-256 size of 2^62: refused")
    A("a-tar-size-negative", ".tar",
      tar(tar_member("good.jpg", p1), tar_header("neg.jpg", size_field=b"\xff" * 12) + j1), REFUSED, None,
      "a base-256 size of -1: a damaged archive, refused")
    A("a-tar-size-short", ".tar", tar(tar_member("good.jpg", p1), tar_header("short.jpg", size=100) + j1
                                      + bytes(-len(j1) % 512)),
      REFUSED, None, "a header declaring 100 bytes before a 1.8 KB JPEG: the rest reads as a damaged header: refused")
    A("a-tar-size-past-eof", ".tar", tar_member("good.jpg", p1) + tar_header("big.jpg", size=1 << 20) + j1,
      REFUSED, None, "the last header declares 1 MiB, the file ends after 2 KB: truncated, refused")
    A("a-tar-bad-checksum", ".tar",
      tar(tar_member("good.jpg", p1), tar_member("x.jpg", j1)[:148] + b"000000\x00 " + tar_member("x.jpg", j1)[156:]),
      REFUSED, None, "the second header's checksum is wrong: a damaged archive, refused")


def truncated_and_garbage_cases():
    """Archives cut short, garbage, and empty archives."""
    j1, p1, j2 = sample_images()
    good_tar, good_zip = good_archives(j1, p1, j2)
    A("a-truncated", ".tar.gz", gz(good_tar)[:len(gz(good_tar)) // 2], REFUSED, None, "a tar.gz cut in half", q=True)
    A("a-truncated", ".zip", good_zip[:len(good_zip) // 2], REFUSED, None, "a zip cut in half (no central directory)")
    A("a-truncated", ".tar", good_tar[:len(good_tar) - 1500], REFUSED, None, "a tar cut inside its last file")
    A("a-tar-no-end-blocks", ".tar", tar(tar_member("1.jpg", j1), tar_member("2.png", p1), end=False), CONVERTED, 2,
      "a tar without the two zero blocks at its end, cut at an entry boundary: read as complete")
    A("a-garbage", ".cbz", random.Random("garbage-cbz").randbytes(5000), REFUSED, None,
      "random bytes named .cbz: the name makes it a comic, libarchive finds no archive", q=True)
    A("a-garbage-after-gzip-header", ".tar.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" +
      random.Random("garbage-gz").randbytes(3000), REFUSED, None, "a gzip header followed by random bytes")
    A("a-empty", ".zip", end_record(), REFUSED, None, "an empty zip: no image")
    A("a-empty", ".tar", bytes(1024), REFUSED, None, "an empty tar (two zero blocks): no image")
    A("a-zero-bytes", ".tar.gz", b"", REFUSED, None, "an empty file named .tar.gz")


def not_an_image_cases():
    """Entries that are not images, or not images convert may read."""
    j1, p1, j2 = sample_images()
    good_tar, good_zip = good_archives(j1, p1, j2)
    A("a-html-as-jpg", ".tar.gz", gz(tar(tar_member("cover.jpg", HTML), tar_member("1.jpg", j1))), CONVERTED, 1,
      "an HTML page named cover.jpg beside a JPEG: skipped as not a JPEG or PNG", q=True)
    A("a-html-only", ".zip", foreign_zip([("cover.jpg", HTML), ("page.png", HTML)]), REFUSED, None,
      "only HTML pages named .jpg and .png: no image, refused", q=True)
    A("a-nested-archive", ".tar.gz", gz(tar(tar_member("inner.tar.gz", gz(good_tar)), tar_member("inner.zip", good_zip),
                                            tar_member("1.jpg", j1))), CONVERTED, 1,
      "archives inside the archive are not opened: skipped as not images")
    A("a-jpeg-65500-squared", ".tar", tar(tar_member("huge.jpg", jpeg_set_dims(make_jpeg(16, 16, 41), 65500, 65500)),
                                          tar_member("good.png", p1)), CONVERTED, None,
      "a JPEG whose frame says 65500x65500: imported (its header parses) or skipped by the imaging limits")
    A("a-encrypted", ".zip", foreign_zip([("secret.jpg", bytes(12) + j1, 0, {"h_flags": 0x0801}), ("good.jpg", p1)]),
      CONVERTED, 1, "an entry flagged encrypted (traditional PKWARE): skipped")
    A("a-duplicate-names", ".zip", foreign_zip([("1.jpg", j1), ("1.jpg", j2), ("1.JPG", p1)]), CONVERTED, 3,
      "the same name twice and once in other case: nothing is extracted by name, so all three are images")
    A("a-local-central-names-differ", ".zip",
      foreign_zip([("good.jpg", p1), ("listed.jpg", j1, 8, {"lname": b"../imagegallery-hostile-corpus-local.jpg"})]),
      CONVERTED, None, "the local header names ../..., the central directory listed.jpg: imported or skipped, never "
      "written under either name")


def comic_info_cases():
    """ComicInfo.xml that is hostile, huge or wrong."""
    j1, p1, j2 = sample_images()
    ci = comic_info("Hostile Comic", pages=[2, 1, 0])
    laughs = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
              + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                         for i in range(1, 10))
              + b"]>\n<ComicInfo><Title>&lol9;</Title></ComicInfo>\n")
    A("a-comic-billion-laughs", ".cbz", foreign_zip([("ComicInfo.xml", laughs), ("1.jpg", j1, 0), ("2.png", p1, 0)]),
      CONVERTED, 2, "a ComicInfo.xml with nested entity declarations (billion laughs): not used (a note), no expansion",
      q=True)
    A("a-comic-huge-info", ".cbz",
      foreign_zip([("ComicInfo.xml", comic_info("Big", extra=b"<Summary>" + b"x" * (2 << 20) + b"</Summary>\n")),
                   ("1.jpg", j1, 0), ("2.png", p1, 0)]),
      CONVERTED, 2, "a 2 MiB ComicInfo.xml (limit 1 MiB): not used (a note)")
    A("a-comic-bad-pages", ".cbz",
      foreign_zip([("ComicInfo.xml", comic_info("Odd pages", pages=[99999999999999999999, -1, 1, 1, "x"])),
                   ("1.jpg", j1, 0), ("2.png", p1, 0)]),
      CONVERTED, 2, "Page Image indexes 10^20, -1, a repeat and 'x': noted and ignored, every image kept")
    A("a-comic-only-info", ".cbt", tar(tar_member("ComicInfo.xml", ci)), REFUSED, None,
      "a comic of ComicInfo.xml alone")


def entry_count_cases():
    """More entries than the 200,000 bound."""
    j1, p1, j2 = sample_images()
    if want(False):
        # 200,001 entries (limit 200,000), xz-compressed
        tmpl = bytearray(tar_header("", size=0))
        tmpl[148:156] = b" " * 8
        base_sum = sum(tmpl)
        heads = []
        for i in range(200001):
            nm = b"e/%x" % i
            h = bytearray(tmpl)
            h[0:len(nm)] = nm
            h[148:156] = b"%06o\x00 " % (base_sum + sum(nm))
            heads.append(bytes(h))
        A("a-200001-entries", ".tar.xz", lzma.compress(b"".join(heads) + bytes(1024), format=lzma.FORMAT_XZ, preset=1),
          REFUSED, None,
          "200,001 empty entries: over the 200,000 entry bound, refused")
