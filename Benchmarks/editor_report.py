"""The figures and the RESULTS.md section of Benchmarks/editor.py, from its raw results alone."""

import statistics

from editor_support import summary, table
import editor_scale_report

MIB = 1024  # KiB per MiB
RSS_LIMIT_KIB = 150e6 / 1024  # the 150 MB, in KiB (143.1 MiB)
UNCHANGED = 1.10  # "unchanged" across two sessions: within 10 % of the recorded median
UNCHANGED_SAME_RUN = 1.05  # beside a baseline build in the same run: the noise of one run (section o's limit)


def pick(runs, key, scale=1.0):
    return summary([r[key] * scale for r in runs if r.get(key) is not None])


def target(name, limit, measured, ok):
    return {"name": name, "limit": limit, "measured": measured,
            "result": "n/a" if ok is None else "pass" if ok else "FAIL"}


def summarise(out):
    s, targets = {}, []
    if "paint" in out:
        summarise_paint(out["paint"], s, targets)
    if "edits" in out:
        summarise_edits(out["edits"], s, targets)
    if "scale" in out:
        editor_scale_report.summarise_scale(out["scale"], s, targets, target, 2.0)
    summarise_saves(out, s, targets)
    summarise_cli(out, s, targets)
    return {"figures": s, "targets": targets}


def summarise_paint(p, s, targets):
    """The first paint, the drop and the peak RSS on the 10,000-image gallery, into S and TARGETS."""
    for kind in ("cold", "warm"):
        s[kind] = {k: pick(p[kind], k) for k in ("wall", "wallPolled", "json", "navigateToMark", "markStart", "drop")}
    every = p["cold"] + p["warm"]
    s["rss"] = pick(every, "vmHWMKiB", 1 / MIB)
    for kind, limit in (("cold", 1.5), ("warm", 0.5)):
        w = s[kind]["wall"]
        targets.append(target(f"Editor: first paint of the 10,000-image gallery, {kind} thumbnail cache (issue 17)",
                              f"< {limit} s (median)", "not measured" if not w else
                              f"{w['median']:.3f} s ({w['min']:.3f} – {w['max']:.3f})",
                              None if not w else w["median"] < limit))
    for kind in ("cold", "warm"):
        d = s[kind]["drop"]
        targets.append(target(f"Editor: a dropped photo on the 10,000-image gallery until its placement is saved, "
                              f"{kind} thumbnail cache (issue 17)", "recorded", "not measured" if not d else
                              f"{d['median']:.3f} s ({d['min']:.3f} – {d['max']:.3f}), autosave 2 s after the drop "
                              "included", None if not d else True))
    r = s["rss"]
    targets.append(target("Editor: server peak RSS, 10,000 images loaded and scrolled (issue 17)",
                          "< 150 MB (143.1 MiB), every run", "not measured" if not r else
                          f"{r['max']:.1f} MiB at most (median {r['median']:.1f})",
                          None if not r else r["max"] * MIB < RSS_LIMIT_KIB))


def summarise_edits(e, s, targets):
    """The reorder and the drop on the 200-photo gallery, saved by autosave."""
    s["reorder"], s["drop"] = pick(e["runs"], "reorder"), pick(e["runs"], "drop")
    limit = e["autosave"] + 0.3
    r = s["reorder"]
    targets.append(target("Editor: a reorder on the 200-photo gallery saved by autosave (issue 17)",
                          f"≤ autosave delay + 0.3 s = {limit:.1f} s (median)", "not measured" if not r else
                          f"{r['median']:.3f} s ({r['min']:.3f} – {r['max']:.3f})", None if not r else r["median"] <= limit))
    d = s["drop"]
    targets.append(target("Editor: a dropped photo until its placement is saved (issue 17)", "recorded",
                          "not measured" if not d else f"{d['median']:.3f} s, {d['median'] - e['autosave']:.3f} s "
                          f"after the {e['autosave']:g} s autosave delay", None if not d else True))


def summarise_saves(out, s, targets):
    """The save after one edit on the 1 GiB gallery, on this disk and on XFS with reflink."""
    for key, label in (("save", "this disk"), ("xfs", "XFS loop image, reflink=1")):
        if key not in out:
            continue
        x = out[key]
        if x.get("failed"):
            targets.append(target(f"Editor: save after one edit, 1 GiB gallery, {label} (issue 17)", "recorded",
                                  f"not measured: {x['failed']}", None))
            continue
        rows = {k: summary(x.get(k, [])) for k in ("save", "cp + fsync", "cp", "cp --reflink=never + fsync", "cli",
                                                    "cli (baseline)", "caption")}
        s[key] = rows
        sv, anchor, cp = rows["save"], rows["cp + fsync"], rows["cp"]
        if not (sv and anchor and cp):
            continue
        ratio, plain = sv["median"] / anchor["median"], sv["median"] / cp["median"]
        text = f"{sv['median']:.3f} s: {ratio:.2f} × cp + fsync ({anchor['median']:.3f} s), {plain:.2f} × plain cp"
        if key == "save":
            targets.append(target("Editor: save after one edit on the 1 GiB gallery (issue 17)",
                                  "≤ 1.3 × `cp` + fsync", text, ratio <= 1.3))
        else:
            never = rows["cp --reflink=never + fsync"]
            shared = x.get("sharedAfterSave", [])
            text = (f"{sv['median']:.3f} s ({sv['min']:.3f} – {sv['max']:.3f}); a full copy (cp --reflink=never + sync) "
                    f"{never['median']:.3f} s, a clone (cp + sync) {anchor['median']:.3f} s; the save "
                    + ("cloned" if shared and min(shared) > 0 else "did not clone (no shared extents after it)"))
            targets.append(target("Editor: the same save on XFS with reflink (issue 17)", "recorded", text, True))


def summarise_cli(out, s, targets):
    """The main binary's start-up and embedded thumbnail, against the recorded or baseline medians."""
    for key, label in (("startup", "`imagegallery --version` start-up, beside section o"),
                       ("thumbembedded", "`thumbnail -s 256` from the embedded thumbnail, beside section i")):
        c = out.get("cli", {}).get(key)
        if not c:
            continue
        med = statistics.median(c["times"])
        ref = c.get("reference")
        s[key] = {"median": med, "reference": ref and ref["median"]}
        if not ref:
            targets.append(target(f"Editor: {label} unchanged", f"≤ {UNCHANGED:.2f} × the recorded median",
                                  f"{med * 1e3:.2f} ms; no recorded figure", None))
            continue
        r = med / ref["median"]
        same_run = ref.get("source", "").startswith("BASELINE_IG")
        limit = UNCHANGED_SAME_RUN if same_run else UNCHANGED
        s[key]["result"] = "pass" if r <= limit else "FAIL"
        targets.append(target(f"Editor: {label} unchanged (issue 17)",
                              f"≤ {limit:.2f} × the baseline build in the same run" if same_run else
                              f"≤ {limit:.2f} × the median in RESULTS.md",
                              f"{med * 1e3:.2f} ms against {ref['median'] * 1e3:.2f} ms ({r:.2f} ×)", r <= limit))


def markdown(out, a):
    s, T = out["summary"]["figures"], {t["name"]: t for t in out["summary"]["targets"]}
    ok = lambda name: None if T.get(name, {}).get("result", "n/a") == "n/a" else T[name]["result"] == "pass"  # noqa: E731
    n = out["runs"]
    scale_only = "scale" in out and not any(k in out for k in ("paint", "edits", "save", "xfs", "cli"))
    if scale_only:  # its own section, ac.1, with its own count of runs
        n = len(out["scale"]["cold"])
    title = ("## ac.1 The editor at 100,000 images (issue 34)" if scale_only else
             "## q. The gallery editor: first paint, edits saved by autosave, save of a 1 GiB gallery, peak RSS")
    md = [title, "",
          f"Measured by `Benchmarks/editor.py` (`make bench-editor`) on {out['date']}, {out['nproc']} CPUs, Linux "
          f"{out['kernel']}, with copies of the release binaries of `{out['bin']}` ({out['igVersion']}); "
          f"{n} runs of each, after one untimed warm-up where noted. Medians and ranges; raw figures in "
          "`.build-bench/results/editor.json`. Headless Chromium (Debian), one tab of 1280 × 900, driven over "
          "the DevTools protocol (`Tests/Browser/devtools.py`). Not generated by `report.py`: `editor.py "
          "--markdown` writes this section, pasted here with its rows of the Targets table; `make bench` "
          "leaves them out.", ""]
    if "paint" in out:
        md += markdown_paint(out["paint"], s, ok)
    if "edits" in out:
        md += markdown_edits(out["edits"], s, ok)
    if "scale" in out:
        md += editor_scale_report.markdown_scale(out["scale"], s, ok)
    for key in ("save", "xfs"):
        if key in out:
            md += markdown_save(key, out[key], s, T, ok)
    if "cli" in out:
        md += markdown_cli(out, s)
    md += ["Targets of this section (rows of the Targets table above):", "",
           "| target | limit | measured | result |", "|---|---|---:|---|"]
    for t in out["summary"]["targets"]:
        r = t["result"] if t["result"] == "n/a" else f"**{t['result']}**"
        md.append(f"| {t['name']} | {t['limit']} | {t['measured']} | {r} |")
    if out["errors"]:
        md += ["", "Errors in this run:", ""] + [f"- {e}" for e in out["errors"]]
    return md + [""]


def markdown_paint(p, s, ok):
    """The lines on the first paint of the 10,000-image gallery."""
    md = []
    md += ["**First paint of the 10,000-image gallery** (`g10k`, 1.10 GB, made by `imagegallery create`). "
           "Wall time from the spawn of `imagegallery edit G --no-open --json` (which execs "
           "`imagegallery-editor`) to the page's `imagegallery-grid-painted` mark: set once the first "
           "screen's thumbnails have loaded and two animation frames have passed. It is the time of the "
           "mark on the wall clock (`performance.timeOrigin + startTime`) less the time of the spawn, and "
           "adds up: the `{pid, url}` line, then `Page.navigate` to the launch link in an already "
           "running tab (its 303 to `/#gallery=KEY`), then the page, the document's view and the "
           "thumbnails. *Cold*: an empty `$XDG_CACHE_HOME/imagegallery/thumbnails` (each run its own "
           "folders), so every thumbnail on the screen is made from its JPEG; *warm*: the cache the last "
           "cold run filled. The gallery file and the binaries are in the page cache (one untimed load "
           "first). Chromium's cache is cleared before every load. After the mark, the page is scrolled "
           "ten screens with the mouse wheel, then to the end and back, each time until the thumbnails in "
           "view have loaded; the server's peak RSS is then `VmHWM` of `/proc/PID/status`. Then, back at "
           "the top, a real drop of `photos/large/00.jpg` (5.2 MB, 24 MP) from outside the page on the third "
           "cell is timed until the gallery file has changed and `list --json` shows the photo (autosave "
           "comes 2 s after the drop, and the save rewrites 1.1 GB); Delete then takes it out again, saved, "
           "before SIGTERM, and `sync` waits (untimed) until those 2.2 GB are on the disk before the next "
           "load.", ""]
    rows = []
    for kind, limit in (("cold", 1.5), ("warm", 0.5)):
        f = s[kind]
        name = f"Editor: first paint of the 10,000-image gallery, {kind} thumbnail cache (issue 17)"
        rows += [(f"{kind}: spawn → mark", f["wall"], f"< {limit} s", ok(name)),
                 (f"{kind}: spawn → mark seen by polling every 10 ms", f["wallPolled"], "—", None),
                 (f"{kind}: spawn → `{{pid, url}}` line", f["json"], "—", None),
                 (f"{kind}: `Page.navigate` → mark seen", f["navigateToMark"], "—", None),
                 (f"{kind}: the mark's `startTime`", f["markStart"], "—", None)]
        drop_name = (f"Editor: a dropped photo on the 10,000-image gallery until its placement is saved, {kind} "
                     "thumbnail cache (issue 17)")
        rows += [(f"{kind}: drop of one photo → in the file (2 s autosave delay included)", f["drop"], "recorded",
                  ok(drop_name))]
    md += table(rows)
    rss_name = "Editor: server peak RSS, 10,000 images loaded and scrolled (issue 17)"
    md += table([("server peak RSS (VmHWM), every run, cold and warm", s["rss"], "< 150 MB (143.1 MiB), every run",
                  ok(rss_name))], unit="MiB")
    cells = sorted({r["cells"] for r in p["cold"] + p["warm"]})
    exits = sorted({r["exit"] for r in p["cold"] + p["warm"]})
    md += [f"Thumbnails in view at the mark: {', '.join(map(str, cells))}. Exit status after SIGTERM: "
           f"{', '.join(map(str, exits))}.", "",
           "Reproduce (from the repository root): `Benchmarks/editor.py --only paint`, which runs, once "
           "per load, with its own `XDG_CACHE_HOME`, `XDG_STATE_HOME`, `XDG_RUNTIME_DIR` and `HOME`:", "",
           "```sh", p["command"], "```", ""]
    return md


def markdown_edits(e, s, ok):
    """The lines on the reorder and the drop saved by autosave."""
    md = [f"**A reorder and a drop on the 200-photo gallery, saved by autosave** (`photos/small`, "
           f"{e['galleryBytes'] / 1e6:.1f} MB, a fresh copy each run; autosave {e['autosave']:g} s after "
           "the last edit, the default). Once the grid is painted, a click focuses the first cell and "
           "Ctrl+ArrowRight (`Input.dispatchKeyEvent`) moves it one place right; then a real drop from "
           f"outside the page (`Input.dispatchDragEvent` dragEnter, dragOver, drop, `data.files` = "
           f"`{e['photo']}`, a {e['photoBytes'] / 1e6:.1f} MB 24 MP photo, `dragOperationsMask` 19) "
           "lands on the third cell. Each time is from the event to the moment the gallery file "
           "changed (its mtime, size and inode polled every 10 ms), confirmed by `imagegallery list "
           "--json` (the new order; the photo in the gallery with its size).", ""]
    reorder_name = "Editor: a reorder on the 200-photo gallery saved by autosave (issue 17)"
    drop = s["drop"]
    less = drop and {k: v - e["autosave"] for k, v in drop.items() if k in ("median", "min", "max")} | {"n": drop["n"]}
    md += table([("Ctrl+ArrowRight → new order in the file", s["reorder"],
                  f"≤ {e['autosave']:g} s + 0.3 s", ok(reorder_name)),
                 ("drop of one photo → in the file", drop, "recorded",
                  ok("Editor: a dropped photo until its placement is saved (issue 17)")),
                 (f"the same less the {e['autosave']:g} s autosave delay", less, "—", None)])
    md += ["Reproduce: `Benchmarks/editor.py --only edits`; the server of each run, on its own copy of this gallery:", "",
           "```sh", e["command"], "```", ""]
    return md


def markdown_save(key, x, s, T, ok):
    """The lines on the save of the 1 GiB gallery, on this disk (KEY save) or on XFS (xfs)."""
    md = []
    if key == "save":
        md += ["**The save after one edit on the 1 GiB gallery** (the gallery `create` makes of `g1g`, "
               f"{x.get('galleryBytes', 0) / 1e9:.2f} GB, on this disk: {x.get('fs', '?')}). Over the HTTP "
               "interface, as the page does it: `POST /api/documents/KEY/edits` with a `caption` of the "
               "first image, then the timed `POST` of `{\"op\": \"save\"}`, which answers when the document "
               "layer's save (a new file with every blob copied by `copy_file_range`, fsync, the swap, fsync "
               "of the folder) is done. Anchor, as in section k: `cp` over an existing copy of the file, "
               "then `sync` of the copy; plain `cp` (no flush) beside it. Each run does, in turn, each after "
               "`sync`: `cp --reflink=never` + `sync`, the CLI's `caption` of the copy, `cp`, `cp` + `sync`, "
               "then the editor's caption and save; the first run is an untimed warm-up.", ""]
    else:
        md += ["**The same save on an XFS loop image with reflink** (as root: " +
               "; ".join(f"`{c}`" for c in x["steps"]) + "; the gallery copied in, the editor's state on the "
               "disk above). `cp` of coreutils 9 clones by default where it can (`--reflink=auto`), so a full "
               "copy, `cp --reflink=never` + `sync`, is shown too.", ""]
    if x.get("failed"):
        return md + [f"Not measured: {x['failed']}.", ""]
    f = s.get(key, {})
    name = ("Editor: save after one edit on the 1 GiB gallery (issue 17)" if key == "save"
            else "Editor: the same save on XFS with reflink (issue 17)")
    rows = [("`POST {\"op\": \"save\"}` after one caption", f.get("save"),
             "≤ 1.3 × cp + fsync" if key == "save" else "recorded", ok(name)),
            ("`cp` over the copy + `sync` (anchor)", f.get("cp + fsync"), "—", None),
            ("plain `cp` over the copy", f.get("cp"), "—", None)]
    if f.get("cp --reflink=never + fsync"):
        rows.append(("`cp --reflink=never` + `sync` (a full copy)", f["cp --reflink=never + fsync"], "—", None))
    rows += [("`imagegallery caption` of the copy (the CLI's save, section k; context)", f.get("cli"), "—", None)]
    if f.get("cli (baseline)"):
        rows.append(("the same `caption` by the baseline build, `BASELINE_IG` (context)", f["cli (baseline)"], "—", None))
    rows += [("`POST` of the caption edit (context)", f.get("caption"), "—", None)]
    md += table(rows)
    md += [T[name]["measured"] + ". Shared extents of the gallery file (`filefrag -v`) right after each save, "
           "which came right after a `cp` of it: " + ", ".join(map(str, x.get("sharedAfterSave", []))) + "."
           + (" Notes: " + "; ".join(x["notes"]) if x["notes"] else ""), ""]
    if x.get("probe"):
        md += ["When `copy_file_range` clones here: 64 MiB copied by `os.copy_file_range`, then fsync:", "",
               "| case | source offset | destination offset | seconds | shared extents after |",
               "|---|---:|---:|---:|---:|"]
        md += [f"| {c['case']} | {c['srcOffset']} | {c['dstOffset']} | {c['seconds']:.3f} | {c['sharedExtents']} |"
               for c in x["probe"]] + [""]
    md += [f"Reproduce: `Benchmarks/editor.py --only {key}`; the server:", "", "```sh", x["command"], "```", ""]
    return md


def markdown_cli(out, s):
    """The lines on the main binary, unchanged."""
    same_run = any((out["cli"].get(k) or {}).get("reference", {}) and
                   out["cli"][k]["reference"].get("source", "").startswith("BASELINE_IG") for k in out["cli"])
    md = (["**The main binary, unchanged.** The same rows as sections o and i, timed with hyperfine (the "
           "binary's copy) in one run beside a baseline build (`BASELINE_IG`: "
           f"`{next(iter(out['cli'].values()))['reference']['source'].split(' ', 1)[1]}`); \"unchanged\" is "
           f"within {UNCHANGED_SAME_RUN:.2f} × of it, the noise of one run.", "",
           "| command | median now (ms) | min – max (ms) | baseline, same run (ms) | ratio | result |",
           "|---|---:|---:|---:|---:|---|"] if same_run else
          ["**The main binary, unchanged.** The same rows as sections o and i, timed again with "
           "hyperfine (the binary's copy), beside the medians those sections show; \"unchanged\" is taken "
           f"as within {UNCHANGED:.2f} × of them, since the two figures come from different sessions.", "",
           "| command | median now (ms) | min – max (ms) | in RESULTS.md (ms) | ratio | result |",
           "|---|---:|---:|---:|---:|---|"])
    for key in ("startup", "thumbembedded"):
        c = out["cli"].get(key)
        if not c:
            continue
        med, ref = s[key]["median"], s[key]["reference"]
        result = s[key].get("result", "n/a")
        md.append(f"| `{c['name']}` | {med * 1e3:.2f} | {min(c['times']) * 1e3:.2f} – {max(c['times']) * 1e3:.2f} | "
                  f"{'—' if ref is None else f'{ref * 1e3:.2f}'} | {'—' if ref is None else f'{med / ref:.2f}'} | "
                  f"{result if result == 'n/a' else f'**{result}**'} |")
    md += [""] + ["```sh"] + [out["cli"][k]["command"] for k in ("startup", "thumbembedded") if k in out["cli"]] + ["```", ""]
    return md
