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
# results go to RESULTS_DIR/zipfoundation.* (.json, .cmd, .rss.tsv, .instructions.tsv, and .env:
# the gallery's figures, date, commit, versions); report.py renders section n of RESULTS.md from
# them, and this script has it write that section alone to RESULTS_DIR/zipfoundation.md.
# `Benchmarks/run.sh --only zipfoundation` (and `make bench`) run this script.
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

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }
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
rm -f "$RESULTS_DIR/$KEY".{json,cmd,rss.tsv,instructions.tsv,env,md}
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

# ---- 5. the figures report.py needs, the medians, and the RESULTS.md section -------------
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "no commit yet")
if [[ $commit != "no commit yet" && -n $(git status --porcelain 2>/dev/null) ]]; then
  commit+=" (+ uncommitted changes)"
fi
read -r entries man_stored man_size <<< "$shape"
{
  echo "WARMUP=$WARMUP"
  echo "RSS_RUNS=$RSS_RUNS"
  echo "COUNT=$expected"
  echo "GALLERY_BYTES=$(wc -c < "$G10K")"
  echo "ENTRIES=$entries"
  echo "MANIFEST_STORED=$man_stored"
  echo "MANIFEST_BYTES=$man_size"
  echo "DATE=$(date -u +%F)"
  echo "COMMIT=$commit"
  echo "NPROC=$(nproc)"
  echo "HYPERFINE=$(hyperfine --version)"
  echo "SWIFT=$(swift --version 2>/dev/null | head -1)"
} > "$RESULTS_DIR/$KEY.env"
"$PY" - "$RESULTS_DIR" "$KEY" <<'EOF'
import json, os, statistics, sys
res, key = sys.argv[1:3]
with open(os.path.join(res, key + ".json")) as fh:
    runs = {r["command"]: r for r in json.load(fh)["results"]}
instr = {}
if os.path.exists(os.path.join(res, key + ".instructions.tsv")):
    with open(os.path.join(res, key + ".instructions.tsv")) as fh:
        for line in fh:
            name, n = line.rstrip("\n").split("\t")
            if int(n) > 0:
                instr[name] = int(n)
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
EOF
"$PY" "$HERE/report.py" --section "$KEY" "$RESULTS_DIR" "$RESULTS_DIR/$KEY.md"
echo
echo "RESULTS.md section n written to $RESULTS_DIR/$KEY.md (report.py renders it in RESULTS.md)"
