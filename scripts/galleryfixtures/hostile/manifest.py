"""Family m-: manifests (6, 8): required members, JSON types, format and version, UUIDs, strings
and their limits, date-times, integers, blob references, media types, image ids. The manifest as
JSON text (sizes, nesting, numbers, keys, encodings, syntax) follows in manifestjson.py."""

import hashlib

from .gallery import DELETE, R, base_with_thumbnail, raw_subst, setp, std_image
from .output import V, X, slug, want

F = "manifest"


def M(name, cat, ids, note, mutate=None, text=None, q=False, valid=False, stored=False, **more):
    """m-<name>: the base gallery whose manifest `mutate` changed (or whose manifest text is `text`),
    invalid with category `cat` (ids: acceptable first ids) unless `valid`."""
    if not want(q):
        return
    gg = base_with_thumbnail()
    if mutate is not None:
        mutate(gg.m)
    t = raw_subst(gg.text()) if text is None else text(gg)
    data = gg.zip(mtext=t, mmethod=0 if stored else 8)
    if valid:
        V(f"m-{name}", data, note, family=F, q=True)
    else:
        X(f"m-{name}", data, cat, ids, note, family=F, q=True, **more)


def S(path, value):
    """A mutation setting the member at `path` (see setp)."""
    return lambda m: setp(m, path, value)


def fam_manifest():
    for cases in (required_member_cases, json_type_cases, format_version_cases, uuid_cases, string_cases,
                  date_time_cases, integer_cases, blob_reference_cases):
        cases()


def required_member_cases():
    """Required members (6.3, 6.4) left out, one at a time."""
    for k in ["format", "formatVersion", "id", "revision", "title", "created", "modified", "images"]:
        ids = {"format": ["IG-MAN-006", "IG-MAN-009"], "formatVersion": ["IG-MAN-006", "IG-MAN-010"]}.get(k, ["IG-MAN-006"])
        M(f"missing-{k}", "MAN", ids, f"required member {k} missing", S((k,), DELETE), q=(k == "title"))
    for k in ["id", "path", "mediaType", "width", "height", "byteSize", "sha256"]:
        M(f"missing-image-{k}", "MAN", ["IG-MAN-006"], f"images[0].{k} missing", S(("images", 0, k), DELETE),
          q=(k == "sha256"))


def json_type_cases():
    """Members of the wrong JSON type, and a top level that is not an object."""
    types = [(("format",), 1, ["IG-MAN-007", "IG-MAN-009"]), (("formatVersion",), R("1.0"), ["IG-MAN-007", "IG-MAN-010"]),
             (("id",), None, []), (("revision",), 5, []), (("title",), ["x"], []), (("title",), None, []),
             (("created",), 1, []), (("modified",), True, []), (("generator",), 3, []), (("images",), {}, []),
             (("images",), None, []), (("images",), "x", []),
             (("images", 0, "id"), 7, []), (("images", 0, "path"), [], []), (("images", 0, "mediaType"), {}, []),
             (("images", 0, "width"), "64", []), (("images", 0, "width"), None, []), (("images", 0, "height"), True, []),
             (("images", 0, "byteSize"), str(len(std_image("j1")[0])), []), (("images", 0, "sha256"), 1, []),
             (("images", 0, "source"), 1, []), (("images", 0, "filename"), 0, []), (("images", 0, "caption"), False, []),
             (("images", 0, "added"), 0, []), (("images", 0), 1, []), (("images", 0), [], []), (("images", 0), None, []),
             (("images", 1), "images/x.png", [])]
    for i, (path, val, ids) in enumerate(types):
        nm = "-".join(str(p) for p in path)
        M(f"type-{nm}-{type(val).__name__}-{i}", "MAN", ids or ["IG-MAN-007"], f"{'/'.join(map(str, path))} = {val!r}",
          S(path, val), q=(i in (4, 15)))
    for raw in [b"[]\n", b'"imagegallery"\n', b"1\n", b"null\n", b"true\n"]:
        M(f"top-level-{raw.strip().decode().strip(chr(34)) or 'array'}", "MAN", ["IG-MAN-007", "IG-MAN-001"],
          f"top-level value {raw.strip()!r}", text=lambda gg, raw=raw: raw, q=(raw == b"[]\n"))


def format_version_cases():
    """Another format, or a format version this reader must refuse (6.3, 8)."""
    for i, v in enumerate(["ImageGallery", "imagegallery ", "", "imagegallery\u0000", "image gallery"]):
        M(f"format-{i}", "MAN", ["IG-MAN-009"], f"format {v!r}", S(("format",), v), q=(i == 0))
    for i, (v, ids) in enumerate([("2.0", ["IG-MAN-010"]), ("0.9", ["IG-MAN-010"]), ("10.0", ["IG-MAN-010"]),
                                  ("99999999999999999999999.0", ["IG-MAN-010"]), ("2", ["IG-MAN-008", "IG-MAN-010"]),
                                  ("1", ["IG-MAN-008"]), ("1.0.0", ["IG-MAN-008"]), ("v1.0", ["IG-MAN-008"]),
                                  ("1.0 ", ["IG-MAN-008"]), ("1.", ["IG-MAN-008"]), (".0", ["IG-MAN-008"]),
                                  ("1.-1", ["IG-MAN-008"]), ("\uff11.0", ["IG-MAN-008"]), ("1.\u0660", ["IG-MAN-008"]),
                                  ("", ["IG-MAN-008"]), ("+1.0", ["IG-MAN-008"]), ("1.0\n", ["IG-MAN-008"]),
                                  ("1,0", ["IG-MAN-008"]), ("1.0a", ["IG-MAN-008"]),
                                  # leading zeros: no version has two spellings (6.3, 8), so
                                  # "02.0" is no version either, not a major 2
                                  ("01.0", ["IG-MAN-008"]), ("1.00", ["IG-MAN-008"]), ("1.01", ["IG-MAN-008"]),
                                  ("02.0", ["IG-MAN-008"])]):
        M(f"format-version-{i:02d}", "MAN", ids, f"formatVersion {v!r}", S(("formatVersion",), v), q=(i in (0, 5)))

    def major3_broken(m):
        m["formatVersion"] = "3.0"
        del m["title"]
        m["images"] = "not interpreted"
        m["created"] = 5
    M("format-version-3-rest-broken", "MAN", ["IG-MAN-010"],
      "formatVersion 3.0 and a broken rest: MAN-010 is reported 'without interpreting the rest' (8)", major3_broken, q=True)


def uuid_cases():
    """Document, revision and image ids that are not UUIDs as 6.5.1 spells them."""
    bad_uuids = ["6f1d2c3b4a595e8f9a0b1c2d3e4f5a6b", "{6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b}",
                 "urn:uuid:6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b", "6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6",
                 "6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b0", "6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5g6b",
                 "6f1d2c3b4-a59-5e8f-9a0b-1c2d3e4f5a6b", "\uff16f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b",
                 "6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b\n", " 6f1d2c3b-4a59-5e8f-9a0b-1c2d3e4f5a6b", ""]
    targets = [("id",), ("revision",), ("images", 0, "id")]
    for i, u in enumerate(bad_uuids):
        t = targets[i % 3]
        M(f"uuid-{i:02d}", "MAN", ["IG-MAN-008"], f"{'/'.join(map(str, t))} = {u!r}", S(t, u), q=(i == 0))


def string_cases():
    """Strings past their limits, or holding what they must not."""
    strs = [(("title",), "x" * 1001, True, "title of 1001 characters"),
            (("title",), "a\u0000b", True, "title with U+0000"),
            (("title",), "\U0001F600" * 1001, False, "title of 1001 astral characters"),
            (("title",), "\r\n" * 500 + "x", False, "title of 1001 scalar values but 501 grapheme clusters"),
            (("title",), "\U0001F1F3\U0001F1F4" * 501, False, "title of 1002 scalar values, 501 flags"),
            (("generator",), "g" * 201, False, "generator of 201 characters"),
            (("generator",), "\U0001F600" * 201, False, "generator of 201 astral characters"),
            (("images", 0, "caption"), "c" * 10001, False, "caption of 10001 characters"),
            (("images", 0, "caption"), "e\u0301" * 5001, False, "caption of 10002 scalar values, 5001 graphemes"),
            (("images", 0, "filename"), "a/b.jpg", True, "filename with /"),
            (("images", 0, "filename"), "a\\b.jpg", False, "filename with backslash"),
            (("images", 0, "filename"), ".", False, "filename ."),
            (("images", 0, "filename"), "..", False, "filename .."),
            (("images", 0, "filename"), "", False, "empty filename"),
            (("images", 0, "filename"), "a\u0000b", False, "filename with NUL"),
            (("images", 0, "filename"), "a\u0085b", False, "filename with C1 control NEL"),
            (("images", 0, "filename"), "a\u007fb", False, "filename with DEL"),
            (("images", 0, "filename"), "a\tb", False, "filename with TAB"),
            (("images", 0, "filename"), "\u00e9" * 128, False, "filename of 128 characters but 256 UTF-8 bytes"),
            (("images", 0, "filename"), "x" * 256, False, "filename of 256 characters"),
            (("images", 0, "source"), "https://example.com/a b", False, "source with a space"),
            (("images", 0, "source"), "https://example.com/\u00fc", True, "source with non-ASCII"),
            (("images", 0, "source"), "//example.com/x", False, "source without scheme"),
            (("images", 0, "source"), "example.com/x", False, "source without scheme or colon"),
            (("images", 0, "source"), "1http://x/", False, "scheme starting with a digit"),
            (("images", 0, "source"), "https://x/%zz", False, "bad percent escape"),
            (("images", 0, "source"), "https://x/%2", False, "short percent escape"),
            (("images", 0, "source"), "https://x/\u0007", False, "source with a control character"),
            (("images", 0, "source"), "https://example.com/" + "a" * (8193 - 20), False, "source of 8193 characters"),
            (("images", 0, "source"), "", False, "empty source"),
            (("images", 0, "source"), "http://x/<y>", False, "source with <>"),
            (("images", 0, "source"), "http://x/a\"b", False, "source with a quote"),
            (("images", 0, "source"), ":nothing", False, "empty scheme")]
    for i, (path, val, q, note) in enumerate(strs):
        M(f"string-{i:02d}-{slug(note)[:40]}", "MAN", ["IG-MAN-008"], note, S(path, val), q=q)
    if want(False):
        M("title-1e6-characters", "MAN", ["IG-MAN-008"], "title of 1,000,000 characters (manifest < 1 MiB)",
          S(("title",), "t" * 1000000))


def date_time_cases():
    """Date-times that are not RFC 3339 or not real dates (6.5.2)."""
    bad_dates = ["2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
                 "2026-11-22T23:60:00Z", "2026-11-22T23:59:61Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
                 "2026-11-00T00:00:00Z", "2026-11-22T10:00:00", "2026-11-22 10:00:00Z", "2026-11-22T10:00:00.1234567890Z",
                 "2026-11-22T10:00:00.Z", "2026-11-22T10:00:00+24:00", "2026-11-22T10:00:00+0530",
                 "2026-11-22T10:00:00+05:60", "2026-11-22", "26-11-22T10:00:00Z", "+2026-11-22T10:00:00Z",
                 "2026-11-22T10:00Z", "2026-11-22T10:00:00ZZ", "2026-11-22T1:00:00Z", "\uff12026-11-22T10:00:00Z",
                 "2026-11-22T10:00:00UTC", "2026-11-22X10:00:00Z"]
    dtargets = [("created",), ("modified",), ("images", 0, "added")]
    for i, d in enumerate(bad_dates):
        t = dtargets[i % 3]
        M(f"date-{i:02d}", "MAN", ["IG-MAN-008"], f"{'/'.join(map(str, t))} = {d!r}", S(t, d), q=(i in (0, 9)))


def integer_cases():
    """Integers out of range or not integers (6.5.3, B.8)."""
    j1len = len(std_image("j1")[0])
    ints = [(("images", 0, "width"), "0", "MAN", ["IG-MAN-008"], True),
            (("images", 0, "width"), "64.0", "MAN", ["IG-MAN-008"], True),
            (("images", 0, "width"), "6.4e1", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "0.64E+2", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "64e0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "1e400", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "-0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "64.5", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "-1", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "2147483648", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "99999999999999999999", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "18446744073709551680", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "height"), "-0.0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "height"), "4.8e1", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "byteSize"), "0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "byteSize"), str(2 ** 53), "MAN", ["IG-MAN-008"], True),
            (("images", 0, "byteSize"), f"{j1len}.0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "byteSize"), f"{j1len}e0", "MAN", ["IG-MAN-008"], False),
            (("images", 0, "width"), "064", "MAN", ["IG-MAN-001"], False),
            (("images", 0, "width"), "2147483647", "BLB", ["IG-BLB-006"], True),
            (("images", 0, "byteSize"), str(2 ** 53 - 1), "BLB", ["IG-BLB-004"], True),
            (("images", 0, "width"), "65", "BLB", ["IG-BLB-006"], False),
            (("images", 0, "byteSize"), str(j1len + 1), "BLB", ["IG-BLB-004"], False)]
    for i, (path, raw, cat, ids, q) in enumerate(ints):
        M(f"int-{i:02d}-{path[-1]}-{slug(raw)[:20]}", cat, ids, f"{'/'.join(map(str, path))} = {raw}",
          S(path, R(raw)), q=q)
    if want(False):
        M("int-width-100000-digits", "MAN", ["IG-MAN-008"], "width is a 100,001-digit integer",
          S(("images", 0, "width"), R("1" + "0" * 100000)))


def blob_reference_cases():
    """Blob references (5, 6.4): digests and paths that do not name the blob, media types, image ids."""
    ja = std_image("j1")[0]
    sha = hashlib.sha256(ja).hexdigest()
    other = hashlib.sha256(b"other").hexdigest()
    for i, (path, val, ids, q, note) in enumerate([
            (("images", 0, "sha256"), sha.upper(), ["IG-MAN-008", "IG-MAN-012"], True, "sha256 uppercase"),
            (("images", 0, "sha256"), sha[:63], ["IG-MAN-008", "IG-MAN-012"], False, "sha256 of 63 digits"),
            (("images", 0, "sha256"), sha[:63] + "g", ["IG-MAN-008", "IG-MAN-012"], False, "sha256 with non-hex"),
            (("images", 0, "sha256"), other, ["IG-MAN-012"], True, "sha256 differs from the digest in path"),
            (("images", 0, "path"), f"images/{sha}.jpeg", ["IG-MAN-012"], True, "path extension .jpeg"),
            (("images", 0, "path"), f"images/{sha.upper()}.jpg", ["IG-MAN-012"], False, "path digest uppercase"),
            (("images", 0, "path"), f"images/{sha}.png", ["IG-MAN-012"], False, "path .png for image/jpeg"),
            (("images", 0, "path"), f"./images/{sha}.jpg", ["IG-MAN-012"], False, "path with ./"),
            (("images", 0, "path"), f"images\\{sha}.jpg", ["IG-MAN-012"], False, "path with backslash"),
            (("images", 0, "path"), "thumbnail.png", ["IG-MAN-012"], False, "path thumbnail.png"),
            (("images", 0, "path"), f"/images/{sha}.jpg", ["IG-MAN-012"], False, "absolute path"),
            (("images", 0, "path"), f"images/{sha}.JPG", ["IG-MAN-012"], False, "path extension .JPG"),
            (("images", 0, "path"), f"images/{other}.jpg", ["IG-MAN-012"], False, "path digest differs from sha256"),
            (("images", 0, "mediaType"), "image/png", ["IG-MAN-012"], False, "mediaType image/png with a .jpg path")]):
        M(f"blobref-{i:02d}-{slug(note)[:30]}", "MAN", ids, note, S(path, val), q=q)
    for i, v in enumerate(["image/gif", "image/jpg", "IMAGE/JPEG", "image/jpeg ", "image/jpeg; q=1", "", "image/webp"]):
        M(f"media-type-{i}", "MAN", ["IG-MAN-008"], f"mediaType {v!r}", S(("images", 0, "mediaType"), v), q=(i == 0))

    def dup_id(upper):
        def f(m):
            m["images"][1]["id"] = m["images"][0]["id"].upper() if upper else m["images"][0]["id"]
        return f
    M("duplicate-image-id", "MAN", ["IG-MAN-011"], "two images with the same id", dup_id(False), q=True)
    M("duplicate-image-id-case", "MAN", ["IG-MAN-011"], "two image ids equal as UUIDs, different case (B.12)",
      dup_id(True), q=True)
