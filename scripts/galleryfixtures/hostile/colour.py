"""Family p-: hostile colour profiles (issue 31), each in a sound JPEG (APP2 ICC_PROFILE) or PNG
(iCCP) whose pixels are fine: tag counts and offsets out of range, overlapping tags, lookup tables
that multiply to gigabytes, truncated and zero-length profiles, APP2 segments out of sequence, an
iCCP zlib bomb, a profile Little CMS opens but cannot convert from, and a CMYK profile on RGB
pixels. Every gallery is valid (the profile is a warning, IG-BLB-020 or IG-BLB-021) and every
command reads the image as sRGB, within the corpus's bounds. The embedded thumbnail is the grey
placeholder, so `thumbnail` decodes the image and meets the profile."""

import struct
import zlib

from .gallery import G
from .images import jpeg_join, jpeg_split, make_jpeg, make_png, zlib_zeros
from .output import V


def icc(tags, space=b"RGB ", declared=None, count=None):
    """An ICC profile: a 128-byte header, the tag table and the data after it. Each tag is
    (signature, payload), laid out in order on four-byte boundaries, or (signature, offset, size)
    written into the table as it is. `declared` overrides the size the header gives, `count`
    the number of tags."""
    data_at = 128 + 4 + 12 * len(tags)
    table, body = [], bytearray()
    for tag in tags:
        if len(tag) == 3:
            table.append(tag)
            continue
        signature, payload = tag
        table.append((signature, data_at + len(body), len(payload)))
        body += payload + bytes(-len(payload) % 4)
    total = data_at + len(body)
    header = bytearray(128)
    struct.pack_into(">I", header, 0, total if declared is None else declared)
    header[4:8] = b"lcms"
    struct.pack_into(">I", header, 8, 0x04300000)
    header[12:16] = b"mntr"
    header[16:20] = space
    header[20:24] = b"XYZ "
    header[36:40] = b"acsp"
    entries = struct.pack(">I", len(tags) if count is None else count)
    entries += b"".join(struct.pack(">4sII", *entry) for entry in table)
    return bytes(header) + entries + bytes(body)


def xyz(x, y, z):
    return b"XYZ " + bytes(4) + struct.pack(">iii", int(x * 65536), int(y * 65536), int(z * 65536))


def curve(gamma):
    return b"curv" + bytes(4) + struct.pack(">IH", 1, int(gamma * 256)) + bytes(2)


def in_jpeg(profile, segments=None):
    """A 64 x 48 JPEG carrying `profile` in APP2 ICC_PROFILE segments (one, unless `segments`
    gives the (sequence, count, bytes) of each)."""
    segs, rest = jpeg_split(make_jpeg(64, 48, seed=31))
    app2 = [(0xE2, b"ICC_PROFILE\x00" + bytes([n, c]) + part) for n, c, part in (segments or [(1, 1, profile)])]
    return jpeg_join(segs[:1] + app2 + segs[1:], rest)


def in_png(stream):
    """A 64 x 48 PNG whose iCCP chunk holds the zlib `stream`."""
    png = make_png(64, 48, seed=31)
    chunk = b"iCCP" + b"icc\x00\x00" + stream
    return png[:33] + struct.pack(">I", len(chunk) - 4) + chunk + struct.pack(">I", zlib.crc32(chunk)) + png[33:]


def case(name, note, blob, media):
    gg = G(f"img-{name}", ())
    gg.add(blob, media, 64, 48)
    V(name, gg.zip(), note + " (a warning; the image is read as sRGB)", family="colour", q=True)


def fam_colour():
    trc = curve(2.2)
    sound = [(b"rXYZ", xyz(0.4361, 0.2225, 0.0139)), (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
             (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)), (b"wtpt", xyz(0.9642, 1.0, 0.8249)), (b"rTRC", trc)]

    case("p-icc-tag-count-4G", "an ICC profile whose tag table claims 4,294,967,295 tags",
         in_jpeg(icc(sound, count=0xFFFFFFFF)), "image/jpeg")
    case("p-icc-tag-past-end", "an ICC profile whose rTRC tag lies at byte 100,000 of a 260-byte profile",
         in_jpeg(icc(sound[:4] + [(b"rTRC", 100000, 14)])), "image/jpeg")
    # Five tags: the data starts at 192, wtpt is the fourth 20-byte tag (252 to 272).
    case("p-icc-tags-overlap", "an ICC profile whose rTRC tag starts inside its wtpt tag",
         in_jpeg(icc(sound[:4] + [(b"rTRC", 260, 8)])), "image/jpeg")
    # mft2 with 8 inputs and a grid of 255 points: 255^8 entries, about 1.8e19 (ICC.1, 10.10).
    mft2 = b"mft2" + bytes(4) + bytes([8, 3, 255, 0]) + bytes(36) + struct.pack(">HH", 2, 2) + bytes(64)
    case("p-icc-mft2-gigabytes", "an ICC profile whose A2B0 mft2 table has 8 inputs on a 255-point grid "
         "(255^8 entries) in %d bytes" % len(mft2), in_png(zlib.compress(icc(sound + [(b"A2B0", mft2)]), 9)), "image/png")
    # mAB with a CLUT of 15 inputs by 255 points, in a few bytes (ICC.1, 10.12).
    clut = bytes([255] * 15 + [0]) + bytes([1, 0, 0, 0]) + bytes(16)
    mab = b"mAB " + bytes(4) + bytes([15, 3, 0, 0]) + struct.pack(">IIIII", 0, 0, 0, 32, 0) + clut
    case("p-icc-mab-gigabytes", "an ICC profile whose A2B0 mAB CLUT has 15 inputs of 255 grid points",
         in_jpeg(icc(sound + [(b"A2B0", mab)])), "image/jpeg")
    whole = icc(sound)
    case("p-icc-truncated", "an ICC profile that says it is %d bytes and holds 100" % len(whole),
         in_jpeg(whole[:100]), "image/jpeg")
    case("p-icc-zero-length", "an APP2 ICC_PROFILE segment, 1 of 1, holding no profile bytes",
         in_jpeg(b""), "image/jpeg")
    case("p-icc-app2-out-of-sequence", "an ICC profile split over APP2 segments numbered 2 and 3 of 2",
         in_jpeg(whole, [(2, 2, whole[:80]), (3, 2, whole[80:])]), "image/jpeg")
    case("p-iccp-bomb-16MiB", "an iCCP profile inflating to 16 MiB of zeros, past the 4 MiB limit",
         in_png(zlib_zeros(16 << 20)), "image/png")
    case("p-icc-no-tags", "a sound RGB profile header with no tags: Little CMS opens it and cannot convert from it",
         in_png(zlib.compress(icc([]), 9)), "image/png")
    case("p-icc-cmyk-on-rgb", "a CMYK profile on an RGB JPEG", in_jpeg(icc(sound, space=b"CMYK")), "image/jpeg")
    case("p-icc-grey-on-rgb", "a grey profile on an RGB PNG",
         in_png(zlib.compress(icc([(b"kTRC", trc)], space=b"GRAY"), 9)), "image/png")
