"""The figures and the RESULTS.md lines of Benchmarks/editor.py --only scale (editor_scale.py)."""

from editor_support import summary, table

MIB = 1024 * 1024
PAINT_LIMITS = (("cold", 1.0), ("warm", 0.5))
BLANK_LIMIT_MS = 200
RSS_LIMIT_MIB = 256
HEAP_LIMIT_BYTES = 300e6


def figures(scale):
    every = scale["cold"] + scale["warm"]
    f = {kind: summary([r["wall"] for r in scale[kind] if "wall" in r]) for kind, _ in PAINT_LIMITS}
    f["blank"] = summary([r["scroll"]["longestBlankMs"] / 1e3 for r in every if "scroll" in r])
    f["longestFrame"] = summary([r["scroll"]["longestFrameMs"] / 1e3 for r in every if "scroll" in r])
    f["reorder"] = summary([r["reorder"] for r in every if "reorder" in r])
    f["reorderAnswer"] = summary([r["reorderAnswer"] for r in every if "reorderAnswer" in r])
    f["rss"] = summary([r["vmHWMKiB"] / 1024 for r in every if "vmHWMKiB" in r])
    f["heap"] = summary([max(r[k]["usedBytes"] for k in ("heapAtPaint", "heapAfterScroll", "heapAtEnd")) / MIB
                         for r in every if "heapAtEnd" in r])
    return f


def summarise_scale(scale, s, targets, target, autosave):
    """Issue 34's targets for the 100,000-image gallery, into S and TARGETS."""
    f = s["scale"] = figures(scale)
    name = "Editor: 100,000 images, "

    def add(label, limit, measured, ok):
        targets.append(target(name + label, limit, measured, ok))

    for kind, limit in PAINT_LIMITS:
        w = f[kind]
        add(f"first paint, {kind} thumbnail cache (issue 34)", f"< {limit} s (median)",
            "not measured" if not w else f"{w['median']:.3f} s ({w['min']:.3f} – {w['max']:.3f})",
            None if not w else w["median"] < limit)
    b = f["blank"]
    add("longest time without a photo in view, scrolling to the end and back (issue 34)",
        f"≤ {BLANK_LIMIT_MS} ms, every run", "not measured" if not b else
        f"{b['max'] * 1e3:.0f} ms at most (median {b['median'] * 1e3:.0f})",
        None if not b else b["max"] * 1e3 <= BLANK_LIMIT_MS)
    r = f["reorder"]
    add("the last image to the front, saved by autosave (issue 34)", f"≤ autosave delay + 1 s = {autosave + 1:g} s (median)",
        "not measured" if not r else f"{r['median']:.3f} s ({r['min']:.3f} – {r['max']:.3f})",
        None if not r else r["median"] <= autosave + 1)
    m = f["rss"]
    add("server peak RSS (issue 34)", f"< {RSS_LIMIT_MIB} MiB, every run", "not measured" if not m else
        f"{m['max']:.1f} MiB at most (median {m['median']:.1f})", None if not m else m["max"] < RSS_LIMIT_MIB)
    h = f["heap"]
    add("the page's JS heap (issue 34)", "< 300 MB, every run", "not measured" if not h else
        f"{h['max'] * MIB / 1e6:.1f} MB at most (median {h['median'] * MIB / 1e6:.1f})",
        None if not h else h["max"] * MIB < HEAP_LIMIT_BYTES)


def markdown_scale(scale, s, ok):
    """The lines on the 100,000-image gallery."""
    f = s["scale"]
    name = "Editor: 100,000 images, "
    md = [f"**The 100,000-image gallery** (`g100k`: {scale['images']:,} distinct JPEGs of 2–13 KB, "
          f"{scale['galleryBytes'] / 1e6:.0f} MB, manifest {scale['manifestBytes'] / 1e6:.1f} MB; made once by "
          "`Benchmarks/editor_scale.py`). First paint as for `g10k` above (spawn of `imagegallery edit` → the "
          "`imagegallery-grid-painted` mark); *cold*: each run its own empty thumbnail cache, *warm*: the last "
          "cold run's. Then ten screens with the mouse wheel and a sweep with the scroll bar (`scrollTo` in 50 "
          "steps 50 ms apart to the end and 50 back to the top), while every animation frame records whether a "
          "grid cell is in view: *without a photo* is the longest time between two frames with one in view "
          "(a blank screen or a frozen one). Then the page asks for the last image to move to the front "
          "(`POST …/edits {op: move, to: 0}` from the page), timed until the file has changed and its manifest "
          "starts with that image (autosave 2 s after the edit); it is moved back, saved, before SIGTERM. "
          "Peak RSS is `VmHWM` then; the JS heap is `Runtime.getHeapUsage` (used) at the mark, after the "
          "scrolling and at the end, the largest of the three.", ""]
    rows = [(f"{kind}: spawn → mark", f[kind], f"< {limit} s", ok(f"{name}first paint, {kind} thumbnail cache (issue 34)"))
            for kind, limit in PAINT_LIMITS]
    rows += [("longest time without a photo in view while scrolling", f["blank"], f"≤ {BLANK_LIMIT_MS} ms",
              ok(f"{name}longest time without a photo in view, scrolling to the end and back (issue 34)")),
             ("longest frame while scrolling (context)", f["longestFrame"], "—", None),
             ("the move's `POST` answered (context)", f["reorderAnswer"], "—", None),
             ("last image to the front → in the file", f["reorder"], "≤ 3 s",
              ok(f"{name}the last image to the front, saved by autosave (issue 34)"))]
    md += table(rows)
    md += table([("server peak RSS (VmHWM)", f["rss"], f"< {RSS_LIMIT_MIB} MiB", ok(f"{name}server peak RSS (issue 34)")),
                 ("the page's JS heap, used (MiB)", f["heap"], "< 300 MB (286.1 MiB)",
                  ok(f"{name}the page's JS heap (issue 34)"))], unit="MiB")
    if scale.get("errors"):
        md += ["Errors: " + "; ".join(scale["errors"]), ""]
    md += ["Reproduce: `make bench-editor ONLY=scale` (`Benchmarks/editor.py --only scale`); each load runs:", "",
           "```sh", scale["command"], "```", ""]
    return md
