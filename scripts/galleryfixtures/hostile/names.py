"""Family n-: entry names (4.3): traversal, absolute and drive names, control characters and bad
UTF-8, duplicates and names equal after NFC and case folding, lengths, links and devices, local
names that differ from central ones."""

from ..zipwriting import DIRMODE, MIMETYPE, REG, E, build
from .gallery import base
from .output import U, V, X, slug, want


F = "names"


def add_entry(g, name, verdict_ids, note, q=False, data=b"payload\n", **kw):
    """The gallery G with one more entry NAME (E keywords KW), invalid with one of VERDICT_IDS."""
    if not want(q):
        return
    es = g.entries() + [E(name, data, 0, **kw)]
    nm = name if isinstance(name, str) else name.decode("latin-1")
    X(f"n-{slug(note)}", build(es, g.dt()), "PKG", verdict_ids, f"extra entry {nm[:60]!r}: {note}", family=F, q=True)


def fam_names():
    g = base()
    for cases in (unsafe_path_cases, unsafe_character_cases, duplicate_name_cases, length_and_type_cases,
                  local_name_cases):
        cases(g)


def unsafe_path_cases(g):
    """Names that would leave the extraction folder or name no file: traversal, absolute, drive, empty (4.3)."""
    for name, note, q in [("../evil.txt", "dotdot", True), ("images/../../x.txt", "dotdot-inside", False),
                          ("a/../b.txt", "dotdot-middle", False), ("..", "dotdot-only", False),
                          ("x/..", "dotdot-last", False), ("./x.txt", "dot-first", False),
                          ("a/./b.txt", "dot-middle", False), (".", "dot-only", False),
                          ("/etc/passwd", "absolute", True), ("//server/share/x", "unc-like", False),
                          ("a\\b.txt", "backslash", True), ("..\\..\\x.txt", "backslash-dotdot", False),
                          ("\\x.txt", "backslash-leading", False), ("C:x.txt", "drive-letter", True),
                          ("c:/windows/x.txt", "drive-letter-slash", False), ("Z:\\x", "drive-backslash", False),
                          ("a//b.txt", "empty-component", True), ("a//", "empty-component-dir", False),
                          ("", "empty-name", False), ("/", "root-dir", False), ("../", "dotdot-dir", False)]:
        add_entry(g, name, ["IG-PKG-010", "IG-PKG-011", "IG-PKG-030"] if name == "" else ["IG-PKG-010"], note, q=q,
                  data=b"" if name.endswith("/") else b"payload\n",
                  c_eattr=DIRMODE if name.endswith("/") else REG)


def unsafe_character_cases(g):
    """Names with control characters, bad UTF-8, or bytes without the UTF-8 flag (4.3)."""
    for name, note, q in [(b"a\x00b.txt", "nul", True), (b"\x1b[31mred.txt", "escape", False), (b"del\x7f.txt", "del", False),
                          ("c1\u0085.txt".encode(), "c1-nel", False), ("c1\u009f.txt".encode(), "c1-apc", False),
                          (b"tab\t.txt", "tab", False), (b"nl\n.txt", "newline", False),
                          (b"bad\xff\xfe.txt", "invalid-utf8", True), (b"over\xc0\xaf.txt", "overlong-utf8", False),
                          (b"sur\xed\xa0\x80.txt", "surrogate-utf8", False), (b"cut\xe2\x82", "truncated-utf8", False),
                          (b"big\xf4\x90\x80\x80.txt", "above-10ffff-utf8", False),
                          (b"cp437-\x82t\x82.txt", "cp437-no-flag", False)]:
        add_entry(g, name, ["IG-PKG-011"], note, q=q, h_flags=0 if note == "cp437-no-flag" else 0x0800)


def duplicate_name_cases(g):
    """Names equal as bytes, or after NFC and case folding (4.3.4), and some that only look alike."""
    if want(True):
        es = g.entries() + [E("dup.txt", b"1", 0), E("dup.txt", b"2", 0)]
        X("n-duplicate-name", build(es, g.dt()), "PKG", ["IG-PKG-009"], "two entries named dup.txt", family=F, q=True)
    if want(False):
        es = g.entries()
        es.insert(2, E("manifest.json", g.text(), 8))
        X("n-duplicate-manifest", build(es, g.dt()), "PKG", ["IG-PKG-009"], "two manifest.json entries", family=F)
        es = g.entries()
        es.append(E(es[3].name, es[3].data, 0))
        X("n-duplicate-blob", build(es, g.dt()), "PKG", ["IG-PKG-009"], "the same blob stored twice", family=F)
    for a, b, note, q in [("images/caf\u00e9.txt", "images/cafe\u0301.txt", "nfc-nfd", True),
                          ("README.txt", "readme.TXT", "case", True),
                          ("thumbnail.png", None, "case-thumbnail", False),
                          ("Manifest.json", None, "case-manifest", False),
                          ("\u212a.txt", "k.txt", "kelvin-sign", False),
                          ("stra\u00dfe.txt", "STRASSE.txt", "sharp-s-full-folding", False),
                          ("\ufb01le.txt", "file.txt", "fi-ligature-full-folding", False),
                          ("\u03c3\u03bf\u03c6\u03cc\u03c2.txt", "\u03a3\u039f\u03a6\u038c\u03a3.txt", "final-sigma", False),
                          ("\u00c9t\u00e9.txt", "E\u0301te\u0301.txt", "nfd-and-case", False),
                          ("\ud55c.txt", "\u1112\u1161\u11ab.txt", "hangul-jamo", False)]:
        if not want(q):
            continue
        es = g.entries()
        if b is None:
            es.append(E(a.upper() if a == "thumbnail.png" else a, b"x", 0))
        else:
            es += [E(a, b"x", 0), E(b, b"y", 0)]
        X(f"n-confusable-{note}", build(es, g.dt()), "PKG", ["IG-PKG-028"],
          f"names equal after NFC + default (full) case folding: {a!r} / {b or a.upper()!r} (4.3.4)", family=F, q=True)
    if want(False):
        es = g.entries() + [E("\u0131.txt", b"x", 0), E("i.txt", b"y", 0), E("\u0130.txt", b"z", 0)]
        V("n-not-confusable-dotless-i", build(es, g.dt()),
          "\u0131 (dotless i), i and \u0130 stay distinct under default (non-Turkic) case folding", family=F)
        es = g.entries() + [E("1:x.txt", b"x", 0), E("ab:c.txt", b"y", 0), E("images/C:x.txt", b"z", 0),
                            E("evil\u202egpj.exe", b"w", 0), E("\u65e5\u672c\u8a9e/\u00e9.txt", b"v", 0),
                            E("caf\u00e9.txt", b"u", 0, h_flags=0)]
        V("n-unusual-but-safe", build(es, g.dt()),
          "'1:x' (not a letter), 'ab:c', 'images/C:x' (not at the start), bidi override, CJK, UTF-8 without flag 11 (B.16)",
          family=F)


def length_and_type_cases(g):
    """Names past 1,024 bytes, and entries that are links, devices or other non-files."""
    add_entry(g, "d/" + "n" * 1023, ["IG-PKG-024"], "name-1025-bytes", q=True)
    if want(False):
        add_entry(g, "d/" + "n" * 65533, ["IG-PKG-024"], "name-65535-bytes")
        add_entry(g, "\u00e9" * 513, ["IG-PKG-024"], "name-1026-bytes-513-chars")
    for mode, note, q in [(0o120777, "symlink", True), (0o010644, "fifo", False), (0o020644, "char-device", False),
                          (0o060644, "block-device", False), (0o140755, "socket", False),
                          (0o040755, "directory-mode-without-slash", False), (0o110644, "bogus-type", False)]:
        add_entry(g, "link" if mode == 0o120777 else "special", ["IG-PKG-012"], note, q=q,
                  data=b"/etc/passwd" if mode == 0o120777 else b"", c_eattr=mode << 16)
    if want(True):
        es = g.entries()
        es[3] = E(es[3].name, es[3].data, 0, c_eattr=0o120777 << 16)
        X("n-blob-is-symlink", build(es, g.dt()), "PKG", ["IG-PKG-012"],
          "the JPEG blob's central record says symbolic link", family=F, q=True)
    if want(False):
        es = g.entries()
        es[2] = E("thumbnail.png", es[2].data, 0, c_eattr=0o120777 << 16)
        X("n-thumbnail-is-symlink", build(es, g.dt()), "PKG", ["IG-PKG-012"], "thumbnail.png is a symbolic link", family=F)
        es = g.entries() + [E("dir-with-data/", b"data in a directory", 0, c_eattr=DIRMODE)]
        U("u-directory-with-data", build(es, g.dt()), "a directory entry (trailing /) with 19 bytes of data", family=F)


def local_name_cases(g):
    """Local header names that differ from the central record's."""
    if want(True):
        es = g.entries()
        es[4] = E(es[4].name, es[4].data, 0, lname=b"../" + es[4].name[3:])
        X("n-local-name-traversal", build(es, g.dt()), "PKG", ["IG-PKG-010", "IG-PKG-015"],
          "central name is the blob's, the local header's name starts with ../ (4.3: check every local header)", family=F,
          q=True)
    if want(False):
        es = g.entries()
        es[4] = E(es[4].name, es[4].data, 0, lname=b"images/\x00" + es[4].name[8:])
        X("n-local-name-nul", build(es, g.dt()), "PKG", ["IG-PKG-011", "IG-PKG-015"],
          "the local header's name has a NUL; the central name is fine", family=F)
        es = g.entries()
        es[0] = E("mimetype", MIMETYPE, 0, cname=b"mimetype\x00")
        X("n-mimetype-central-nul", build(es, g.dt()), "PKG", ["IG-PKG-011", "IG-PKG-015", "IG-PKG-004"],
          "mimetype's central name is 'mimetype\\0'", family=F)
