#!/usr/bin/python3
"""Write Benchmarks/RESULTS.md from what Benchmarks/run.sh recorded. No figure is typed by hand.

usage: report.py RESULTS_DIR OUT.md
       report.py --section KEY RESULTS_DIR OUT.md   (that section alone, e.g. for zipfoundation.sh)

RESULTS_DIR holds, per comparison KEY:
  KEY.json      hyperfine --export-json (one invocation, all commands side by side)
  KEY.cmd       the hyperfine command line, as run from the repository root
  KEY.rss.tsv   "name<TAB>peak RSS in KiB" lines (GNU time %M), several runs per name
  KEY.notes     optional: failures and remarks
  KEY.env       optional: KEY=VALUE lines for this comparison alone (WARMUP and RSS_RUNS when
                they differ from run.sh's; the zipfoundation figures)
  KEY.instructions.tsv  optional: "name<TAB>instructions" lines (valgrind), one per name
and machine.env (KEY=VALUE lines: machine, date, commit, tool versions, mode).

To add a benchmark: make run.sh produce KEY.* (one `compare KEY` call), then append a
Section to SECTIONS (row names = hyperfine -n names) and, if the issue sets a target, a
Target to TARGETS. Rows listed here but absent from the JSON show as "not measured".
"""
import json
import os
import statistics
import sys
from dataclasses import dataclass, field
from typing import Callable, List, Optional

MIB = 1024  # KiB per MiB (GNU time %M is in KiB)


@dataclass
class Section:
    key: str                 # file stem in RESULTS_DIR, and `run.sh --only` key
    title: str
    what: str                # what the figure means
    anchor: str              # the row the ratios are taken against
    rows: List[str]          # hyperfine -n names, in table order
    context: List[str] = field(default_factory=list)  # rows shown for context, not targets
    gallery: Optional[str] = None  # machine.env key saying who wrote the input gallery
    optional: List[str] = field(default_factory=list)  # rows left out, not "not measured", when absent
    cpu: bool = False        # a column of hyperfine's user + system time
    footer: str = ""         # more for the paragraph under the table (formatted like `what`)
    reproduce: Optional[str] = None  # the sentence before the hyperfine line (default: after make bench)


@dataclass
class Target:
    name: str                # what the issue asks
    limit: str
    measure: Callable        # (Results) -> (measured text, True/False) or None if not measured;
                             # (text, None): not measured, the text says why


SECTIONS = [
    Section(
        key="info",
        title="a. Open a 10,000-image gallery and read its manifest: `info --json` vs `unzip -p`",
        what="Whole-process time to print the summary of `g10k.imagegallery` ({g10k_count} "
             "distinct JPEGs, {g10k_gb} GB; made once per run by `imagegallery create`) as JSON, "
             "against "
             "Info-ZIP `unzip -p` inflating `manifest.json` from the same file. Output goes to "
             "/dev/null. Both must find the central directory at the end of a 1.1 GB file and "
             "inflate the ~4 MB manifest; ours also parses and checks it.",
        anchor="unzip -p manifest.json",
        rows=["imagegallery info --json", "unzip -p manifest.json"],
        gallery="G10K_GALLERY",
    ),
    Section(
        key="create",
        title="b. Create a 1 GiB gallery: `create` vs `bsdtar` (stored zip) and `zip -0`",
        what="Whole-process time to write a new archive of the `g1g` set ({g1g_count} real "
             "photos: the 200 of 1-3 MP and 20 of 24 MP, repeated with distinct JPEG comments; "
             "{g1g_gb} GB) into "
             "a fresh output file (removed before every run; inputs in the page cache after the "
             "warm-ups). bsdtar (libarchive) writes a stored zip: the anchor. Info-ZIP `zip -0` "
             "is context. Ours also hashes every image (SHA-256), reads each image's size, writes "
             "the manifest and thumbnail, and saves safely: temp file, fsync, rename, fsync of the "
             "folder. `bsdtar + sync` adds the flush to disk that ours does, and `create --no-sync` "
             "leaves it out as bsdtar does: the two like-for-like pairs the targets compare. The "
             "ratio column is against plain bsdtar for every row. Every run starts after `sync`, "
             "so no run pays for the previous one's write-back.",
        anchor="bsdtar --format zip (store)",
        rows=["imagegallery create", "imagegallery create --no-sync", "bsdtar --format zip (store)",
              "bsdtar + sync (durable, like ours)", "zip -0"],
        context=["zip -0"],
    ),
    Section(
        key="list",
        title="c. List a 10,000-image gallery: `list --json` (no anchor; `unzip -l` for context)",
        what="Whole-process time to print all {g10k_count} image records of `g10k.imagegallery` "
             "as JSON, to /dev/null. `unzip -l` lists the central directory's entries: it "
             "is context only (different work), so the ratio is indicative.",
        anchor="unzip -l",
        rows=["imagegallery list --json", "unzip -l"],
        context=["unzip -l"],
        gallery="G10K_GALLERY",
    ),
    Section(
        key="extract",
        title="d. Extract all images of a 200-photo gallery: `extract` vs `unzip -d`",
        what="Whole-process time to write all {small_count} images ({small_mb} MB) of a gallery "
             "made from "
             "`photos/small` into a fresh, empty folder. Ours checks CRC-32 and SHA-256 of each "
             "image; `unzip -q -o -d` checks CRC-32 and also writes `mimetype`, `manifest.json` "
             "and `thumbnail.png`.",
        anchor="unzip -q -o -d",
        rows=["imagegallery extract", "unzip -q -o -d"],
        gallery="G200_GALLERY",
    ),
    Section(
        key="validate",
        title="e. Validate a 1 GiB gallery: `validate` vs `7z t` and `unzip -tq`",
        what="Whole-process time to check the gallery `create` makes of the `g1g` set ({g1g_gb} GB, "
             "{g1g_count} photos), in the page cache. `7z t` checks the CRC-32 of every entry: the "
             "anchor. Ours also checks every structural rule, the manifest, the SHA-256, size, type "
             "and header of every image, and the thumbnail. `unzip -tq` is context, and so is "
             "`validate --deep`, which also decodes every photo (at 1/8 scale) and the thumbnail. "
             "So is the hashing floor: OpenSSL's SHA-256 of the same photos as files, in two "
             "processes (one per core), which validate cannot beat since it must hash every byte.",
        anchor="7z t",
        rows=["imagegallery validate", "7z t", "unzip -tq", "imagegallery validate --deep",
              "SHA-256 of the photos, 2 processes (openssl)"],
        context=["unzip -tq", "imagegallery validate --deep", "SHA-256 of the photos, 2 processes (openssl)"],
    ),
    Section(
        key="jobs",
        title="f. Validate a folder of 500 galleries: `--jobs 1` vs `--jobs 2`",
        what="Whole-process time to validate 500 galleries of 4 photos each (the first 2,000 "
             "images of `g10k`, about 440 kB per gallery) in one folder, one file at a time "
             "against two at a time on this 2-core machine. The anchor is ours with `--jobs 1`.",
        anchor="validate --jobs 1",
        rows=["validate --jobs 1", "validate --jobs 2"],
    ),
]


THUMB_WHAT = ("Whole-process time to write a {size} px PNG thumbnail of a gallery whose first photo is "
              "24 MP (6000 × 4000, baseline JPEG, `photos/large/00.jpg`) and which has no thumbnail.png "
              "(rewritten without it), so ours decodes the photo (at the DCT scale that covers {size} px) "
              "and filters it down with Lanczos-3. The anchors read the JPEG file alone: "
              "`vipsthumbnail -s {size}` and ImageMagick `convert -define jpeg:size={twice}x{twice} "
              "-thumbnail {size}x{size}`. PSNR of ours against vipsthumbnail's output: {psnr} dB.")

SECTIONS += [
    Section(key="thumb256", title="g. Thumbnail at 256 px, no embedded thumbnail: `thumbnail` vs vipsthumbnail and ImageMagick",
            what=THUMB_WHAT.replace("{size}", "256").replace("{twice}", "512").replace("{psnr}", "{psnr256}"),
            anchor="vipsthumbnail -s 256",
            rows=["imagegallery thumbnail -s 256", "vipsthumbnail -s 256", "convert -thumbnail 256x256"]),
    Section(key="thumb1024", title="h. Thumbnail at 1,024 px, no embedded thumbnail: `thumbnail` vs vipsthumbnail and ImageMagick",
            what=THUMB_WHAT.replace("{size}", "1024").replace("{twice}", "2048").replace("{psnr}", "{psnr1024}"),
            anchor="vipsthumbnail -s 1024",
            rows=["imagegallery thumbnail -s 1024", "vipsthumbnail -s 1024", "convert -thumbnail 1024x1024"]),
    Section(key="thumbembedded", title="i. Thumbnail at 256 px from the embedded thumbnail: `thumbnail` vs vipsthumbnail",
            what="The same photo in a gallery made by `create`, which embeds its thumbnail: ours "
                 "decodes only that PNG. vipsthumbnail reads the 24 MP JPEG, as in g. The desktop's line "
                 "(`-s %s %i %o`) skips the argument parser; the third row is the same request through "
                 "it (`--` before the paths), which shows what that fast path saves.",
            anchor="vipsthumbnail -s 256",
            rows=["imagegallery thumbnail -s 256 (embedded)", "vipsthumbnail -s 256",
                  "imagegallery thumbnail -s 256 -- (embedded, through the argument parser)"]),
]


SECTIONS += [
    Section(key="open", title="j. Open a document: `versions` (to read) and `rename` (to edit, no change) vs `unzip -p`",
            what="Whole-process time to open `g10k.imagegallery` ({g10k_count} images, {g10k_gb} GB) through "
                 "the document layer: the manifest read and checked, the file's identity and fingerprint "
                 "recorded, the version store and the folder searched for conflict copies; `rename` to the "
                 "title it already has also takes and releases the lock, and saves nothing. The anchor "
                 "inflates the manifest with Info-ZIP `unzip -p`.",
            anchor="unzip -p manifest.json",
            rows=["imagegallery versions --json (open to read)", "imagegallery rename (open to edit, no change)",
                  "unzip -p manifest.json"],
            gallery="G10K_GALLERY"),
    Section(key="save", title="k. Save after one edit on a 1 GiB gallery: `caption` vs `cp` + fsync",
            what="Whole-process time to change one caption of the gallery `create` makes of the `g1g` set "
                 "({g1g_gb} GB) and save: the lock, the manifest, a new file beside the old one with every "
                 "blob copied raw inside the kernel (`copy_file_range`, never decoded or re-hashed), fsync, "
                 "the swap, fsync of the folder, and the old file's removal. The anchor copies the file with "
                 "coreutils `cp` (which also uses `copy_file_range`) over an existing copy and flushes it "
                 "with `sync FILE`: like the save, it replaces a 1 GiB file, whose cached pages the kernel "
                 "drops (about 0.5 s on this machine). `cp` to a new file replaces nothing and is context. "
                 "A safe save done with cp (a temporary copy, fsync, `mv` over the file, fsync of the folder) "
                 "is context too: it does what the save does, without the edit. Every run starts after `sync`.",
            anchor="cp over the old copy + fsync",
            rows=["imagegallery caption (save after one edit)", "cp over the old copy + fsync",
                  "cp to a new file + fsync", "cp to a temp file + fsync + mv over + fsync folder"],
            context=["cp to a new file + fsync", "cp to a temp file + fsync + mv over + fsync folder"]),
    Section(key="fetch", title="l. Fetch 200 images from a loopback server into a new gallery: 4 at a time, 1 at a time, warm cache",
            what="Whole-process time of `create` with the {small_count} small photos ({small_mb} MB) as 200 URLs, served "
                 "on 127.0.0.1 by the tests' scripted server (Tests/Servers/gallery-http-server.py) with "
                 "{fetch_delay} ms of simulated network latency per response. `--cache-policy reload` makes every "
                 "run transfer every image; the warm rows use the default policy on a cache the earlier rows "
                 "filled: with `max-age=86400` the server is not asked, with `max-age=0` every image is revalidated "
                 "(If-None-Match, 304). Every row writes the gallery (`--no-sync`). curl, one process fetching the "
                 "same URLs to files, is the anchor. Requests checked in the server's log after one more warm run: "
                 "fresh {warm_fresh_requests} requests, {warm_fresh_bodies} with a body; revalidated "
                 "{warm_stale_requests} requests, {warm_stale_bodies} with a body, {warm_stale_304} answered 304. "
                 "The server's port changes from run to run: reproduce with `Benchmarks/run.sh --only fetch`, "
                 "which starts it (the line below shows what it runs).",
            anchor="curl -Z --parallel-max 4, 200 URLs",
            rows=["imagegallery create, 200 URLs, --jobs 4", "imagegallery create, 200 URLs, --jobs 1",
                  "imagegallery create, 200 URLs, warm cache (fresh)", "imagegallery create, 200 URLs, warm cache (revalidated)",
                  "curl -Z --parallel-max 4, 200 URLs", "curl, 200 URLs one after another"],
            context=["curl, 200 URLs one after another"]),
    Section(key="convert", title="m. Convert a 200-image tar into a gallery vs bsdtar -xf then zip -0",
            what="Whole-process time of `convert` on a plain tar of the {small_count} small photos ({small_mb} MB), made "
                 "once by bsdtar; the anchor unpacks the same tar with `bsdtar -xf` and stores the images with "
                 "`zip -0`, in one shell. Neither anchor flushes to disk, so ours is also timed with `--no-sync`; "
                 "every run starts from no output and a `sync`.",
            anchor="bsdtar -xf, then zip -0",
            rows=["imagegallery convert (tar to gallery)", "imagegallery convert --no-sync", "bsdtar -xf, then zip -0"],
            context=[]),
]


ZF_ANCHOR, ZF_OURS = "ZIPFoundation 0.9.20 + JSONDecoder", "imagegallery GalleryReader"
STARTUP_OURS, STARTUP_BASELINE = "imagegallery --version", "baseline: imagegallery --version"

SECTIONS += [
    # Context for the README's "Why its own ZIP and JSON code": no target. Measured by
    # Benchmarks/zipfoundation.sh (run.sh --only zipfoundation), which also writes zipfoundation.env.
    Section(key="zipfoundation",
            title="n. Open the 10,000-image gallery's manifest: GalleryReader vs ZIPFoundation + JSONDecoder",
            what="Whole-process time to open `g10k.imagegallery` ({zf_count} images, {zf_gb} GB, "
                 "written by `imagegallery create` as in section a) and read its manifest "
                 "({zf_manifest_mb} MB, deflated to {zf_manifest_stored_mb} MB) "
                 "into a model, then print the image count; both print the same count, checked before timing. "
                 "The anchor is ZIPFoundation 0.9.20 (`Archive(url:accessMode: .read)`, `archive[\"manifest.json\"]`, "
                 "`extract` into `Data`, its CRC-32 compared) with Foundation's `JSONDecoder` into a `Decodable` mirror "
                 "of the manifest (every member of format sections 6.3 and 6.4; UUIDs parsed, date-times and "
                 "digests left as strings). Ours is `GalleryReader(path:)`, as `info` and `list` open a file; "
                 "it inflates and decodes the manifest on a second thread while it checks the container, so "
                 "the CPU column (both threads) says more than the wall time on a busy machine. "
                 "The two are two small executables of the side package `Benchmarks/zipfoundation/manifest-open`, "
                 "release builds linked the same way (Swift runtime and Foundation as shared libraries), so the "
                 "figures are not comparable with section a's static binary.\n\n"
                 "Not the same work, and the difference is the point: ours also checks `mimetype`, reads all "
                 "{zf_entries} local headers and checks each against the central directory, refuses duplicate and "
                 "case-folded duplicate names, overlapping entries, hidden local headers, bytes between "
                 "entries and data descriptors on stored entries (the IG-PKG rules of format section 9.2), "
                 "bounds the manifest's size, depth and member counts while it inflates and parses, refuses "
                 "duplicate keys and lone surrogates, and checks every schema rule (date-times, digests, "
                 "`path` against `sha256`, ranges, unique ids). ZIPFoundation reads the central directory "
                 "and local headers only up to `manifest.json` (the second entry) and takes the first of "
                 "duplicate names; `JSONDecoder` checks syntax and the mirror's types. Both check the "
                 "manifest's CRC-32.",
            anchor=ZF_ANCHOR,
            rows=[ZF_OURS, ZF_ANCHOR],
            cpu=True,
            footer="Date: {zf_date}. Commit: {zf_commit}. {zf_nproc} CPUs (nproc), shared with other work; "
                   "{zf_hyperfine}; {zf_swift}.",
            reproduce="Reproduce (from the repository root): `Benchmarks/run.sh --only zipfoundation`, or "
                      "`Benchmarks/zipfoundation.sh` alone (which also writes this section to "
                      "`.build-bench/results/zipfoundation.md`). Either builds the side package into "
                      "`.build-zf`, reuses or writes the gallery, checks the two counts and runs the line below:"),
    Section(key="startup",
            title="o. Start-up: `imagegallery --version`, against a baseline build",
            what="Whole-process time of `{ig} --version` ({ig_version}): the process start (loader, "
                 "the Swift runtime and the modules' initialisation), the argument parser and one line "
                 "to /dev/null. It is the floor under every command's time in the other sections. "
                 "{startup_baseline}",
            anchor=STARTUP_BASELINE,
            rows=[STARTUP_OURS, STARTUP_BASELINE],
            optional=[STARTUP_BASELINE],
            reproduce="Reproduce (from the repository root; `BASELINE_IG=OTHER-BUILD Benchmarks/run.sh "
                      "--only startup` runs it and writes the report):"),
]


def read_env(p):
    """KEY=VALUE lines as a dict; {} if the file is absent."""
    env = {}
    if os.path.exists(p):
        with open(p) as fh:
            for line in fh:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    env[k] = v
    return env


class Results:
    """Everything run.sh recorded, with lookups that return None when a row is missing."""

    def __init__(self, d):
        self.dir = d
        self.machine = read_env(os.path.join(d, "machine.env"))
        self.runs, self.rss, self.cmd, self.notes, self.env, self.instructions = {}, {}, {}, {}, {}, {}
        for s in SECTIONS:
            self.runs[s.key] = {}
            p = os.path.join(d, s.key + ".json")
            if os.path.exists(p):
                with open(p) as fh:
                    for r in json.load(fh).get("results", []):
                        self.runs[s.key][r["command"]] = r
            self.rss[s.key] = {}
            p = os.path.join(d, s.key + ".rss.tsv")
            if os.path.exists(p):
                with open(p) as fh:
                    for line in fh:
                        name, _, kb = line.rstrip("\n").rpartition("\t")
                        if name and kb.strip().isdigit():
                            self.rss[s.key].setdefault(name, []).append(int(kb))
            p = os.path.join(d, s.key + ".cmd")
            self.cmd[s.key] = open(p).read().strip() if os.path.exists(p) else None
            p = os.path.join(d, s.key + ".notes")
            self.notes[s.key] = open(p).read().splitlines() if os.path.exists(p) else []
            self.env[s.key] = read_env(os.path.join(d, s.key + ".env"))
            self.instructions[s.key] = {}
            p = os.path.join(d, s.key + ".instructions.tsv")
            if os.path.exists(p):
                with open(p) as fh:
                    for line in fh:
                        name, _, n = line.rstrip("\n").rpartition("\t")
                        if name and n.strip().isdigit() and int(n) > 0:
                            self.instructions[s.key][name] = int(n)
        p = os.path.join(d, "robustness.notes")
        self.notes["robustness"] = open(p).read().splitlines() if os.path.exists(p) else []

    def setting(self, key, name):
        """WARMUP or RSS_RUNS of one comparison: its KEY.env if it says, else run.sh's."""
        return self.env.get(key, {}).get(name) or self.machine.get(name, "?")

    def corpus_figures(self):
        m = self.machine
        zf = self.env.get("zipfoundation", {})

        def num(k, scale, fmt, src=m):
            try:
                v = int(src[k])
                return format(v if scale == 1 else v / scale, fmt)
            except (KeyError, ValueError):
                return "?"
        if m.get("BASELINE_IG"):
            version = m.get("BASELINE_IG_VERSION") or "version unknown"
            baseline = (f"The anchor is the build named by `BASELINE_IG`, `{m['BASELINE_IG']}` ({version}), "
                        "measured in the same hyperfine run; the target allows 1.05 × its median, the noise "
                        "of one run.")
        else:
            baseline = ("No baseline in this run: with `BASELINE_IG` naming another build of imagegallery "
                        "(e.g. the previous commit's release binary), `run.sh` times it in the same "
                        "hyperfine run as the anchor, and the Targets table compares the two.")
        figures = {"ig": m.get("IG", "imagegallery"), "ig_version": m.get("IG_VERSION", "version unknown"),
                   "startup_baseline": baseline,
                   "zf_count": num("COUNT", 1, ",", zf), "zf_gb": num("GALLERY_BYTES", 1e9, ".2f", zf),
                   "zf_entries": num("ENTRIES", 1, ",", zf),
                   "zf_manifest_mb": num("MANIFEST_BYTES", 1e6, ".1f", zf),
                   "zf_manifest_stored_mb": num("MANIFEST_STORED", 1e6, ".2f", zf),
                   "zf_date": zf.get("DATE", "?"), "zf_commit": zf.get("COMMIT", "?"),
                   "zf_nproc": zf.get("NPROC", "?"), "zf_hyperfine": zf.get("HYPERFINE", "?"),
                   "zf_swift": zf.get("SWIFT", "?")}
        return figures | {"g10k_count": num("G10K_COUNT", 1, ","), "g10k_gb": num("G10K_BYTES", 1e9, ".2f"),
                "g1g_count": num("G1G_COUNT", 1, ","), "g1g_gb": num("G1G_BYTES", 1e9, ".2f"),
                "small_count": num("SMALL_COUNT", 1, ","), "small_mb": num("SMALL_BYTES", 1e6, ".0f"),
                "psnr256": m.get("PSNR_256", "?"), "psnr1024": m.get("PSNR_1024", "?"),
                "fetch_delay": m.get("FETCH_DELAY_MS", "?"),
                "warm_fresh_requests": m.get("FETCH_WARM_FRESH_REQUESTS", "?"),
                "warm_fresh_bodies": m.get("FETCH_WARM_FRESH_BODY_GETS", "?"),
                "warm_stale_requests": m.get("FETCH_WARM_STALE_REQUESTS", "?"),
                "warm_stale_bodies": m.get("FETCH_WARM_STALE_BODY_GETS", "?"),
                "warm_stale_304": m.get("FETCH_WARM_STALE_304", "?")}

    def median(self, key, name):
        r = self.runs.get(key, {}).get(name)
        return statistics.median(r["times"]) if r and r.get("times") else None

    def rss_mib(self, key, name):
        v = self.rss.get(key, {}).get(name)
        return statistics.median(v) / MIB if v else None

    def ratio(self, key, name, anchor):
        a, b = self.median(key, name), self.median(key, anchor)
        return a / b if a is not None and b else None


def t_info(R):
    r = R.ratio("info", "imagegallery info --json", "unzip -p manifest.json")
    if r is None:
        return None
    return f"{r:.2f} × unzip -p", r <= 2.0


def t_create_time(R):
    # Like for like: neither flushes to disk.
    r = R.ratio("create", "imagegallery create --no-sync", "bsdtar --format zip (store)")
    if r is None:
        return None
    return f"{r:.2f} × bsdtar", r <= 1.0


def t_create_durable(R):
    # Like for like: both flush to disk before they finish.
    r = R.ratio("create", "imagegallery create", "bsdtar + sync (durable, like ours)")
    if r is None:
        return None
    return f"{r:.2f} × bsdtar + sync", r <= 1.0


def t_create_rss(R):
    m = R.rss_mib("create", "imagegallery create")
    if m is None:
        return None
    return f"{m:.1f} MiB", m < 64


def t_validate_time(R):
    r = R.ratio("validate", "imagegallery validate", "7z t")
    if r is None:
        return None
    return f"{r:.2f} × 7z t", r <= 1.0


def t_validate_rss(R):
    m = R.rss_mib("validate", "imagegallery validate")
    if m is None:
        return None
    return f"{m:.1f} MiB", m < 100


def t_jobs(R):
    r = R.ratio("jobs", "validate --jobs 2", "validate --jobs 1")
    if r is None:
        return None
    return f"{r:.2f} × --jobs 1", r < 1.0


def t_thumb(size):
    def measure(R):
        ours = R.median(f"thumb{size}", f"imagegallery thumbnail -s {size}")
        anchors = [R.median(f"thumb{size}", n) for n in (f"vipsthumbnail -s {size}", f"convert -thumbnail {size}x{size}")]
        anchors = [a for a in anchors if a]
        if ours is None or not anchors:
            return None
        r = ours / min(anchors)
        return f"{r:.2f} × the faster", r <= 1.0
    return measure


def t_thumb_embedded(R):
    r = R.ratio("thumbembedded", "imagegallery thumbnail -s 256 (embedded)", "vipsthumbnail -s 256")
    if r is None:
        return None
    return f"{r:.3f} × vipsthumbnail", r < 0.10


def t_thumb_rss(R):
    m = max((R.rss_mib(k, n) or 0) for k, n in (("thumb256", "imagegallery thumbnail -s 256"),
                                                  ("thumb1024", "imagegallery thumbnail -s 1024")))
    if not m:
        return None
    return f"{m:.1f} MiB", m < 256


def t_open(R):
    ratios = [R.ratio("open", n, "unzip -p manifest.json") for n in
              ("imagegallery versions --json (open to read)", "imagegallery rename (open to edit, no change)")]
    if None in ratios:
        return None
    return f"{ratios[0]:.2f} (read), {ratios[1]:.2f} (edit) × unzip -p", max(ratios) <= 2.0


def t_save(R):
    r = R.ratio("save", "imagegallery caption (save after one edit)", "cp over the old copy + fsync")
    fresh = R.ratio("save", "imagegallery caption (save after one edit)", "cp to a new file + fsync")
    if r is None:
        return None
    context = "" if fresh is None else f" ({fresh:.2f} × cp to a new file)"
    return f"{r:.2f} × cp over the copy + fsync{context}", r <= 1.3


def t_psnr(R):
    values = [R.machine.get(f"PSNR_{s}") for s in (256, 1024)]
    if not all(values):
        return None
    return f"{values[0]} dB at 256, {values[1]} dB at 1,024", True


def t_fetch_parallel(R):
    r = R.ratio("fetch", "imagegallery create, 200 URLs, --jobs 4", "imagegallery create, 200 URLs, --jobs 1")
    if r is None:
        return None
    return f"{r:.2f} × `--jobs 1`", r <= 1 / 3


def t_fetch_warm(R):
    t = R.median("fetch", "imagegallery create, 200 URLs, warm cache (fresh)")
    bodies = R.machine.get("FETCH_WARM_FRESH_BODY_GETS")
    if t is None or bodies is None:
        return None
    stale = R.median("fetch", "imagegallery create, 200 URLs, warm cache (revalidated)")
    stale_bodies = R.machine.get("FETCH_WARM_STALE_BODY_GETS", "?")
    context = "" if stale is None else f"; revalidating all 200: {stale:.2f} s, {stale_bodies} GETs with a body"
    return f"{t:.2f} s, {bodies} GETs with a body{context}", t < 2.0 and bodies == "0" and stale_bodies in ("0", "?")


def t_convert(R):
    r = R.ratio("convert", "imagegallery convert --no-sync", "bsdtar -xf, then zip -0")
    if r is None:
        return None
    durable = R.ratio("convert", "imagegallery convert (tar to gallery)", "bsdtar -xf, then zip -0")
    context = "" if durable is None else f" (flushed to disk: {durable:.2f} ×)"
    return f"{r:.2f} ×{context}", r <= 1.5


def t_startup(R):
    if not R.machine.get("BASELINE_IG"):
        return ("not measured (no baseline)", None) if R.runs.get("startup") else None
    r = R.ratio("startup", STARTUP_OURS, STARTUP_BASELINE)
    if r is None:
        return None
    ours, base = R.median("startup", STARTUP_OURS), R.median("startup", STARTUP_BASELINE)
    return f"{r:.2f} × baseline ({ours * 1e3:.2f} ms against {base * 1e3:.2f} ms)", r <= 1.05


def load_json(R, name):
    p = os.path.join(R.dir, name)
    if not os.path.exists(p):
        return None
    with open(p) as fh:
        return json.load(fh)


def t_hostile(R):
    h = load_json(R, "hostile.json")
    if h is None:
        return None
    s = h["summary"]
    cmds = s["commands"]
    slow = max((c["slowest"][0] for c in cmds.values() if c["slowest"]), key=lambda x: x[1], default=["—", 0])
    rss = max(c["maxRssKB"] or 0 for c in cmds.values())
    text = (f"{s['runs']} runs over {s['files']} files, {s['problemRuns']} with a problem; "
            f"peak {rss / MIB:.1f} MiB; slowest {slow[1]:.2f} s ({slow[0]})")
    return text, s["problemRuns"] == 0 and rss <= 256 * MIB


def t_fuzz(R):
    f = load_json(R, "fuzz.json")
    if f is None:
        return None
    clean = [t for t in f["targets"] if t["result"] == "clean"]
    return (f"{len(clean)}/{len(f['targets'])} targets clean after {f['seconds']} s each",
            len(clean) == len(f["targets"]) and f["seconds"] >= 600)


TARGETS = [
    Target("`info --json` on the 10,000-image gallery", "≤ 2 × `unzip -p manifest.json`", t_info),
    Target("`create --no-sync` of the 1 GiB set: time (neither flushes)", "≤ bsdtar (median)", t_create_time),
    Target("`create` (default, flushed to disk) of the 1 GiB set: time", "≤ bsdtar + sync (median)", t_create_durable),
    Target("`create` of the 1 GiB set: peak RSS", "< 64 MiB", t_create_rss),
    Target("`validate` of a 1 GiB gallery: time (issue 3)", "≤ `7z t` (median)", t_validate_time),
    Target("`validate` of a 1 GiB gallery: peak RSS (issue 3)", "< 100 MiB", t_validate_rss),
    Target("`validate --jobs 2` on 500 galleries (issue 3)", "faster than `--jobs 1`", t_jobs),
    Target("`thumbnail -s 256` of a 24 MP photo, nothing embedded (issue 4)", "≤ faster of vipsthumbnail, convert", t_thumb(256)),
    Target("`thumbnail -s 1024` of a 24 MP photo, nothing embedded (issue 4)", "≤ faster of vipsthumbnail, convert", t_thumb(1024)),
    Target("`thumbnail -s 256` from the embedded thumbnail (issue 4)", "< 0.10 × vipsthumbnail", t_thumb_embedded),
    Target("`thumbnail` peak RSS, 24 MP photo (issue 4)", "< 256 MiB", t_thumb_rss),
    Target("PSNR of `thumbnail` against vipsthumbnail (issue 4)", "recorded", t_psnr),
    Target("Open a document, 1.1 GB, 10,000 images (issue 5)", "≤ 2 × `unzip -p manifest.json`", t_open),
    Target("Save after one edit on a 1 GiB gallery (issue 5)", "≤ 1.3 × `cp` + fsync", t_save),
    Target("Add 200 images from a loopback server, 4 fetches at a time (issue 6)", "≤ 1/3 of `--jobs 1`", t_fetch_parallel),
    Target("The same 200 again from a warm cache (issue 6)", "no GET with a body, < 2 s", t_fetch_warm),
    Target("Convert a 200-image tar into a gallery (issue 7)", "≤ 1.5 × `bsdtar -xf` + `zip -0`", t_convert),
    Target("`imagegallery --version` start-up", "no slower than the baseline (≤ 1.05 × baseline, the noise of one run)",
           t_startup),
    Target("Every command over `Fixtures/hostile`, RLIMIT_AS 256 MiB (issue 8)", "no crash or bad exit, < 256 MiB, within the timeout", t_hostile),
    Target("Each fuzz target, libFuzzer + ASan (issue 8)", "10 min, no crash, leak or timeout", t_fuzz),
]


def robustness_md(R):
    """Section p: what check-hostile-commands.py and the last long scripts/fuzz run recorded."""
    h, f = load_json(R, "hostile.json"), load_json(R, "fuzz.json")
    if h is None and f is None:
        return []
    out = ["## p. Robustness: every command over the hostile corpus, and the fuzzers", ""]
    if h is not None:
        s = h["summary"]
        out += [f"`scripts/check-hostile-commands.py` ran every command that reads input over the "
                f"{s['files']} files of `Fixtures/hostile` ({s['runs']} runs, {s['jobs']} at a time, "
                f"{s['wallSeconds']:.0f} s), each under RLIMIT_AS {s['maxAsMiB']:g} MiB and a "
                f"{s['timeout']:g} s timeout (extract: 1 ms more per file it writes), in an empty "
                "workspace. Runs with a problem (crash, undocumented exit code, silent failure, memory, "
                f"a write outside the output): **{s['problemRuns']}**.", "",
                "| command | runs | exit codes | total s | slowest | peak RSS (MiB) |", "|---|---:|---|---:|---|---:|"]
        for name, c in sorted(s["commands"].items()):
            codes = ", ".join(f"{k}: {v}" for k, v in sorted(c["exitCodes"].items(), key=lambda kv: int(kv[0])))
            slow = c["slowest"][0] if c["slowest"] else ["—", 0]
            out.append(f"| {name} | {c['runs']} | {codes} | {c['seconds']:.1f} | {slow[1]:.2f} s ({slow[0]}) | "
                       f"{(c['maxRssKB'] or 0) / MIB:.1f} |")
        out.append("")
        if R.notes.get("robustness"):
            out += ["Notes from this run:", ""] + [f"- {n}" for n in R.notes["robustness"]] + [""]
        cmd = os.path.join(R.dir, "hostile.cmd")
        if os.path.exists(cmd):
            out += ["Reproduce (from the repository root):", "", "```sh", open(cmd).read().strip(), "```", ""]
    if f is not None:
        when = os.path.join(R.dir, "fuzz.date")
        date = open(when).read().strip() if os.path.exists(when) else "?"
        jobs = f" --jobs {f['jobs']}" if f.get("jobs") else ""
        out += [f"The last long fuzzing run on this machine ({date}; `scripts/fuzz --seconds {f['seconds']}{jobs}`, "
                "AddressSanitizer on; coverage counts instrumented code only, not "
                "Debian's libpng, libjpeg-turbo, libarchive or zlib):", "",
                "| target | seconds | inputs run | inputs/s | coverage (edges / features) | corpus | peak RSS (MB) | result |",
                "|---|---:|---:|---:|---|---:|---:|---|"]
        for t in f["targets"]:
            out.append(f"| {t['target']} | {t['seconds']:.0f} | {t['executions'] or 0:,} | {t['execsPerSecond'] or 0:,} | "
                       f"{t['coverage']} / {t['features']} | {t['corpus']} | {t['peakRssMB']} | {t['result']} |")
        out += ["", "Reproduce: `make fuzz FUZZ_SECONDS=600` (then `FUZZ_REPORT=.build-fuzz/report.json "
                "Benchmarks/run.sh --only robustness`).", ""]
    return out


def fmt_s(v):
    return "—" if v is None else (f"{v:.4f}" if v < 10 else f"{v:.2f}")


def section_md(R, s):
    figures = R.corpus_figures()
    out = [f"## {s.title}", "", s.what.format(**figures), ""]
    by = R.machine.get(s.gallery) if s.gallery else None
    if by == "stand-in":
        out += ["Input gallery: a **stand-in** written by `Benchmarks/standin.py` (same entries "
                "and sizes as `imagegallery create` would write), because the tool under test "
                "did not write one in this run.", ""]
    runs = R.runs[s.key]
    instr = R.instructions.get(s.key, {})
    # instructions only when every measured row has a count, the anchor's among them
    if not runs or s.anchor not in instr or any(n not in instr for n in runs):
        instr = {}
    head = ["command", "median (s)", "min – max (s)", "σ (s)", "ratio to anchor"]
    if s.cpu:
        head.append("CPU, user + sys (s)")
    if instr:
        head.append("instructions (M)")
    head.append("peak RSS (MiB)")
    out += ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    names = list(s.rows) + [n for n in runs if n not in s.rows]
    for n in names:
        r = runs.get(n)
        label = f"`{n}`"
        if n == s.anchor:
            label += " (anchor)"
        elif n in s.context:
            label += " (context)"
        if r is None:
            failed = any(x.startswith(f"FAILED: {n}:") for x in R.notes[s.key])
            if n in s.optional and not failed:
                continue
            out.append(f"| {label} | {'failed (see notes)' if failed else 'not measured'} |" + " |" * (len(head) - 2))
            continue
        med = R.median(s.key, n)
        ratio = R.ratio(s.key, n, s.anchor)
        rss = R.rss_mib(s.key, n)
        cells = [label, fmt_s(med), f"{fmt_s(r['min'])} – {fmt_s(r['max'])}", fmt_s(r.get("stddev")),
                 "—" if ratio is None else f"{ratio:.2f}"]
        if s.cpu:
            cpu = r["user"] + r["system"]
            anchor = runs.get(s.anchor)
            base = anchor["user"] + anchor["system"] if anchor else None
            cells.append(fmt_s(cpu) + (f" ({cpu / base:.2f})" if base else ""))
        if instr:
            cells.append(f"{instr[n] / 1e6:,.0f} ({instr[n] / instr[s.anchor]:.2f})")
        cells.append("—" if rss is None else f"{rss:.1f}")
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if runs:
        n_runs = len(next(iter(runs.values()))["times"])
        text = f"{n_runs} timed runs per command after {R.setting(s.key, 'WARMUP')} warm-ups; "
        if s.cpu:
            text += "CPU is hyperfine's mean user + system time; "
        if instr:
            text += ("instructions are one run under `valgrind --tool=callgrind` (all threads; repeatable "
                     "whatever else the machine runs); ")
        text += (f"peak RSS is the median of {R.setting(s.key, 'RSS_RUNS')} "
                 f"runs under `/usr/bin/time -f %M`.")
        if s.footer:
            text += " " + s.footer.format(**figures)
        out += [text, ""]
    if R.notes[s.key]:
        out += ["Notes from this run:", ""] + [f"- {n}" for n in R.notes[s.key]] + [""]
    if R.cmd[s.key]:
        out += [s.reproduce or "Reproduce (from the repository root, after `make bench` has built the binary, "
                "corpus and galleries):", "", "```sh", R.cmd[s.key], "```", ""]
    return out


def write(out_path, lines):
    with open(out_path + ".tmp", "w") as fh:
        fh.write("\n".join(lines).rstrip("\n") + "\n")
    os.replace(out_path + ".tmp", out_path)


def main():
    args = sys.argv[1:]
    only = None
    if args[:1] == ["--section"] and len(args) >= 2:
        only, args = args[1], args[2:]
    keys = [s.key for s in SECTIONS]
    if len(args) != 2 or (only is not None and only not in keys):
        sys.exit("usage: report.py [--section KEY] RESULTS_DIR OUT.md   (KEY: " + ", ".join(keys) + ")")
    res_dir, out_path = args
    R = Results(res_dir)
    if only is not None:
        write(out_path, section_md(R, next(s for s in SECTIONS if s.key == only)))
        return
    m = R.machine
    lines = ["# Benchmark results", "",
             "<!-- Generated by Benchmarks/report.py from the hyperfine JSON that "
             "Benchmarks/run.sh writes; do not edit by hand. -->", ""]
    lines += [f"Machine: {m.get('NPROC', '?')} CPUs (nproc), {m.get('CPU', '?')}, "
              f"{m.get('MEM', '?')} RAM, {m.get('OS', '?')}, Linux {m.get('KERNEL', '?')}. "
              f"Date: {m.get('DATE', '?')}. Commit: {m.get('COMMIT', '?')}.", "",
              f"Tools: {m.get('HYPERFINE', '?')}; {m.get('BSDTAR', '?')}; {m.get('ZIP', '?')}; "
              f"{m.get('UNZIP', '?')}. Tool under test: `{m.get('IG', '?')}` "
              f"({m.get('IG_VERSION', 'n/a')}).", ""]
    if m.get("MODE") == "anchors-only":
        lines += ["**Dry run (`Benchmarks/run.sh --anchors-only`)**: only the reference tools "
                  "were timed, on stand-in galleries; the imagegallery rows and the targets are "
                  "not measured yet. Run `make bench` for the real figures.", ""]
    lines += ["All figures: `make bench` (builds the release binary with "
              "`--static-swift-stdlib`, the corpus with `Benchmarks/make-corpus.sh "
              ".build-bench/corpus`, then runs `Benchmarks/run.sh`). Each comparison is one "
              "hyperfine invocation, so the commands in a table ran side by side on the same "
              "machine state; compare ratios, not absolute times, across machines. See "
              "`Benchmarks/README.md`.", ""]

    lines += ["## Targets", "", "| target | limit | measured | result |", "|---|---|---:|---|"]
    for t in TARGETS:
        got = t.measure(R)
        if got is None:
            lines.append(f"| {t.name} | {t.limit} | not measured | n/a |")
        else:
            text, ok = got
            result = "n/a" if ok is None else "**pass**" if ok else "**FAIL**"
            lines.append(f"| {t.name} | {t.limit} | {text} | {result} |")
    lines.append("")

    for s in SECTIONS:
        lines += section_md(R, s)
    lines += robustness_md(R)
    write(out_path, lines)


if __name__ == "__main__":
    main()
