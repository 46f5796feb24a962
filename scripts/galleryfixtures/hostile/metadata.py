"""Family e-: hostile image metadata (issue 32), in images whose pixels are fine, for the readers
of `info --privacy`, `list --privacy` and `strip`: EXIF directories that loop (IFD0's next
pointer to itself, the Exif IFD pointer to IFD0, the GPS IFD shared with the Exif IFD, IFD1's
next pointer back to IFD0), directory offsets past the end of the block, an entry count of
65,535 in a 100-byte block, value counts of 0xFFFFFFFF and of 2^29 rationals (2^32 bytes, 0 in
32-bit arithmetic); XMP packets left unclosed (an element, an attribute, a comment), nested
9,000 deep in one APP1 segment and 100,000 deep in extended XMP, extended XMP that declares
100 MB or puts a chunk past its own length; the same EXIF loop in a PNG eXIf chunk and a WebP
EXIF chunk, unclosed XMP in PNG iTXt, WebP and GIF; and AVIF and HEIC `Exif` items (sunset.avif
and sunset.heic of Fixtures/format-2.0 rewritten by make-hostile-images.py's box writer) whose
extent runs on into the image's data, lies inside the meta box, or lies past the end of the
file, an XMP item sharing the Exif item's bytes, and one Exif item that describes (cdsc) two
images, in one reference and in two.

Every gallery is valid, --deep included (the metadata is no part of what validate checks, and
no decoder needs it), so that every command reaches the metadata, with two exceptions: the item
past the end of the file, which the box reader refuses as it does every iloc extent outside
the file (IG-BLB-017, found without decoding), and the HEIC whose Exif item describes two
images in one reference, which libheif 1.15 refuses to open ("Metadata not correctly assigned
to image"): its verdict is left open (only crash, hang and memory count), as --deep, thumbnail
and convert may refuse it. The images carry GPS coordinates, a city, serial numbers, an owner
and an artist where the structure lets a reader find them, so a privacy report has something to
find. A blob of more than 300 KiB (the 100,000-deep extended XMP, 700 KB) is DEFLATED in its
gallery (valid, not canonical) so that the file stays in Fixtures/hostile; its chunks follow the
frame header, because validate reads a deflated blob's header from its first 256 KiB only.
"""

import functools
import hashlib
import importlib.util
import struct
import zlib
from pathlib import Path

from ..png import png_chunk
from .gallery import G, uuid4
from .images import gif_bytes, jpeg_join, jpeg_split, make_jpeg, make_png
from .output import U, V, X

F = "metadata"
BYTE, ASCII, SHORT, LONG, RATIONAL = 1, 2, 3, 4, 5
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8}
XMP_NAME = b"http://ns.adobe.com/xap/1.0/\x00"
EXTENSION_NAME = b"http://ns.adobe.com/xmp/extension/\x00"
MEDIA = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
         "avif": "image/avif", "heic": "image/heic"}


# MARK: EXIF

def text(tag, value):
    return (tag, ASCII, value.encode("utf-8") + b"\x00")


def rationals(tag, *pairs):
    return (tag, RATIONAL, b"".join(struct.pack(">II", n, d) for n, d in pairs))


def directories():
    """A camera's EXIF: IFD0 (make, artist, copyright, pointers), the Exif IFD (capture time,
    owner, serial numbers) and the GPS IFD (48.8584 N, 2.2945 E, 35 m)."""
    ifd0 = [text(0x010F, "HostileCam"), text(0x0110, "HC-1"), (0x0112, SHORT, struct.pack(">H", 1)),
            text(0x013B, "Corpus Artist"), text(0x8298, "(c) Corpus Copyright"), (0x8769, LONG, "Exif"),
            (0x8825, LONG, "GPS")]
    exif = [text(0x9003, "2024:05:01 12:34:56"), text(0xA430, "Corpus Owner"), text(0xA431, "BODY-0042-7781"),
            text(0xA435, "LENS-0099-1204")]
    gps = [(0x0000, BYTE, bytes([2, 3, 0, 0])), text(0x0001, "N"), rationals(0x0002, (48, 1), (51, 1), (3024, 100)),
           text(0x0003, "E"), rationals(0x0004, (2, 1), (17, 1), (4020, 100)), (0x0005, BYTE, b"\x00"),
           rationals(0x0006, (35, 1))]
    return [("IFD0", ifd0), ("Exif", exif), ("GPS", gps)]


def exif_block(dirs=None):
    """A big-endian TIFF structure: each directory in turn, then its values of more than four
    bytes. An entry whose value is a directory's name points to that directory. Returns the
    block and where things are: at[name] is a directory, at[(name, tag)] an entry, at[(name,
    "next")] a directory's next-directory pointer."""
    dirs = directories() if dirs is None else dirs
    at, offset = {}, 8
    for name, entries in dirs:
        at[name] = offset
        offset += 6 + 12 * len(entries)
        offset += sum(len(v) + len(v) % 2 for _, _, v in entries if not isinstance(v, str) and len(v) > 4)
    block = bytearray(b"MM\x00\x2a" + struct.pack(">I", 8))
    for name, entries in dirs:
        assert len(block) == at[name]
        data_at = at[name] + 6 + 12 * len(entries)
        table, data = bytearray(struct.pack(">H", len(entries))), bytearray()
        for index, (tag, kind, value) in enumerate(entries):
            at[(name, tag)] = at[name] + 2 + 12 * index
            if isinstance(value, str):
                count, field = 1, struct.pack(">I", at[value])
            elif len(value) > 4:
                count, field = len(value) // SIZES[kind], struct.pack(">I", data_at + len(data))
                data += value + bytes(len(value) % 2)
            else:
                count, field = len(value) // SIZES[kind], value.ljust(4, b"\x00")
            table += struct.pack(">HHI", tag, kind, count) + field
        at[(name, "next")] = at[name] + len(table)
        block += table + bytes(4) + data
    return block, at


def put32(block, offset, value):
    block[offset:offset + 4] = struct.pack(">I", value)
    return block


def exif_cases():
    """(name, what, TIFF structure) of every hostile EXIF block."""
    cases = []
    block, at = exif_block()
    cases.append(("ifd0-next-loop", "IFD0's next-directory pointer points back at IFD0",
                  put32(bytearray(block), at[("IFD0", "next")], at["IFD0"])))
    cases.append(("exif-ifd-is-ifd0", "the Exif IFD pointer (0x8769) points at IFD0, which holds it",
                  put32(bytearray(block), at[("IFD0", 0x8769)] + 8, at["IFD0"])))
    shared = put32(bytearray(block), at[("IFD0", 0x8825)] + 8, at["Exif"])
    cases.append(("gps-ifd-is-exif-ifd", "the GPS IFD pointer (0x8825) points at the Exif IFD: one directory read"
                  " as both, so that removing the GPS directory's entries removes the serial numbers", shared))
    with_ifd1 = directories() + [("IFD1", [(0x0103, SHORT, struct.pack(">H", 6))])]
    chained, chain_at = exif_block(with_ifd1)
    put32(chained, chain_at[("IFD0", "next")], chain_at["IFD1"])
    cases.append(("ifd1-next-ifd0", "IFD0's next directory is IFD1, whose next directory is IFD0 again",
                  put32(chained, chain_at[("IFD1", "next")], chain_at["IFD0"])))
    cases.append(("ifd0-past-end", "the TIFF header puts IFD0 at byte %d of a %d-byte block"
                  % (len(block) + 1000, len(block)), put32(bytearray(block), 4, len(block) + 1000)))
    cases.append(("exif-ifd-past-end", "the Exif IFD pointer is 0xFFFFFF00 in a %d-byte block" % len(block),
                  put32(bytearray(block), at[("IFD0", 0x8769)] + 8, 0xFFFFFF00)))
    cases.append(("gps-ifd-past-end", "the GPS IFD pointer is %d, just past the end of the %d-byte block"
                  % (len(block) + 4, len(block)), put32(bytearray(block), at[("IFD0", 0x8825)] + 8, len(block) + 4)))
    runs = put32(bytearray(block) + struct.pack(">H", 40), at[("IFD0", 0x8825)] + 8, len(block))
    cases.append(("gps-ifd-runs-past-end", "the GPS IFD is the last 2 bytes of the block and says it has 40"
                  " entries (482 bytes)", runs))
    cases.append(("entry-count-65535", "IFD0 says it has 65,535 entries (786,426 bytes) in a block of 100 bytes",
                  count_overflow_block()))
    counts = bytearray(block)
    struct.pack_into(">I", counts, at[("IFD0", 0x013B)] + 4, 0xFFFFFFFF)
    struct.pack_into(">I", counts, at[("GPS", 0x0002)] + 4, 0xFFFFFFFF)
    cases.append(("value-count-4G", "the Artist (ASCII) and GPSLatitude (RATIONAL) entries give a count of"
                  " 0xFFFFFFFF, values of 4 GiB and 32 GiB", counts))
    wraps = bytearray(block)
    struct.pack_into(">I", wraps, at[("GPS", 0x0002)] + 4, 0x20000000)
    struct.pack_into(">I", wraps, at[("GPS", 0x0004)] + 4, 0x20000001)
    cases.append(("value-size-wraps-32bit", "GPSLatitude gives 2^29 rationals (2^32 bytes, 0 in 32-bit arithmetic)"
                  " and GPSLongitude 2^29 + 1 (8 bytes in 32-bit arithmetic)", wraps))
    return cases


def count_overflow_block():
    """100 bytes: IFD0 at 8 says 65,535 entries and holds five (make, orientation, artist,
    copyright and a GPS pointer to an empty directory), then zeros."""
    entries = [struct.pack(">HHI", 0x010F, ASCII, 3) + b"HC\x00\x00",
               struct.pack(">HHIH", 0x0112, SHORT, 1, 1) + bytes(2),
               struct.pack(">HHI", 0x013B, ASCII, 3) + b"JA\x00\x00",
               struct.pack(">HHI", 0x8298, ASCII, 2) + b"C\x00\x00\x00",
               struct.pack(">HHII", 0x8825, LONG, 1, 8 + 2 + 12 * 5)]
    block = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 0xFFFF) + b"".join(entries) + bytes(6)
    return (block + bytes(100 - len(block)))[:100]


# MARK: XMP

def packet(body, about="", close=True):
    """An XMP packet whose rdf:Description holds `body` (and declares the namespaces the
    cases use); `close=False` leaves everything after the body out."""
    head = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
            '<rdf:Description rdf:about="%s" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"'
            ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:exif="http://ns.adobe.com/exif/1.0/"'
            ' xmlns:xmpNote="http://ns.adobe.com/xmp/note/"'
            ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' % about)
    tail = '\n</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>' if close else ""
    return (head + body + tail).encode("utf-8")


PRIVATE = ('<photoshop:City>Paris</photoshop:City><exif:GPSLatitude>48,51.504N</exif:GPSLatitude>'
           '<dc:creator><rdf:Seq><rdf:li>Corpus Creator</rdf:li></rdf:Seq></dc:creator>')
UNCLOSED = {
    "element": ('>' + PRIVATE + '<photoshop:State>Ile-de-France<dc:creator><rdf:Seq><rdf:li>Corpus Creator',
                "an element (photoshop:State) and the packet are never closed"),
    "attribute": (' photoshop:City="Paris" exif:GPSLatitude="48,51.504N', "an attribute value's quote is never closed"),
    "comment": ('>' + PRIVATE + '<!-- <photoshop:Country>France</photoshop:Country>',
                "a comment is never closed"),
}


def nested(depth):
    """A LocationShown whose city follows `depth` nested elements."""
    return ('><Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource">' + "<a>" * depth + "</a>" * depth
            + '<Iptc4xmpExt:City>Paris</Iptc4xmpExt:City></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>' + PRIVATE)


def extended(guid, full_length, offset, data):
    """An extended-XMP APP1 segment's payload (XMP part 3, 1.1.3.1)."""
    return EXTENSION_NAME + guid + struct.pack(">II", full_length, offset) + data


def extended_segments(body, full_length=None, offsets=None, step=65400):
    """APP1 payloads: the main packet naming the extended one by its GUID, then the extended
    packet in chunks of `step` bytes (at `offsets` when given, each chunk `step` bytes)."""
    guid = hashlib.md5(body).hexdigest().upper().encode("ascii")
    main = packet('><xmpNote:HasExtendedXMP>%s</xmpNote:HasExtendedXMP>' % guid.decode())
    pieces = [(at, body[at:at + step]) for at in range(0, len(body), step)]
    if offsets is not None:
        pieces = [(at, body[i * step:(i + 1) * step]) for i, at in enumerate(offsets)]
    total = len(body) if full_length is None else full_length
    return [XMP_NAME + main] + [extended(guid, total, at, piece) for at, piece in pieces]


def xmp_cases():
    """(name, what, [APP1 payloads before the frame header], [after it]) of every hostile XMP in
    a JPEG."""
    cases = [("xmp-unclosed-" + key, what, [XMP_NAME + packet(body, close=False)], [])
             for key, (body, what) in UNCLOSED.items()]
    room = 65533 - len(XMP_NAME) - len(packet(nested(0)))
    depth = room // 7
    cases.append(("xmp-nested-%d" % depth, "%d nested elements before a LocationShown's city, in one APP1 segment"
                  % depth, [XMP_NAME + packet(nested(depth))], []))
    # The chunks follow the frame header (APPn segments may, ITU T.81 B.2.4), so that a reader
    # finds the size in the first bytes of the blob, which is DEFLATED to keep the gallery small.
    deep = packet(nested(100000), about="deep")
    main, *chunks = extended_segments(deep)
    cases.append(("xmp-extended-nested-100k", "extended XMP of %d bytes in %d chunks after the frame header: 100,000"
                  " nested elements before a LocationShown's city" % (len(deep), len(chunks)), [main], chunks))
    lie = packet('>' + PRIVATE, about="lie")
    cases.append(("xmp-extended-100MB", "extended XMP whose chunks declare a full length of 100,000,000 bytes and"
                  " hold %d, at offsets 0 and 99,999,000" % len(lie),
                  extended_segments(lie, 100000000, [0, 99999000], step=len(lie) // 2 + 1), []))
    cases.append(("xmp-extended-offset-past-length", "an extended-XMP chunk at offset 0xFFFFFF00 of a"
                  " %d-byte packet" % len(lie), extended_segments(lie, len(lie), [0xFFFFFF00], step=len(lie)), []))
    return cases


# MARK: Containers

def in_jpeg(app1s, after_frame=()):
    """A 64 x 48 JPEG with these APP1 payloads after its JFIF segment (and `after_frame` after
    its frame header)."""
    segments, rest = jpeg_split(make_jpeg(64, 48, seed=32))
    for payload in list(app1s) + list(after_frame):
        assert len(payload) <= 65533, len(payload)
    frame = [marker for marker, _ in segments].index(0xC0) + 1
    return jpeg_join(segments[:1] + [(0xE1, payload) for payload in app1s] + segments[1:frame]
                     + [(0xE1, payload) for payload in after_frame] + segments[frame:], rest)


def in_png(kind, data):
    """A 64 x 48 PNG with one more chunk before its image data."""
    return make_png(64, 48, seed=32, before=(png_chunk(kind, data),))


@functools.lru_cache(maxsize=None)
def box_writer():
    """make-hostile-images.py, whose Heif parses and writes AVIF and HEIC, and WebP chunks."""
    path = Path(__file__).resolve().parents[2] / "make-hostile-images.py"
    spec = importlib.util.spec_from_file_location("make_hostile_images", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_webp(kind, data):
    """Fixtures/format-2.0/lossy.webp (800 x 600, VP8) in a VP8X file with one metadata chunk."""
    m = box_writer()
    lossy = (m.SAMPLES / "lossy.webp").read_bytes()
    assert lossy[12:16] == b"VP8 "
    return m.riff(m.vp8x(0x08 if kind == b"EXIF" else 0x04, 800, 600), lossy[12:], m.chunk(kind, data))


def in_gif(xmp):
    """A 1 x 1 GIF with an XMP application extension (the packet, then the 258-byte magic
    trailer that makes it read as sub-blocks) before its image."""
    gif = gif_bytes()
    trailer = b"\x01" + bytes(range(255, -1, -1)) + b"\x00"
    return gif[:19] + b"\x21\xff\x0bXMP DataXMP" + xmp + trailer + gif[19:]


def gallery(name, blob, ext, width, height):
    """The one image in a sound gallery (format 2.0 for WebP, GIF, AVIF and HEIC). A blob of more
    than 300 KiB is DEFLATED."""
    g = G(f"metadata:{name}", ())
    if ext in ("jpg", "png"):
        g.add(blob, MEDIA[ext], width, height)
    else:
        g.m["formatVersion"] = "2.0"
        sha = hashlib.sha256(blob).hexdigest()
        g.m["images"].append(dict(id=uuid4(g.rng), path=f"images/{sha}.{ext}", mediaType=MEDIA[ext], width=width,
                                  height=height, byteSize=len(blob), sha256=sha))
        g.blobs[f"images/{sha}.{ext}"] = blob
    return g.zip(bmethod=8 if len(blob) > 300 * 1024 else 0)


def valid(name, blob, ext, size, what, q=False):
    V(name, gallery(name, blob, ext, *size), what + " (the image's pixels are fine)", deep=True, family=F, q=q)


# MARK: HEIF

def exif_item_data():
    """An Exif item's data: a 4-byte offset (0) to the TIFF structure, then a camera's EXIF."""
    return struct.pack(">I", 0) + bytes(exif_block()[0])


def iloc_entry(data, item):
    """Where the iloc entry of `item` lies in a file Heif.build wrote (version 0, 4-byte offsets
    and lengths, one extent): its offset field is at +6, its length at +10."""
    m = box_writer()
    offset, header, _ = m.find_box(data, [b"meta", b"iloc"])
    count = struct.unpack(">H", data[offset + header + 6:offset + header + 8])[0]
    for index in range(count):
        at = offset + header + 8 + 14 * index
        if struct.unpack(">H", data[at:at + 2])[0] == item:
            return at
    raise KeyError(item)


def heif_with_exif(kind, exif_first=False, copies=1):
    """sunset.avif or sunset.heic with an Exif item describing its image: item 1 (and 2 ...,
    `copies` images of the same data) then the Exif item, or the Exif item first (item 1) when
    `exif_first`."""
    m = box_writer()
    sample = m.Heif.parse((m.SAMPLES / f"sunset.{kind}").read_bytes())
    image = sample.items[sample.primary]
    exif = m.Item(b"Exif", exif_item_data(), hidden=True)
    first = 2 if exif_first else 1
    items = {first + i: m.Item(image.kind, image.data, image.props) for i in range(copies)}
    exif_id = 1 if exif_first else first + copies
    items[exif_id] = exif
    images = sorted(i for i in items if i != exif_id)
    return m.Heif(sample.brands, sample.hdlr, images[0], items, [(b"cdsc", exif_id, images)]), exif_id, images


def heif_cases(kind):
    """(name, what, file, verdict) for one of avif and heic: verdict "deep" (valid, --deep
    included), "open" (libheif refuses it) or "refused" (IG-BLB-017)."""
    heif, exif_id, _ = heif_with_exif(kind, exif_first=True)
    data = bytearray(heif.build())
    entry = iloc_entry(data, exif_id)
    length = struct.unpack(">I", data[entry + 10:entry + 14])[0]
    put32(data, entry + 10, length + 256)
    cases = [("exif-overlaps-image", "an Exif item (item 1, a sound EXIF with GPS) whose iloc extent runs 256 bytes on"
              " into the primary image's data", bytes(data), "deep")]
    heif, exif_id, _ = heif_with_exif(kind)
    good = heif.build()
    meta_at, _, meta_size = box_writer().find_box(good, [b"meta"])
    data = put32(bytearray(good), iloc_entry(good, exif_id) + 6, meta_at + 12)
    put32(data, iloc_entry(good, exif_id) + 10, meta_size - 12)
    cases.append(("exif-extent-in-meta", "an Exif item whose iloc extent is the meta box's own boxes (hdlr, pitm,"
                  " iloc, iinf, iref, iprp: %d bytes from byte %d)" % (meta_size - 12, meta_at + 12), bytes(data), "deep"))
    data = put32(bytearray(good), iloc_entry(good, exif_id) + 6, len(good) + 4096)
    cases.append(("exif-extent-past-eof", "an Exif item whose iloc extent starts 4,096 bytes past the end of the"
                  " file", bytes(data), "refused"))
    heif, exif_id, images = heif_with_exif(kind, copies=2)
    # libheif 1.15 refuses a metadata item that describes more than one image ("Metadata not
    # correctly assigned to image"), libavif 0.11 does not.
    cases.append(("exif-cdsc-two-images", "one Exif item that describes (cdsc, one reference) two images, items 1"
                  " and 2 (the same coded image)", heif.build(), "open" if kind == "heic" else "deep"))
    heif.refs = [(b"cdsc", exif_id, [image]) for image in images]
    cases.append(("exif-cdsc-two-boxes", "one Exif item that describes two images in two cdsc references from"
                  " the same item (a writer gives one reference listing both)", heif.build(), "deep"))
    heif, exif_id, images = heif_with_exif(kind)
    mime = box_writer().Item(b"mime", b"", name=b"\x00application/rdf+xml", hidden=True)
    heif.items[exif_id + 1] = mime
    heif.refs.append((b"cdsc", exif_id + 1, images))
    data = bytearray(heif.build())
    exif_entry, xmp_entry = iloc_entry(data, exif_id), iloc_entry(data, exif_id + 1)
    data[xmp_entry + 6:xmp_entry + 14] = data[exif_entry + 6:exif_entry + 14]
    cases.append(("xmp-item-shares-exif", "an XMP item (mime, application/rdf+xml) whose iloc extent is the Exif"
                  " item's", bytes(data), "deep"))
    return cases


def fam_metadata():
    for index, (name, what, block) in enumerate(exif_cases()):
        valid(f"e-jpeg-exif-{name}", in_jpeg([b"Exif\x00\x00" + bytes(block)]), "jpg", (64, 48),
              "a JPEG whose APP1 EXIF is hostile: " + what, q=index % 2 == 0)
    for name, what, before, after in xmp_cases():
        valid(f"e-jpeg-{name}", in_jpeg(before, after), "jpg", (64, 48), "a JPEG whose XMP is hostile: " + what,
              q=name.endswith(("element", "100MB")))
    loop = exif_cases()[0]
    body, what = UNCLOSED["element"]
    valid("e-png-exif-ifd0-next-loop", in_png(b"eXIf", bytes(loop[2])), "png", (64, 48),
          "a PNG whose eXIf chunk is hostile: " + loop[1], q=True)
    valid("e-png-xmp-unclosed-element", in_png(b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00"
                                                + packet(body, close=False)),
          "png", (64, 48), "a PNG whose iTXt XMP is hostile: " + what)
    valid("e-webp-exif-ifd0-next-loop", in_webp(b"EXIF", bytes(loop[2])), "webp", (800, 600),
          "a WebP whose EXIF chunk is hostile: " + loop[1], q=True)
    valid("e-webp-xmp-unclosed-element", in_webp(b"XMP ", packet(body, close=False)), "webp", (800, 600),
          "a WebP whose XMP chunk is hostile: " + what)
    valid("e-gif-xmp-unclosed-element", in_gif(packet(body, close=False)), "gif", (1, 1),
          "a GIF whose XMP application extension is hostile: " + what, q=True)
    for kind in ("avif", "heic"):
        for name, what, data, verdict in heif_cases(kind):
            note = f"sunset.{kind} with " + what
            if verdict == "deep":
                valid(f"e-{kind}-{name}", data, kind, (800, 600), note, q=name.startswith("exif-overlaps"))
            elif verdict == "open":
                U(f"e-{kind}-{name}", gallery(f"e-{kind}-{name}", data, kind, 800, 600),
                  note + " (verdict open: libheif 1.15 refuses the file, 'Metadata not correctly assigned to image',"
                  " so --deep, thumbnail and convert may refuse it; only crash, hang and memory count)", deep=True,
                  family=F)
            else:
                X(f"e-{kind}-{name}", gallery(f"e-{kind}-{name}", data, kind, 800, 600), "BLB", ids=["IG-BLB-017"],
                  note=note + " (the box reader refuses it: IG-BLB-017)", family=F, q=True)
