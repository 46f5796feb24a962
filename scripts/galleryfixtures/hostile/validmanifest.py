"""Family v- (continued): valid manifests in the texts section 9.1 and the limits of 6 and 10
allow: minified, escaped, reordered JSON, unknown members of every type, limits reached exactly,
unusual dates, UUIDs and strings."""

import json

from .gallery import R, base, escape_all, raw_subst, std_image
from .output import V, want

F = "valid"


def mv(name, mutate, note, q=False, text_fn=None, imgs=("j1", "p1")):
    """The valid file NAME: the base gallery (of IMGS) whose manifest MUTATE changed, written as
    text_fn makes it (default: the canonical text)."""
    if not want(q):
        return
    gg = base(imgs=imgs)
    mutate(gg)
    mt = gg.text() if text_fn is None else text_fn(gg)
    V(name, gg.zip(mtext=mt), note, family=F, q=True)


def fam_valid_manifest():
    """Manifest-level tolerance: each case changes the base gallery's manifest or its text."""
    for cases in (id_date_and_version_cases, unknown_member_cases, json_spelling_cases, string_cases):
        cases()


def id_date_and_version_cases():
    """UUIDs, date-times and minor versions in every form 6.5 and 8 allow."""
    def upper_ids(gg):
        gg.m["id"] = gg.m["id"].upper()
        gg.m["revision"] = gg.m["revision"][:9] + gg.m["revision"][9:].upper()
        for im in gg.m["images"]:
            im["id"] = im["id"].upper()
    mv("v-uppercase-uuids", upper_ids, "upper- and mixed-case UUIDs (6.5.1)", q=True)

    def nil_ids(gg):
        gg.m["id"] = "00000000-0000-0000-0000-000000000000"
        gg.m["revision"] = "ffffffff-ffff-ffff-ffff-ffffffffffff"
        gg.m["images"][0]["id"] = "01234567-89ab-0def-0123-456789abcdef"
    mv("v-uuid-any-version-variant", nil_ids, "nil, max and version-0 UUIDs: no version/variant check (6.5.1)")

    def dates(gg):
        gg.m["created"] = "2026-11-22t10:00:00.123456789+05:30"
        gg.m["modified"] = "2026-11-22T10:00:00-00:00"
        gg.m["images"][0]["added"] = "2026-11-22T10:05:00z"
        gg.m["images"][1]["added"] = "2026-11-22T10:05:00.5-23:59"
    mv("v-dates-offsets-fractions", dates, "t/z, offsets, 9 fraction digits (6.5.2)", q=True)

    def leap(gg):
        gg.m["created"] = "2016-12-31T23:59:60Z"
        gg.m["modified"] = "2015-06-30T23:59:60+00:00"
        gg.m["images"][0]["added"] = "2024-02-29T12:00:00Z"
        gg.m["images"][1]["added"] = "2000-02-29T00:00:00Z"
    mv("v-dates-leap", leap, "leap seconds and 29 February in leap years (6.5.2, B.2)")

    def early(gg):
        gg.m["created"] = "0000-01-01T00:00:00Z"
        gg.m["modified"] = "1970-01-01T00:00:00Z"
        gg.m["images"][0]["added"] = "9999-12-31T23:59:59.999999999+23:59"
    mv("v-dates-extreme-years", early, "years 0000 and 9999, modified before 1980 (RFC 3339 4DIGIT year)")

    def skew(gg):
        gg.m["created"] = "2030-01-01T00:00:00Z"
        gg.m["modified"] = "2020-01-01T00:00:00Z"
    mv("v-modified-before-created", skew, "modified earlier than created (6.3, 9.1)")

    for ver in ("1.7", "1.10", "1.99999999999999999999999999"):
        def setv(gg, ver=ver):
            gg.m["formatVersion"] = ver
            gg.m["futureMember"] = {"from": ver}
            gg.m["images"][0]["futureImageMember"] = [1, 2, 3]
        mv(f"v-format-version-{ver[:12]}", setv, f"formatVersion {ver}: any 1.x is read (8), unknown members are info",
           q=(ver == "1.7"))


def unknown_member_cases():
    """Unknown members a reader ignores, nested up to the depth bound."""
    def unknowns(gg):
        gg.m["x-null"] = None
        gg.m["x-bool"] = True
        gg.m["x-float"] = R("1e400")
        gg.m["x-negzero"] = R("-0")
        gg.m["x-real"] = R("1.0")
        gg.m["x-bigint"] = R("9" * 1000)
        gg.m["images"][1]["x-nested"] = {"a": [{"b": None}]}
    mv("v-unknown-members", unknowns, "unknown members of every JSON type, including null and 1e400 (6.3, 8)",
       q=True, text_fn=lambda gg: raw_subst(gg.text()))

    def deep32(gg):
        gg.m["x-deep"] = R("[" * 31 + "]" * 31)
    mv("v-nesting-depth-32", deep32, "an unknown member nested to depth 32 exactly (limit 32, 'exceeds' is strict)",
       q=True, text_fn=lambda gg: raw_subst(gg.text()))

    def deep32obj(gg):
        gg.m["x-deep"] = R('{"a":' * 31 + "0" + "}" * 31)
    mv("v-nesting-depth-32-objects", deep32obj, "depth 32 with objects",
       text_fn=lambda gg: raw_subst(gg.text()))
    if want(False):
        def hugenum(gg):
            gg.m["x-digits"] = R("1" * 100000 + "." + "2" * 1000 + "e-99999999999999999999")
            gg.m["x-exp"] = R("1e99999999999999999999999999")
        mv("v-unknown-huge-numbers", hugenum, "unknown members holding a 100,000-digit number and a huge exponent",
           text_fn=lambda gg: raw_subst(gg.text()))
        gg = base()
        gg.m["x-big-array"] = R("[" + ",".join(["0"] * 100000) + "]")
        mt = raw_subst(gg.text())
        V("v-unknown-array-100k", gg.zip(mtext=mt), "unknown member: 100,000-element array", family=F)
        gg = base()
        gg.m["x-huge-array"] = R("[" + ",".join(["0"] * 1000000) + "]")
        mt = raw_subst(gg.text())
        V("v-unknown-array-1e6-stored", gg.zip(mtext=mt, mmethod=0),
          "unknown member: 1,000,000-element array (manifest 2 MB, STORED)", family=F)
        gg = base()
        gg.m["x-big-string"] = "x" * 900000
        V("v-unknown-string-900k", gg.zip(), "unknown member: 900,000-character string", family=F)


def json_spelling_cases():
    """The same manifest spelt as other JSON writers do (9.1)."""
    def noncanon_min(gg):
        pass
    mv("v-json-minified", noncanon_min, "minified JSON (9.1)", q=True,
       text_fn=lambda gg: json.dumps(gg.m, separators=(",", ":"), ensure_ascii=False).encode())
    mv("v-json-crlf-tabs-nofinalnewline", noncanon_min, "CRLF, tabs, reversed member order, no final newline (9.1)",
       text_fn=lambda gg: json.dumps(dict(reversed(list(gg.m.items()))), indent="\t",
                                     ensure_ascii=True).replace("\n", "\r\n").encode())
    mv("v-json-escapes", noncanon_min, "every string character escaped as \\uXXXX, '/' as '\\/' (9.1)",
       text_fn=lambda gg: escape_all(gg.m))


def string_cases():
    """Strings at their limits, counted in scalar values, with escapes, controls and odd names and sources."""
    def astral(gg):
        gg.m["title"] = "\U0001F600" * 1000
        gg.m["images"][0]["caption"] = "\U0001D11E" * 10000
        gg.m["generator"] = "\U00010348" * 200
    mv("v-limits-astral-exact", astral, "title 1000, caption 10000, generator 200 astral scalar values (6.3, 6.4)",
       q=True)
    mv("v-limits-astral-escaped-pairs", astral,
       "title of 1000 astral characters written as escaped surrogate pairs: 1000 scalar values, 2000 UTF-16 units",
       text_fn=lambda gg: json.dumps(gg.m, indent=1, sort_keys=True, ensure_ascii=True).encode())

    def graphemes(gg):
        gg.m["title"] = "\r\n" * 500
        gg.m["images"][0]["caption"] = "e\u0301" * 5000
        gg.m["generator"] = "\U0001F1F3\U0001F1F4" * 100
    mv("v-limits-scalars-not-graphemes", graphemes,
       "1000/10000/200 scalar values that are far fewer grapheme clusters (CR LF, combining, flags)")

    def unicode_title(gg):
        gg.m["title"] = "\u00c5lesund \u202etxt.exe\u202c \U0001F468\u200d\U0001F469\u200d\U0001F467 \x1b[31mred\x1b[0m \x7f\x85\u2028"
        gg.m["images"][0]["caption"] = "tab\there\nnew line \"quoted\" back\\slash \x1b\x7f\x9f"
        gg.m["images"][1]["filename"] = "kart over byen \u00e9\u0301 \u05e9\u05dc\u05d5\u05dd.png"
    mv("v-caption-generator-with-nul", lambda gg: (gg.m["images"][0].__setitem__("caption", "nul \x00 in a caption"),
                                                   gg.m.__setitem__("generator", "gen\x00")),
       "U+0000 in caption and generator: only title (6.3) and filename (6.4) ban it; 12 says caption and generator "
       "may contain control characters", q=True)
    mv("v-unknown-member-with-nul", lambda gg: (gg.m.__setitem__("x-nul", "a\x00b"),
                                                gg.m["images"][0].__setitem__("x\x00key", 1)),
       "U+0000 in an unknown member's value and name: unknown members are ignored (8: MUST NOT fail because of them)")

    def esc_ids(gg):
        gg.m["images"][0]["source"] = "https://example.com/a/b.jpg"

    def esc_ids_text(gg):
        t = gg.text()
        for u in [gg.m["id"], gg.m["revision"], gg.m["images"][0]["id"], gg.m["images"][0]["sha256"]]:
            t = t.replace(('"' + u + '"').encode(), ('"\\u00' + u[:1].encode().hex() + u[1:] + '"').encode(), 1)
        return t.replace(b"https://example.com/a/b.jpg", b"https:\\/\\/example.com\\/a\\/b.jpg")
    mv("v-json-escaped-uuid-sha-source", esc_ids,
       "id, revision, an image id and a sha256 whose first character is written \\u00XX, a source with \\/ (9.1)",
       text_fn=esc_ids_text, q=True)
    mv("v-unicode-and-controls", unicode_title,
       "bidi overrides, ZWJ emoji, escape sequences and C1 controls in title/caption (only U+0000 is banned in title)",
       q=True)

    def fname_edges(gg):
        gg.m["images"][0]["filename"] = "..."
        gg.m["images"][1]["filename"] = "\u00e9" * 127 + "a"
        gg.add(*std_image("j1"), filename=" ")
        gg.add(*std_image("p1"), filename="a:b*?<>|\"")
    mv("v-filename-edges", fname_edges, "filenames '...', ' ', 255 UTF-8 bytes, 'a:b*?<>|\"' (6.4)")

    def src_edges(gg):
        gg.m["images"][0]["source"] = "urn:isbn:0451450523"
        gg.m["images"][1]["source"] = "https://example.com/" + "a" * (8192 - 20)
        gg.add(*std_image("j1"), source="a:")
        gg.add(*std_image("p1"), source="HTTP://[::1]:8080/p%20q?x=1&y=[2]#frag!$&'()*+,;=")
        gg.add(*std_image("j1"), source="mailto:someone@example.com")
    mv("v-source-edges", src_edges, "source URIs: urn:, 'a:', 8192 characters exactly, IPv6, fragments (6.4, B.13)")
