#!/usr/bin/env bash
# Why the project has its own ZIP and JSON code: open the 10,000-image gallery of the benchmark
# corpus and read its manifest into a model, with ZIPFoundation 0.9.20 + Foundation's
# JSONDecoder and with this project's GalleryReader, side by side in one hyperfine run.
# The figure the README quotes ("Why its own ZIP and JSON code"; Benchmarks/RESULTS.md, n).
#
# usage: Benchmarks/zipfoundation.sh [--runs N]
#   --runs N   timed runs per command (default 30; 3 warm-ups either way)
#
# environment (defaults as Benchmarks/run.sh's):
#   IG       writes the gallery if it is missing (default .build/release/imagegallery)
#   CORPUS   the corpus            (default .build-bench/corpus; made by Benchmarks/make-corpus.sh)
#   WORK     scratch space         (default .build-bench/work; the gallery is WORK/g10k.imagegallery)
#   RESULTS_DIR hyperfine JSON etc. (default .build-bench/results; zipfoundation.*)
#   SCRATCH  build folder of Benchmarks/zipfoundation/manifest-open (default .build-zf)
#
# The two readers are two executables of one side package, Benchmarks/zipfoundation/manifest-open
# (its Package.swift says why not one), built in release into SCRATCH. Each prints the number
# of images; the counts must agree before anything is timed. valgrind, where present, also
# counts each one's instructions, which the load of a shared machine does not change. The
# script writes the RESULTS.md section to RESULTS_DIR/zipfoundation.md (report.py, which
# rewrites RESULTS.md, does not know this comparison: append the section again after
# `make bench`).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

IG=${IG:-.build/release/imagegallery}
CORPUS=${CORPUS:-.build-bench/corpus}
WORK=${WORK:-.build-bench/work}
RESULTS_DIR=${RESULTS_DIR:-.build-bench/results}
SCRATCH=${SCRATCH:-.build-zf}
PACKAGE=Benchmarks/zipfoundation/manifest-open
PY=/usr/bin/python3
WARMUP=3
RUNS=30
RSS_RUNS=3
DATE=2026-01-01T00:00:00Z
KEY=zipfoundation

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) RUNS=${2:?--runs needs a number}; shift ;;
    --runs=*) RUNS=${1#--runs=} ;;
    -h|--help) usage; exit 0 ;;
    *) echo "zipfoundation.sh: unknown argument: $1" >&2; usage >&2; exit 64 ;;
  esac
  shift
done
[[ $RUNS =~ ^[0-9]+$ && $RUNS -ge 2 ]] || { echo "zipfoundation.sh: --runs wants a number >= 2" >&2; exit 64; }

# ---- prerequisites ---------------------------------------------------------------------
missing=()
for t in hyperfine swift; do command -v "$t" >/dev/null || missing+=("$t"); done
[[ -x /usr/bin/time ]] || missing+=("/usr/bin/time")
[[ -x $PY ]] || missing+=("$PY")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "zipfoundation.sh: missing tools: ${missing[*]}" >&2
  echo "zipfoundation.sh: scripts/install-deps bench" >&2
  exit 1
fi

# q ARGS...: one string, each argument shell-quoted where needed (as in run.sh).
q() {
  local out='' a
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then out+="$a "
    elif [[ $a == *\'* && $a != *[\"\$\`\\\!]* ]]; then out+="\"$a\" "
    else out+="'${a//\'/\'\\\'\'}' "; fi
  done
  printf '%s' "${out% }"
}

# ---- 1. the two readers ----------------------------------------------------------------
mkdir -p "$WORK" "$RESULTS_DIR"
echo "building $PACKAGE (release, into $SCRATCH) ..."
if ! swift build -c release --package-path "$PACKAGE" --scratch-path "$SCRATCH" > "$WORK/zipfoundation-build.log" 2>&1; then
  grep -v '^\[' "$WORK/zipfoundation-build.log" | tail -30 >&2
  echo "zipfoundation.sh: the build failed (log: $WORK/zipfoundation-build.log)" >&2
  exit 1
fi
BIN=$(swift build -c release --package-path "$PACKAGE" --scratch-path "$SCRATCH" --show-bin-path)
BIN=${BIN#"$REPO"/}
ZF=$BIN/manifest-open-zipfoundation
OURS=$BIN/manifest-open-imagegallery
for b in "$ZF" "$OURS"; do [[ -x $b ]] || { echo "zipfoundation.sh: no $b after the build" >&2; exit 1; }; done

# ---- 2. the corpus and the 10,000-image gallery ----------------------------------------
if [[ ! -s $CORPUS/g10k.stamp.json ]]; then
  echo "no corpus at $CORPUS: making it with Benchmarks/make-corpus.sh ..."
  Benchmarks/make-corpus.sh "$CORPUS"
fi
G10K=$WORK/g10k.imagegallery
# Reused when it is newer than its source set: Benchmarks/run.sh writes the same file the same way.
if [[ -s $G10K && ! $G10K -ot $CORPUS/g10k.stamp.json ]]; then
  echo "reusing $G10K"
else
  if [[ ! -x $IG ]]; then
    echo "zipfoundation.sh: no gallery at $G10K and no imagegallery binary at $IG to write it" >&2
    echo "zipfoundation.sh: build it with 'swift build -c release --static-swift-stdlib' (make bench does), or set IG=..." >&2
    exit 1
  fi
  echo "creating $G10K from $CORPUS/g10k with $IG ..."
  "$IG" create "$G10K" --title bench --date "$DATE" --force "$CORPUS/g10k" >/dev/null
fi
expected=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["count"])' "$CORPUS/g10k.stamp.json")
# entries, and the manifest's stored and inflated sizes, for the report's description
shape=$("$PY" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1]); m = z.getinfo("manifest.json")
print(len(z.infolist()), m.compress_size, m.file_size)' "$G10K")

# ---- 3. sanity: both read the file and agree on the count ------------------------------
counts=()
for b in "$ZF" "$OURS"; do
  if ! out=$("$b" "$G10K" 2>"$WORK/stderr.txt"); then
    echo "zipfoundation.sh: FAILED: $(q "$b" "$G10K"): $(head -c 300 "$WORK/stderr.txt")" >&2
    exit 1
  fi
  echo "$(basename "$b"): $out images"
  counts+=("$out")
done
if [[ ${counts[0]} != "${counts[1]}" || ${counts[0]} != "$expected" ]]; then
  echo "zipfoundation.sh: the counts disagree: ZIPFoundation ${counts[0]}, GalleryReader ${counts[1]}, corpus $expected" >&2
  exit 1
fi

# ---- 4. timing, then peak RSS ----------------------------------------------------------
NAMES=("ZIPFoundation 0.9.20 + JSONDecoder" "imagegallery GalleryReader")
BINS=("$ZF" "$OURS")
CMDS=("$(q "$ZF" "$G10K")" "$(q "$OURS" "$G10K")")
rm -f "$RESULTS_DIR/$KEY".{json,cmd,rss.tsv,instructions.tsv,md}
hf=(hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" --export-json "$RESULTS_DIR/$KEY.json")
for i in 0 1; do hf+=(-n "${NAMES[i]}" "${CMDS[i]}"); done
q "${hf[@]}" > "$RESULTS_DIR/$KEY.cmd"
echo "+ $(cat "$RESULTS_DIR/$KEY.cmd")"
"${hf[@]}"
for i in 0 1; do
  for ((r = 0; r < RSS_RUNS; r++)); do
    /usr/bin/time -f %M -o "$WORK/rss.txt" "${BINS[i]}" "$G10K" >/dev/null
    printf '%s\t%s\n' "${NAMES[i]}" "$(tail -1 "$WORK/rss.txt")" >> "$RESULTS_DIR/$KEY.rss.tsv"
  done
done

# Instructions (valgrind --tool=callgrind, all threads): the same count run after run whatever
# else the machine is doing, which wall time on a shared 2-core machine is not. On stripped
# copies: valgrind 3.19 cannot read the DWARF 5 of the GalleryFormat build and gives up.
if command -v valgrind >/dev/null; then
  for i in 0 1; do
    strip -o "$WORK/zf-stripped" "${BINS[i]}"
    n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WORK/zf-stripped" "$G10K" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    printf '%s\t%s\n' "${NAMES[i]}" "${n:-0}" >> "$RESULTS_DIR/$KEY.instructions.tsv"
  done
  rm -f "$WORK/zf-stripped"
else
  echo "zipfoundation.sh: no valgrind: instructions not counted" >&2
fi

# ---- 5. medians, ratio, and the RESULTS.md section -------------------------------------
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "no commit yet")
if [[ $commit != "no commit yet" && -n $(git status --porcelain 2>/dev/null) ]]; then
  commit+=" (+ uncommitted changes)"
fi
"$PY" - "$RESULTS_DIR" "$KEY" "$(date -u +%F)" "$commit" "$WARMUP" "$RSS_RUNS" "$expected" \
  "$(wc -c < "$G10K")" "$shape" "$(nproc)" "$(hyperfine --version)" "$(swift --version 2>/dev/null | head -1)" <<'EOF'
import json, os, statistics, sys
res, key, date, commit, warmup, rss_runs, count, size, shape, nproc, hf_version, swift_version = sys.argv[1:13]
entries, man_stored, man_size = (int(x) for x in shape.split())
with open(os.path.join(res, key + ".json")) as fh:
    runs = {r["command"]: r for r in json.load(fh)["results"]}
rss = {}
with open(os.path.join(res, key + ".rss.tsv")) as fh:
    for line in fh:
        name, kb = line.rstrip("\n").split("\t")
        rss.setdefault(name, []).append(int(kb))
instr = {}
if os.path.exists(os.path.join(res, key + ".instructions.tsv")):
    with open(os.path.join(res, key + ".instructions.tsv")) as fh:
        for line in fh:
            name, n = line.rstrip("\n").split("\t")
            if int(n) > 0:
                instr[name] = int(n)
with open(os.path.join(res, key + ".cmd")) as fh:
    cmd = fh.read().strip()
zf, ours = "ZIPFoundation 0.9.20 + JSONDecoder", "imagegallery GalleryReader"
med = {n: statistics.median(r["times"]) for n, r in runs.items()}
cpu = {n: r["user"] + r["system"] for n, r in runs.items()}
ratio = med[ours] / med[zf]
fmt = lambda v: f"{v:.4f}" if v < 10 else f"{v:.2f}"
print(f"\nmedian: ZIPFoundation + JSONDecoder {fmt(med[zf])} s, GalleryReader {fmt(med[ours])} s")
print(f"ratio: GalleryReader / ZIPFoundation = {ratio:.2f} (ZIPFoundation / GalleryReader = {1 / ratio:.2f})")
print(f"CPU (user + sys, mean): ZIPFoundation {fmt(cpu[zf])} s, GalleryReader {fmt(cpu[ours])} s")
if len(instr) == 2:
    print(f"instructions: ZIPFoundation {instr[zf]:,}, GalleryReader {instr[ours]:,} ({instr[ours] / instr[zf]:.2f})")
n_runs = len(runs[zf]["times"])
out = [
    "## n. Open the 10,000-image gallery's manifest: GalleryReader vs ZIPFoundation + JSONDecoder",
    "",
    f"Whole-process time to open `g10k.imagegallery` ({int(count):,} images, {int(size) / 1e9:.2f} GB, "
    "written by `imagegallery create` as in section a) and read its manifest "
    f"({man_size / 1e6:.1f} MB, deflated to {man_stored / 1e6:.2f} MB) "
    "into a model, then print the image count; both print the same count, checked before timing. "
    "The anchor is ZIPFoundation 0.9.20 (`Archive(url:accessMode: .read)`, `archive[\"manifest.json\"]`, "
    "`extract` into `Data`, its CRC-32 compared) with Foundation's `JSONDecoder` into a `Decodable` mirror "
    "of the manifest (every member of format sections 6.3 and 6.4; UUIDs parsed, date-times and "
    "digests left as strings). Ours is `GalleryReader(path:)`, as `info` and `list` open a file; "
    "it inflates and decodes the manifest on a second thread while it checks the container, so "
    "the CPU column (both threads) says more than the wall time on a busy machine. "
    "The two are two small executables of the side package `Benchmarks/zipfoundation/manifest-open`, "
    "release builds linked the same way (Swift runtime and Foundation as shared libraries), so the "
    "figures are not comparable with section a's static binary.",
    "",
    "Not the same work, and the difference is the point: ours also checks `mimetype`, reads all "
    f"{entries:,} local headers and checks each against the central directory, refuses duplicate and "
    "case-folded duplicate names, overlapping entries, hidden local headers, bytes between "
    "entries and data descriptors on stored entries (the IG-PKG rules of format section 9.2), "
    "bounds the manifest's size, depth and member counts while it inflates and parses, refuses "
    "duplicate keys and lone surrogates, and checks every schema rule (date-times, digests, "
    "`path` against `sha256`, ranges, unique ids). ZIPFoundation reads the central directory "
    "and local headers only up to `manifest.json` (the second entry) and takes the first of "
    "duplicate names; `JSONDecoder` checks syntax and the mirror's types. Both check the "
    "manifest's CRC-32.",
    "",
    "| command | median (s) | min – max (s) | σ (s) | ratio to anchor | CPU, user + sys (s) | instructions (M) | peak RSS (MiB) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
]
for n in (ours, zf):
    r = runs[n]
    label = f"`{n}`" + (" (anchor)" if n == zf else "")
    ins = f"{instr[n] / 1e6:,.0f} ({instr[n] / instr[zf]:.2f})" if len(instr) == 2 else "—"
    out.append(f"| {label} | {fmt(med[n])} | {fmt(r['min'])} – {fmt(r['max'])} | {fmt(r['stddev'])} | "
               f"{med[n] / med[zf]:.2f} | {fmt(cpu[n])} ({cpu[n] / cpu[zf]:.2f}) | {ins} | "
               f"{statistics.median(rss[n]) / 1024:.1f} |")
out += [
    "",
    f"{n_runs} timed runs per command after {warmup} warm-ups; CPU is hyperfine's mean user + system "
    f"time; instructions are one run under `valgrind --tool=callgrind` (all threads; repeatable "
    f"whatever else the machine runs); peak RSS is the median of {rss_runs} runs under `/usr/bin/time -f %M`. "
    f"Date: {date}. Commit: {commit}. {nproc} CPUs (nproc), shared with other work; "
    f"{hf_version}; {swift_version}.",
    "",
    "Reproduce (from the repository root): `Benchmarks/zipfoundation.sh`, which builds the side "
    "package into `.build-zf`, reuses or writes the gallery and runs the line below. It writes "
    "this section to `.build-bench/results/zipfoundation.md`; `report.py` does not know it, so "
    "it is appended here after `make bench`.",
    "",
    "```sh",
    cmd,
    "```",
    "",
]
with open(os.path.join(res, key + ".md"), "w") as fh:
    fh.write("\n".join(out))
print(f"\nRESULTS.md section written to {os.path.join(res, key + '.md')}")
EOF
