"""The corpus being written: which files the mode keeps (--quick, --fixtures), each file and its
expected outcome (expected.json, described in make-hostile-corpus.py's docstring)."""

import os

QUICK = False
FIXTURES = False
LARGE = False
FIXTURE_MAX_BYTES = 300 * 1024
LEFT_OUT = []
QUICK_STRIDE = {"manifest": 3, "container": 2, "valid": 2, "names": 2, "bitflip": 2, "overflow": 2}
QUICK_SEEN = {}
QUICK_ALWAYS = {"v-canonical.imagegallery", "v-caption-generator-with-nul.imagegallery",
                "o-zip64-offset-ffffffffffffffff.imagegallery", "o-zip64-csize-ffffffffffffffff.imagegallery",
                "m-images-100001-zeros.imagegallery", "m-format-version-3-rest-broken.imagegallery",
                "c-overlap-fifield-bomb.imagegallery", "c-ratio-bomb.imagegallery",
                "c-liar-declares-1000.imagegallery"}
OUTDIR = None
EXPECTED = {}
COUNTS = {}


def begin(outdir, quick=False, fixtures=False, large=False):
    """Start a corpus in outdir: --quick keeps a sample, --fixtures the files of at most
    FIXTURE_MAX_BYTES, --large the others (what Fixtures/hostile leaves out)."""
    global OUTDIR, QUICK, FIXTURES, LARGE
    OUTDIR, QUICK, FIXTURES, LARGE = outdir, quick, fixtures, large


def want(q):
    return q or not QUICK


def emit(name, data, verdict, category=None, ids=(), deep=False, family="", note="", q=False, ext=None, **more):
    """Write one file and its expectation; with --quick only files marked q are written, with
    --fixtures only files of at most FIXTURE_MAX_BYTES. `ext` is the file name's ending
    (default .imagegallery)."""
    fn = name + ext if ext else (name if name.endswith(".imagegallery") else name + ".imagegallery")
    if QUICK:
        if not q:
            return
        c = QUICK_SEEN.get(family, 0)
        QUICK_SEEN[family] = c + 1
        if c % QUICK_STRIDE.get(family, 1) and fn not in QUICK_ALWAYS:
            return
    if FIXTURES and len(data) > FIXTURE_MAX_BYTES:
        LEFT_OUT.append((fn, len(data)))
        return
    if LARGE and len(data) <= FIXTURE_MAX_BYTES:
        return
    assert verdict in ("valid", "invalid")
    assert fn not in EXPECTED, fn
    assert category in (None, "PKG", "MAN", "BLB", "THM")
    if verdict == "valid":
        assert category is None
    with open(os.path.join(OUTDIR, fn), "wb") as f:
        f.write(data)
    rec = {"verdict": verdict, "category": category, "ids": list(ids), "deep": bool(deep),
           "family": family}
    if note:
        rec["note"] = note
    for k, v in more.items():
        if v is not None and v is not False:
            rec[k] = v
    if verdict == "invalid" and category is None and not rec.get("categories"):
        rec["categoryUnknown"] = True
    EXPECTED[fn] = rec
    COUNTS[family] = COUNTS.get(family, 0) + 1


def V(name, data, note="", q=False, deep=False, family="valid", **more):
    emit(name, data, "valid", None, (), deep, family, note, q=q, **more)


def X(name, data, category, ids=(), note="", deep=False, family="", q=False, **more):
    emit(name, data, "invalid", category, ids, deep, family, note, q=q, **more)


def U(name, data, note, deep=False, family="", q=False, **more):
    """The spec leaves the verdict open: only crash, hang and memory are checked."""
    emit(name, data, "invalid", None, (), deep, family, note, q=q, verdictUnknown=True, **more)


def slug(s):
    """A file name part made of s."""
    out = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in s)
    return out.strip("-")[:60] or "x"
