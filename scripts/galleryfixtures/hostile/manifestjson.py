"""Family m- (continued): the manifest as JSON text (6.1, 10): image counts, nesting, huge numbers,
duplicate keys, encodings, syntax errors and sizes."""

import random
import zlib

from ..compression import deflate
from ..zipwriting import E, build
from .gallery import R, base_with_thumbnail, raw_subst, uuid4
from .manifest import F, M, S
from .output import V, X, slug, want


def pad_manifest(target, seed="pad"):
    """A manifest of exactly `target` bytes, padded by an unknown member whose array is spread
    out with white space (so the parser need not keep it), compressing well below 100:1."""
    gg = base_with_thumbnail()
    gg.m["x-pad"] = R("@@PAD@@")
    t = raw_subst(gg.text())
    ph = b"@@PAD@@"
    need = target - (len(t) - len(ph))
    rng = random.Random(seed)
    parts = [b"["]
    size = 1
    spaces = [b" " * k for k in range(600)]
    while size < need - 1200:
        el = str(rng.randrange(100000)).encode() + b"," + spaces[rng.randrange(20, 450)]
        parts.append(el)
        size += len(el)
    parts.append(b"0")
    size += 1
    parts.append(b" " * (need - size - 1))
    parts.append(b"]")
    body = b"".join(parts)
    assert len(body) == need
    t = t.replace(ph, body)
    assert len(t) == target
    return gg, t


def deep_text(n, opener, closer, p):
    """n nested values with sparse random white space, so the manifest deflates below 100:1 and reaches the
    parser rather than the ratio bound (10)."""
    rng = random.Random(f"deep:{n}:{opener}")
    ws = [b" ", b"\n", b"\t", b"\r"]
    parts = []
    for _ in range(n):
        parts.append(opener)
        if rng.random() < p:
            parts.append(rng.choice(ws))
    parts.append(b"0")
    for _ in range(n):
        parts.append(closer)
        if rng.random() < p:
            parts.append(rng.choice(ws))
    return b"".join(parts).decode()


def under_ratio(t):
    """The manifest text T, its raw members substituted, checked to deflate under 100:1."""
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    tt = raw_subst(t)
    assert len(tt) / len(c.compress(tt) + c.flush()) < 100
    return tt


def tx(f):
    """A text= function: F applied to the gallery's manifest text."""
    return lambda gg: f(gg.text())


def fam_manifest_json():
    for cases in (image_count_cases, nesting_cases, huge_number_cases, duplicate_key_cases, encoding_cases,
                  syntax_cases, size_cases):
        cases()


def image_count_cases():
    """Manifests with more images than section 10 allows, and exactly as many."""
    M("images-100001-zeros", "MAN", ["IG-MAN-014", "IG-MAN-007"], "images has 100,001 elements (all 0)",
      S(("images",), R("[" + ",".join(["0"] * 100001) + "]")), q=True)
    if want(False):
        M("images-1e6-zeros-stored", "MAN", ["IG-MAN-014", "IG-MAN-007"], "images has 1,000,000 elements (all 0), STORED",
          S(("images",), R("[" + ",".join(["0"] * 1000000) + "]")), stored=True)
        for n, valid in [(100000, True), (100001, False)]:
            gg = base_with_thumbnail(imgs=("j1",))
            im0 = gg.m["images"][0]
            rng = random.Random(f"n{n}")
            ims = [im0]
            for i in range(n - 1):
                d = dict(im0)
                d["id"] = uuid4(rng)
                ims.append(d)
            gg.m["images"] = ims
            t = gg.text()
            data = gg.zip(mtext=t)
            if valid:
                V(f"m-images-{n}-real", data, f"{n} images (the maximum), one shared blob; manifest {len(t)} bytes",
                  family=F, extractFiles=n)
            else:
                X(f"m-images-{n}-real", data, "MAN", ["IG-MAN-014"], f"{n} images, one shared blob", family=F)


def nesting_cases():
    """JSON nested past the depth bound of section 10, in ways that reach the parser past the ratio bound."""
    M("depth-33", "MAN", ["IG-MAN-004"], "unknown member nested to depth 33",
      S(("x-deep",), R("[" * 32 + "]" * 32)), q=True)
    M("depth-33-in-images", "MAN", ["IG-MAN-004"], "images nested to depth 33",
      S(("images",), R("[" * 32 + "]" * 32)))
    M("depth-1e5", "MAN", ["IG-MAN-004"], "unknown member nested 100,000 deep",
      S(("x-deep",), R("[" * 100000 + "]" * 100000)), q=True)
    M("depth-1e5-objects", "MAN", ["IG-MAN-004"], "unknown member: 100,000 nested objects",
      S(("x-deep",), R('{"a":' * 100000 + "1" + "}" * 100000)))
    if want(False):
        M("depth-1e6-unclosed", "MAN", ["IG-MAN-004", "IG-MAN-001"], "1,000,000 unclosed brackets (manifest < 1 MiB)",
          text=lambda gg: b'{"x":' + b"[" * 1000000)
    M("depth-1e4", "MAN", ["IG-MAN-004"], "unknown member nested 10,000 deep (arrays)",
      S(("x-deep",), R("[" * 10000 + "]" * 10000)), q=True)
    M("depth-1e4-objects", "MAN", ["IG-MAN-004"], "unknown member: 10,000 nested objects",
      S(("x-deep",), R('{"a":' * 10000 + "1" + "}" * 10000)), q=True)
    M("depth-1e4-in-images", "MAN", ["IG-MAN-004"], "images: 10,000 nested arrays where the image list goes",
      S(("images",), R("[" * 10000 + "]" * 10000)))

    if want(True):
        M("depth-1e6", "MAN", ["IG-MAN-004"], "unknown member nested 1,000,000 deep (arrays, 2 MB of manifest "
          "deflated about 80:1, under the ratio bound): the parser must stop at depth 33, not recurse",
          S(("x-deep",), R(deep_text(1000000, b"[", b"]", 0.004))), text=lambda gg: under_ratio(gg.text()), q=True)
        M("depth-1e6-objects", "MAN", ["IG-MAN-004"], "unknown member: 1,000,000 nested objects (6 MB of manifest "
          "deflated about 70:1)", S(("x-deep",), R(deep_text(1000000, b'{"a":', b"}", 0.015))),
          text=lambda gg: under_ratio(gg.text()))
    M("depth-1e6-ratio", "MAN", ["IG-MAN-004", "IG-PKG-027"], "1,000,000 nested arrays (2 MB) deflated about "
      "500:1: refused by the ratio bound or the depth bound", S(("x-deep",), R("[" * 1000000 + "]" * 1000000)),
      categories=["MAN", "PKG"])
    if want(False):
        M("depth-1e6-stored", "MAN", ["IG-MAN-004"], "1,000,000 nested arrays, manifest STORED (2 MB)",
          S(("x-deep",), R("[" * 1000000 + "]" * 1000000)), stored=True)


def huge_number_cases():
    """Huge numbers where integers are required (6.5.3), and anywhere else (valid JSON, 9.1)."""
    for i, (path, raw, q) in enumerate([(("images", 0, "width"), "1e308", True),
                                        (("images", 0, "width"), "-1e400", True),
                                        (("images", 0, "height"), "1e400", False),
                                        (("images", 0, "byteSize"), "1e-400", True),
                                        (("images", 0, "height"), "-" + "9" * 100000, False),
                                        (("images", 0, "byteSize"), "1" + "0" * 100000, True),
                                        (("images", 0, "width"), "1e99999999999999999999", False),
                                        (("images", 0, "width"), "64" + "0" * 1000 + "e-1000", False)]):
        M(f"number-{i}-{path[-1]}-{slug(raw[:12].replace('-', 'minus'))}", "MAN", ["IG-MAN-008"],
          f"{'/'.join(map(str, path))} = {raw[:40]}{'...' if len(raw) > 40 else ''} ({len(raw)} characters)",
          S(path, R(raw)), q=q)

    def number_edges(m):
        m["x-minus-1e400"] = R("-1e400")
        m["x-1e-400"] = R("1e-400")
        m["x-1e308"] = R("1e308")
        m["x-digits"] = R("-" + "7" * 100000)
        m["x-fraction"] = R("0." + "0" * 100000 + "1")
        m["x-negative-zero"] = R("-0.0e-0")
    M("numbers-unknown-members", None, [], "unknown members holding -1e400, 1e-400, 1e308, a 100,000-digit "
      "integer, a fraction of 100,001 digits and -0.0e-0: valid JSON, ignored (8, 9.1)", number_edges,
      valid=True, q=True)


def duplicate_key_cases():
    """Duplicate keys (6.1), also when equal only after unescaping."""
    M("dup-key-title", "MAN", ["IG-MAN-003"], "title twice",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n  "title": "dup",\n  "title": ')), q=True)
    M("dup-key-escaped", "MAN", ["IG-MAN-003"], "title and titl\\u0065 (equal after unescaping)",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n  "titl\\u0065": "dup",\n  "title": ')), q=True)
    M("dup-key-in-image", "MAN", ["IG-MAN-003"], "width twice in an image, same value",
      text=tx(lambda t: t.replace(b'"width": 64', b'"width": 64,\n      "width": 64', 1)), q=True)
    M("dup-key-unknown", "MAN", ["IG-MAN-003"], "an unknown member twice",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n  "x": 1,\n  "x": 2,\n  "title": ')))
    M("dup-key-nested-unknown", "MAN", ["IG-MAN-003"], "duplicate key inside an unknown member's object",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n  "x": {"a": {"b": 1, "b": 1}},\n  "title": ')))
    M("dup-key-surrogate-escape", "MAN", ["IG-MAN-003"], "keys \\ud83d\\ude00 and the raw emoji",
      text=tx(lambda t: t.replace(b'\n  "title": ', '\n  "\\ud83d\\ude00": 1,\n  "\U0001F600": 2,\n  "title": '.encode())))


def encoding_cases():
    """Text that is not UTF-8, or escapes that are not Unicode (6.1, B.11)."""
    for i, (raw, q, note) in enumerate([(b'"\\ud800"', True, "lone high surrogate"), (b'"\\udc00x"', False, "lone low surrogate"),
                                        (b'"a\\ud800\\u0041"', False, "high surrogate then \\u0041"),
                                        (b'"\\ude00\\ud83d"', False, "reversed pair"),
                                        (b'"\\ud83d\\ud83d\\ude00"', False, "high surrogate before a valid pair"),
                                        (b'"end\\ud83d"', False, "high surrogate at the end")]):
        M(f"surrogate-{i}", "MAN", ["IG-MAN-002"], f"title {raw.decode()}: {note}", S(("title",), R(raw)), q=q)
    M("surrogate-in-key", "MAN", ["IG-MAN-002"], "a member name with a lone surrogate",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n  "\\udbff": 1,\n  "title": ')))
    M("surrogate-in-unknown", "MAN", ["IG-MAN-002"], "an unknown member's value with a lone surrogate",
      S(("images", 1, "x-note"), R(b'"\\udfff"')))
    for i, (raw, q, note) in enumerate([(b'"bad\xff"', True, "0xFF"), (b'"\xc0\xaf"', False, "overlong /"),
                                        (b'"\xed\xa0\x80"', False, "UTF-8-encoded surrogate"),
                                        (b'"\xf4\x90\x80\x80"', False, "above U+10FFFF"),
                                        (b'"\xe2\x82"', False, "truncated sequence"),
                                        (b'"\xf8\x88\x80\x80\x80"', False, "5-byte sequence"),
                                        (b'"\x80"', False, "lone continuation byte"),
                                        (b'"\xe0\x80\x80"', False, "overlong 3-byte NUL")]):
        M(f"utf8-{i}", "MAN", ["IG-MAN-002"], f"title with invalid UTF-8: {note}", S(("title",), R(raw)), q=q)
    M("utf8-in-whitespace", "MAN", ["IG-MAN-002", "IG-MAN-001"], "a 0xA0 byte between tokens",
      text=tx(lambda t: t.replace(b'\n  "title": ', b'\n \xa0"title": ')))
    M("bom", "MAN", ["IG-MAN-001"], "UTF-8 byte order mark (B.11)", text=tx(lambda t: b"\xef\xbb\xbf" + t), q=True)
    M("utf16le-bom", "MAN", ["IG-MAN-001", "IG-MAN-002"], "manifest in UTF-16LE with BOM",
      text=tx(lambda t: b"\xff\xfe" + t.decode().encode("utf-16-le")))
    M("utf16be", "MAN", ["IG-MAN-001", "IG-MAN-002"], "manifest in UTF-16BE without BOM",
      text=tx(lambda t: t.decode().encode("utf-16-be")))


def syntax_cases():
    """JSON syntax errors (6.1)."""
    syn = [("trailing-comma", lambda t: t.rstrip()[:-1].rstrip() + b",\n}\n", True),
           ("line-comment", lambda t: b"// manifest\n" + t, False),
           ("block-comment", lambda t: t.replace(b'\n  "title": ', b'\n  /* c */ "title": '), False),
           ("single-quotes", lambda t: t.replace(b'"format": "imagegallery"', b"'format': 'imagegallery'"), False),
           ("nan", lambda t: t.replace(b'\n  "title": ', b'\n  "x": NaN,\n  "title": '), False),
           ("infinity", lambda t: t.replace(b'\n  "title": ', b'\n  "x": -Infinity,\n  "title": '), False),
           ("plus-number", lambda t: t.replace(b'\n  "title": ', b'\n  "x": +1,\n  "title": '), False),
           ("leading-dot", lambda t: t.replace(b'\n  "title": ', b'\n  "x": .5,\n  "title": '), False),
           ("trailing-dot", lambda t: t.replace(b'\n  "title": ', b'\n  "x": 1.,\n  "title": '), False),
           ("bare-exponent", lambda t: t.replace(b'\n  "title": ', b'\n  "x": 1e,\n  "title": '), False),
           ("hex-number", lambda t: t.replace(b'\n  "title": ', b'\n  "x": 0x10,\n  "title": '), False),
           ("minus-only", lambda t: t.replace(b'\n  "title": ', b'\n  "x": -,\n  "title": '), False),
           ("unterminated-string", lambda t: t[:t.index(b'"title": "') + 14], True),
           ("raw-tab-in-string", lambda t: t.replace(b'"title": "', b'"title": "\t'), False),
           ("raw-newline-in-string", lambda t: t.replace(b'"title": "', b'"title": "\n'), False),
           ("raw-nul-in-string", lambda t: t.replace(b'"title": "', b'"title": "\x00'), False),
           ("raw-1f-in-string", lambda t: t.replace(b'"title": "', b'"title": "\x1f'), False),
           ("escape-x", lambda t: t.replace(b'"title": "', b'"title": "\\x41'), False),
           ("escape-short-u", lambda t: t.replace(b'"title": "', b'"title": "\\u12"'), False),
           ("escape-bad-hex", lambda t: t.replace(b'"title": "', b'"title": "\\u12G4'), False),
           ("escape-capital-U", lambda t: t.replace(b'"title": "', b'"title": "\\U0041'), False),
           ("escape-single-quote", lambda t: t.replace(b'"title": "', b'"title": "\\\''), False),
           ("two-objects", lambda t: t + t, False),
           ("empty", lambda t: b"", True),
           ("whitespace-only", lambda t: b" \n\t\r ", False),
           ("truncated-half", lambda t: t[:len(t) // 2], True),
           ("missing-colon", lambda t: t.replace(b'"format": ', b'"format" '), False),
           ("missing-comma", lambda t: t.replace(b'"imagegallery",\n', b'"imagegallery"\n', 1), False),
           ("trailing-garbage", lambda t: t + b"x", False),
           ("extra-brace", lambda t: t.rstrip() + b"}\n", False),
           ("python-true", lambda t: t.replace(b'\n  "title": ', b'\n  "x": True,\n  "title": '), False),
           ("unquoted-key", lambda t: t.replace(b'"format":', b"format:"), False),
           ("trailing-nul", lambda t: t + b"\x00", False),
           ("form-feed-whitespace", lambda t: t.replace(b'\n  "title": ', b'\n\x0c "title": '), False),
           ("vertical-tab-whitespace", lambda t: t.replace(b'\n  "title": ', b'\n\x0b "title": '), False),
           ("nbsp-whitespace", lambda t: t.replace(b'\n  "title": ', '\n\u00a0 "title": '.encode()), False),
           ("line-separator-whitespace", lambda t: t.replace(b'\n  "title": ', '\n\u2028 "title": '.encode()), False),
           ("unclosed-array", lambda t: t.replace(b'"images": [', b'"images": [[', 1), False),
           ("key-not-string", lambda t: t.replace(b'\n  "title": ', b'\n  1: 2,\n  "title": '), False)]
    for nm, f, q in syn:
        M(f"syntax-{nm}", "MAN", ["IG-MAN-001"], f"JSON syntax error: {nm}", text=tx(f), q=q)


def size_cases():
    """Manifests at and past the 64 MiB bound of section 10, and one that only declares to be."""
    if want(False):
        gg, t = pad_manifest(64 << 20)
        p = deflate(t)
        assert len(t) / len(p) < 100, len(t) / len(p)
        V("m-size-64MiB-exactly", gg.zip(mtext=t),
          f"manifest of exactly 64 MiB (limit; 'exceeds' is strict), ratio {len(t) / len(p):.1f}:1", family=F)
        gg, t = pad_manifest((64 << 20) + 1, seed="pad2")
        p = deflate(t)
        assert len(t) / len(p) < 100
        X("m-size-64MiB-plus-1", gg.zip(mtext=t), "MAN", ["IG-MAN-005"],
          f"manifest of 64 MiB + 1 byte, ratio {len(t) / len(p):.1f}:1", family=F)
    gg = base_with_thumbnail()
    es = gg.entries()
    es[1] = E("manifest.json", es[1].data, 8, h_usize=(64 << 20) + 1)
    X("m-size-declared-64MiB-plus-1", build(es, gg.dt()), "MAN", ["IG-MAN-005", "IG-PKG-021", "IG-PKG-027"],
      "manifest declares 64 MiB + 1 but holds 900 bytes", family=F, categories=["MAN", "PKG"], q=True)
