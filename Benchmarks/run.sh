#!/usr/bin/env bash
# Benchmarks of the imagegallery CLI against standard tools, side by side; writes
# Benchmarks/RESULTS.md (via Benchmarks/report.py) from hyperfine's JSON.
#
# usage: Benchmarks/run.sh [--quick] [--anchors-only]
#                          [--only info,create,list,extract,validate,jobs,thumbnails,open,save,fetch,convert,
#                                  zipfoundation,startup,robustness]
#                          [--no-report]
#   --quick         3 timed runs per command instead of 10 (2 warm-ups either way; zipfoundation,
#                   info and open: 3 instead of 30; startup keeps its 30 runs after 3 warm-ups)
#   --anchors-only  time only the reference tools (unzip, bsdtar, zip), on stand-in galleries
#                   written by Benchmarks/standin.py: a dry run that needs no imagegallery binary
#   --only LIST     run only these comparisons (comma-separated keys)
#   --no-report     leave Benchmarks/RESULTS.md alone
#
# environment:
#   IG       the tool under test   (default .build/release/imagegallery, built by the Makefile
#            with `swift build -c release --static-swift-stdlib`)
#   CORPUS   the corpus            (default .build-bench/corpus; Benchmarks/make-corpus.sh)
#   WORK     scratch space         (default .build-bench/work; needs ~2.3 GB free)
#   RESULTS_DIR hyperfine JSON etc. (default .build-bench/results)
#   REPORT   report to write       (default Benchmarks/RESULTS.md)
#   BASELINE_IG  optional: another build of imagegallery (e.g. the previous commit's release
#            binary), timed beside IG as the anchor of the start-up comparison (startup)
#
# Paths are kept relative to the repository root (the script cd's there) so that the
# hyperfine lines recorded in RESULTS.md can be pasted as they are.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
cd "$REPO"

IG=${IG:-.build/release/imagegallery}
CORPUS=${CORPUS:-.build-bench/corpus}
WORK=${WORK:-.build-bench/work}
RESULTS_DIR=${RESULTS_DIR:-.build-bench/results}
REPORT=${REPORT:-Benchmarks/RESULTS.md}
PY=/usr/bin/python3
WARMUP=2
RUNS=10
RSS_RUNS=3
MODE=full
ONLY=info,create,list,extract,validate,jobs,thumbnails,open,save,fetch,convert,zipfoundation,startup,robustness
DO_REPORT=1
QUICK=
DATE=2026-01-01T00:00:00Z

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) RUNS=3; QUICK=1 ;;
    --anchors-only) MODE=anchors-only ;;
    --only) ONLY=${2:?--only needs a list}; shift ;;
    --only=*) ONLY=${1#--only=} ;;
    --no-report) DO_REPORT= ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument: $1" >&2; usage >&2; exit 64 ;;
  esac
  shift
done
for k in ${ONLY//,/ }; do
  case $k in info|create|list|extract|validate|jobs|thumbnails|open|save|fetch|convert|zipfoundation|startup|robustness) ;; *) echo "run.sh: unknown comparison: $k" >&2; exit 64 ;; esac
done
wanted() { [[ ,$ONLY, == *,$1,* ]]; }

# ---- prerequisites ---------------------------------------------------------------------
missing=()
for t in hyperfine unzip zip bsdtar 7z curl; do command -v "$t" >/dev/null || missing+=("$t"); done
[[ -x /usr/bin/time ]] || missing+=("/usr/bin/time")
[[ -x $PY ]] || missing+=("$PY")
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "run.sh: missing tools: ${missing[*]}" >&2
  echo "run.sh: apt-get install hyperfine time unzip zip libarchive-tools p7zip-full python3-pil" >&2
  exit 1
fi
if [[ $MODE == full && ! -x $IG ]]; then
  echo "run.sh: no imagegallery binary at $IG" >&2
  echo "run.sh: build it with 'swift build -c release --static-swift-stdlib' (make bench does)," >&2
  echo "run.sh: set IG=..., or use --anchors-only for a dry run of the reference tools" >&2
  exit 1
fi
for f in photos/SHA256SUMS g10k.stamp.json g1g.stamp.json; do
  if [[ ! -s $CORPUS/$f ]]; then
    echo "run.sh: the corpus at $CORPUS is incomplete (no $f)" >&2
    echo "run.sh: build it with: Benchmarks/make-corpus.sh $CORPUS   (make bench does)" >&2
    exit 1
  fi
done

mkdir -p "$WORK" "$RESULTS_DIR"
rm -f "$RESULTS_DIR"/*.json "$RESULTS_DIR"/*.cmd "$RESULTS_DIR"/*.rss.tsv \
      "$RESULTS_DIR"/*.notes "$RESULTS_DIR"/*.date "$RESULTS_DIR"/*.env \
      "$RESULTS_DIR"/*.instructions.tsv "$RESULTS_DIR"/zipfoundation.md

# q ARGS...: one string, each argument shell-quoted (single quotes where needed); valid for
# eval, for hyperfine -N (which splits shell words) and for pasting into a shell.
q() {
  local out='' a
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then out+="$a "
    elif [[ $a == *\'* && $a != *[\"\$\`\\\!]* ]]; then out+="\"$a\" "
    else out+="'${a//\'/\'\\\'\'}' "; fi
  done
  printf '%s' "${out% }"
}
note() { echo "run.sh: $2" >&2; echo "$2" >> "$RESULTS_DIR/$1.notes"; }

# ---- machine ---------------------------------------------------------------------------
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "no commit yet")
if [[ $commit != "no commit yet" && -n $(git status --porcelain 2>/dev/null) ]]; then
  commit+=" (+ uncommitted changes)"
fi
ig_version=n/a
if [[ $MODE == full ]]; then ig_version=$("$IG" --version 2>/dev/null | head -1 || true); fi
{
  echo "MODE=$MODE"
  echo "RUNS=$RUNS"
  echo "WARMUP=$WARMUP"
  echo "RSS_RUNS=$RSS_RUNS"
  echo "NPROC=$(nproc)"
  echo "CPU=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "MEM=$(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "KERNEL=$(uname -r)"
  echo "OS=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "COMMIT=$commit"
  echo "IG=$IG"
  echo "IG_VERSION=${ig_version:-unknown}"
  echo "CORPUS=$CORPUS"
  echo "HYPERFINE=$(hyperfine --version)"
  echo "BSDTAR=$(bsdtar --version | awk '{print $1, $2, "(" $4, $5 ")"}')"
  echo "ZIP=$(zip -v | sed -n 2p | sed 's/^This is //; s/, by Info-ZIP.*//')"
  echo "UNZIP=$(unzip -v | head -1 | cut -d' ' -f1-2)"
  # corpus figures quoted in the report's descriptions
  "$PY" - "$CORPUS" <<'EOF2'
import json, os, sys
c = sys.argv[1]
for k in ("g10k", "g1g"):
    with open(os.path.join(c, k + ".stamp.json")) as fh:
        s = json.load(fh)
    print(f"{k.upper()}_COUNT={s['count']}")
    print(f"{k.upper()}_BYTES={s['totalBytes']}")
small = [os.path.join(c, "photos", "small", f) for f in os.listdir(os.path.join(c, "photos", "small"))]
print(f"SMALL_COUNT={len(small)}")
print(f"SMALL_BYTES={sum(os.path.getsize(p) for p in small)}")
EOF2
  if wanted startup && [[ $MODE == full && -n ${BASELINE_IG:-} ]]; then
    echo "BASELINE_IG=$BASELINE_IG"
    echo "BASELINE_IG_VERSION=$("$BASELINE_IG" --version 2>/dev/null | head -1 || true)"
  fi
} > "$RESULTS_DIR/machine.env"

# ---- one comparison = one hyperfine invocation -----------------------------------------
# Fill NAMES (hyperfine -n; report.py matches these), CMDS and PREPS (strings in shell-word
# form, made with q; PREPS may be empty) and OURS (1 for imagegallery rows), then: compare KEY.
# CMP_WARMUP and CMP_RUNS, set for one call, replace WARMUP and RUNS (recorded in KEY.env).
compare() {
  local key=$1 i n=${#NAMES[@]} any_prep= err="$WORK/stderr.txt"
  local warmup=${CMP_WARMUP:-$WARMUP} runs=${CMP_RUNS:-$RUNS}
  local -a idx=() hf=()
  echo
  echo "=== $key ==="
  for ((i = 0; i < n; i++)); do
    if [[ ${OURS[i]} == skip || (${OURS[i]} == 1 && $MODE != full) ]]; then continue; fi
    [[ -n ${PREPS[i]} ]] && any_prep=1
    # sanity run: a command that fails is reported and left out, the others still run
    [[ -n ${PREPS[i]} ]] && eval "${PREPS[i]}"
    if ! eval "${CMDS[i]}" >/dev/null 2>"$err"; then
      note "$key" "FAILED: ${NAMES[i]}: \`${CMDS[i]}\` exited non-zero: $(head -c 300 "$err" | head -3 | tr '\n' ' ')"
      continue
    fi
    idx+=("$i")
  done
  if [[ ${#idx[@]} -eq 0 ]]; then note "$key" "nothing to measure"; return 0; fi
  [[ $warmup == "$WARMUP" ]] || echo "WARMUP=$warmup" > "$RESULTS_DIR/$key.env"
  hf=(hyperfine -N --style basic --warmup "$warmup" --runs "$runs" --export-json "$RESULTS_DIR/$key.json")
  for i in "${idx[@]}"; do
    if [[ -n $any_prep ]]; then hf+=(--prepare "${PREPS[i]:-true}"); fi
    hf+=(-n "${NAMES[i]}" "${CMDS[i]}")
  done
  q "${hf[@]}" > "$RESULTS_DIR/$key.cmd"
  echo "+ $(cat "$RESULTS_DIR/$key.cmd")"
  if ! "${hf[@]}"; then
    note "$key" "FAILED: hyperfine exited non-zero"
    rm -f "$RESULTS_DIR/$key.json"
  fi
  # peak RSS (KiB, GNU time %M), RSS_RUNS runs each; report.py takes the median
  for i in "${idx[@]}"; do
    local r kb
    for ((r = 0; r < RSS_RUNS; r++)); do
      [[ -n ${PREPS[i]} ]] && eval "${PREPS[i]}"
      if eval "/usr/bin/time -f %M -o $(q "$WORK/rss.txt") ${CMDS[i]}" >/dev/null 2>&1; then
        kb=$(tail -1 "$WORK/rss.txt")
        printf '%s\t%s\n' "${NAMES[i]}" "$kb" >> "$RESULTS_DIR/$key.rss.tsv"
      else
        note "$key" "peak RSS run of ${NAMES[i]} failed"
      fi
    done
    echo "peak RSS ${NAMES[i]}: $(grep -F "${NAMES[i]}"$'\t' "$RESULTS_DIR/$key.rss.tsv" | cut -f2 | tr '\n' ' ')KiB"
  done
}

# ---- the galleries the read benchmarks use ---------------------------------------------
# make_gallery VAR OUT SRC KEY...: with the tool under test (once per run), or in
# --anchors-only mode (or if the tool fails) a stand-in from Benchmarks/standin.py, which
# is kept between runs while its source set is unchanged. Sets VAR to the path and
# VAR_BY to "imagegallery" or "stand-in".
make_gallery() {
  local var=$1 out=$2 src=$3 stamp=$4 by=stand-in t0 k
  shift 4
  if [[ $MODE == full ]]; then
    echo "creating $out from $src with $IG ..."
    t0=$EPOCHREALTIME
    if "$IG" create "$out" --title bench --date "$DATE" --force "$src" >/dev/null 2>"$WORK/stderr.txt"; then
      by=imagegallery
      echo "  done in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s"
    else
      for k in "$@"; do
        note "$k" "FAILED: \`$(q "$IG" create "$out" --title bench --date "$DATE" --force "$src")\`: $(head -3 "$WORK/stderr.txt" | tr '\n' ' '); anchors timed on a stand-in gallery instead"
      done
    fi
  fi
  if [[ $by == stand-in ]]; then
    out=${out%.imagegallery}.standin.imagegallery
    if [[ ! -s $out || $out -ot $stamp || $out -ot $HERE/standin.py ]]; then
      echo "writing stand-in gallery $out from $src ..."
      "$PY" "$HERE/standin.py" "$out" "$src" bench
    fi
  fi
  printf -v "$var" '%s' "$out"
  printf -v "${var}_BY" '%s' "$by"
}

G10K=; G10K_BY=; G200=; G200_BY=
if wanted info || wanted list || wanted open; then
  keys=(); wanted info && keys+=(info); wanted list && keys+=(list); wanted open && keys+=(open)
  make_gallery G10K "$WORK/g10k.imagegallery" "$CORPUS/g10k" "$CORPUS/g10k.stamp.json" "${keys[@]}"
  echo "G10K_GALLERY=$G10K_BY" >> "$RESULTS_DIR/machine.env"
fi
if wanted extract; then
  make_gallery G200 "$WORK/g200.imagegallery" "$CORPUS/photos/small" "$CORPUS/photos/SHA256SUMS" extract
  echo "G200_GALLERY=$G200_BY" >> "$RESULTS_DIR/machine.env"
fi
# info and open take 20 to 40 ms, and on two shared cores one run spread from 28 to 43 ms: the
# median of 10 moved by a tenth from one run to the next (RESULTS.md, section v), so 30.
SHORT_RUNS=30
[[ -n ${QUICK:-} ]] && SHORT_RUNS=$RUNS

# rows of ours that need a gallery ours could not write are not measured
ours_ok() { [[ $MODE == full && $1 == imagegallery ]]; }

# ---- a. info --json vs unzip -p manifest.json -------------------------------------------
if wanted info; then
  NAMES=("imagegallery info --json" "unzip -p manifest.json")
  CMDS=("$(q "$IG" info "$G10K" --json)" "$(q unzip -p "$G10K" manifest.json)")
  PREPS=("" "")
  OURS=(1 0)
  ours_ok "$G10K_BY" || OURS[0]=skip
  CMP_RUNS=$SHORT_RUNS compare info
fi

# ---- b. create of the 1 GiB set vs bsdtar (stored zip) and Info-ZIP zip -0 ---------------
if wanted create; then
  out_ig="$WORK/create.imagegallery"; out_bt="$WORK/create-bsdtar.zip"; out_zip="$WORK/create-zip.zip"
  # One output on disk at a time, and no dirty pages left from the previous run: each run
  # starts from the same state, so write-back of one command is not billed to the next.
  prep=$(q sh -c "rm -f $(q "$out_ig" "$out_bt" "$out_zip") && sync")
  NAMES=("imagegallery create" "imagegallery create --no-sync" "bsdtar --format zip (store)"
         "bsdtar + sync (durable, like ours)" "zip -0")
  CMDS=("$(q "$IG" create "$out_ig" --force --date "$DATE" "$CORPUS/g1g")"
        "$(q "$IG" create "$out_ig" --no-sync --date "$DATE" "$CORPUS/g1g")"
        "$(q bsdtar --format zip --options zip:compression=store -cf "$out_bt" -C "$CORPUS/g1g" .)"
        "$(q sh -c "bsdtar --format zip --options zip:compression=store -cf $(q "$out_bt") -C $(q "$CORPUS/g1g") . && sync -d $(q "$out_bt")")"
        "$(q zip -0 -q -r -j "$out_zip" "$CORPUS/g1g")")
  PREPS=("$prep" "$prep" "$prep" "$prep" "$prep")
  OURS=(1 1 0 0 0)
  compare create
  rm -f "$out_ig" "$out_bt" "$out_zip"
fi

# ---- c. list --json (no anchor; unzip -l for context) ----------------------------------
if wanted list; then
  NAMES=("imagegallery list --json" "unzip -l")
  CMDS=("$(q "$IG" list "$G10K" --json)" "$(q unzip -l "$G10K")")
  PREPS=("" "")
  OURS=(1 0)
  ours_ok "$G10K_BY" || OURS[0]=skip
  compare list
fi

# ---- d. extract all images of a 200-photo gallery vs unzip -d -------------------------
if wanted extract; then
  x_ig="$WORK/extract-ig"; x_uz="$WORK/extract-unzip"
  NAMES=("imagegallery extract" "unzip -q -o -d")
  CMDS=("$(q "$IG" extract "$G200" --to "$x_ig" --force)" "$(q unzip -q -o -d "$x_uz" "$G200")")
  # both write into a fresh, empty folder
  PREPS=("$(q sh -c "rm -rf $(q "$x_ig") && mkdir -p $(q "$x_ig")")"
         "$(q sh -c "rm -rf $(q "$x_uz") && mkdir -p $(q "$x_uz")")")
  OURS=(1 0)
  ours_ok "$G200_BY" || OURS[0]=skip
  compare extract
  rm -rf "$x_ig" "$x_uz"
fi

# ---- e. validate a 1 GiB gallery vs 7z t and unzip -tq --------------------------------------
# The gallery is made from g1g by `create` (no stand-in: validate only makes sense on our files).
if wanted validate && [[ $MODE == full ]]; then
  g1g_gallery="$WORK/g1g.imagegallery"
  "$IG" create "$g1g_gallery" --force --title bench --date "$DATE" "$CORPUS/g1g" >/dev/null
  # The hashing floor: validate must SHA-256 every byte; OpenSSL's SHA-256 (the CPU's SHA
  # extensions, as swift-crypto's) of the same photos, one process per core, is what that alone
  # costs here. (coreutils' sha256sum does not use them: 5x slower, no floor.)
  g1g_files=$(find "$CORPUS/g1g" -type f | wc -l)
  NAMES=("imagegallery validate" "7z t" "unzip -tq" "imagegallery validate --deep" "SHA-256 of the photos, 2 processes (openssl)")
  CMDS=("$(q "$IG" validate "$g1g_gallery")" "$(q 7z t "$g1g_gallery")" "$(q unzip -tq "$g1g_gallery")"
        "$(q "$IG" validate --deep "$g1g_gallery")"
        "$(q sh -c "find $(q "$CORPUS/g1g") -type f -print0 | xargs -0 -P2 -n $(( (g1g_files + 1) / 2 )) openssl dgst -sha256 >/dev/null")")
  PREPS=("" "" "" "" "")
  OURS=(1 0 0 1 0)
  compare validate
  rm -f "$g1g_gallery"
fi

# ---- f. validate a folder of 500 galleries with --jobs 1 and --jobs 2 ----------------------
# 500 galleries of 4 distinct photos each (the first 2,000 of g10k), made once per corpus.
if wanted jobs && [[ $MODE == full ]]; then
  g500="$WORK/g500"
  if [[ ! -f $g500/.complete ]]; then
    rm -rf "$g500" && mkdir -p "$g500"
    for ((i = 0; i < 500; i++)); do
      printf -v n '%05d' $((i * 4))
      srcs=()
      for ((j = 0; j < 4; j++)); do printf -v m '%05d' $((i * 4 + j)); srcs+=("$CORPUS/g10k/$m.jpg"); done
      "$IG" create "$g500/$n.imagegallery" --title "g$i" --date "$DATE" --no-sync "${srcs[@]}" >/dev/null
    done
    touch "$g500/.complete"
  fi
  NAMES=("validate --jobs 1" "validate --jobs 2")
  CMDS=("$(q "$IG" validate --jobs 1 "$g500")" "$(q "$IG" validate --jobs 2 "$g500")")
  PREPS=("" "")
  OURS=(1 1)
  compare jobs
fi

# ---- g–i. thumbnails: a gallery whose first photo is 24 MP, vs vipsthumbnail and ImageMagick -----
# g and h: the gallery has no thumbnail.png (another writer's), so ours decodes the photo; the
# anchors read the JPEG alone. i: our own gallery, with its embedded 1,024 px thumbnail.
if wanted thumbnails && [[ $MODE == full ]]; then
  photo="$CORPUS/photos/large/00.jpg"
  # Absolute: vipsthumbnail takes a relative -o as relative to the input image.
  tdir=$(realpath -m "$WORK/thumbs") && rm -rf "$tdir" && mkdir -p "$tdir"
  "$IG" create "$tdir/embedded.imagegallery" --title t --date "$DATE" --no-sync "$photo" >/dev/null
  "$PY" - "$tdir/embedded.imagegallery" "$tdir/bare.imagegallery" <<'EOF2'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w") as out:
    for info in src.infolist():
        if info.filename != "thumbnail.png":
            out.writestr(info, src.read(info.filename), compress_type=info.compress_type)
EOF2
  for size in 256 1024; do
    NAMES=("imagegallery thumbnail -s $size" "vipsthumbnail -s $size" "convert -thumbnail ${size}x$size")
    CMDS=("$(q "$IG" thumbnail -s "$size" "$tdir/bare.imagegallery" "$tdir/ours-$size.png")"
          "$(q vipsthumbnail "$photo" -s "$size" -o "$tdir/vips-$size.png")"
          "$(q convert -define "jpeg:size=$((2 * size))x$((2 * size))" "$photo" -thumbnail "${size}x$size" "$tdir/magick-$size.png")")
    PREPS=("" "" "")
    OURS=(1 0 0)
    compare "thumb$size"
    # How close our picture is to vipsthumbnail's (dB; higher is closer, identical is inf).
    # /usr/bin/compare: ImageMagick, not the compare function above.
    psnr=$(/usr/bin/compare -metric PSNR "$tdir/ours-$size.png" "$tdir/vips-$size.png" null: 2>&1 || true)
    echo "PSNR_$size=$psnr" >> "$RESULTS_DIR/machine.env"
    echo "PSNR against vipsthumbnail at $size: $psnr dB"
  done
  # The desktop's line skips the argument parser (ImageGallery.Thumbnail.desktopLine); the same
  # request with `--` before the paths goes through it: the row shows what the fast path saves.
  NAMES=("imagegallery thumbnail -s 256 (embedded)" "vipsthumbnail -s 256"
         "imagegallery thumbnail -s 256 -- (embedded, through the argument parser)")
  CMDS=("$(q "$IG" thumbnail -s 256 "$tdir/embedded.imagegallery" "$tdir/ours-embedded.png")"
        "$(q vipsthumbnail "$photo" -s 256 -o "$tdir/vips-256.png")"
        "$(q "$IG" thumbnail -s 256 -- "$tdir/embedded.imagegallery" "$tdir/ours-embedded-parsed.png")")
  PREPS=("" "" "")
  OURS=(1 0 1)
  compare thumbembedded
fi

# ---- j. open a document: read-only and for editing, vs unzip -p manifest.json ---------------
# The document layer's open: the lock (editing), the manifest, the file's identity and
# fingerprint, the version store and the sync clients' copies beside it. `rename` to the title
# the gallery already has opens for editing and closes without saving.
if wanted open; then
  NAMES=("imagegallery versions --json (open to read)" "imagegallery rename (open to edit, no change)"
         "unzip -p manifest.json")
  CMDS=("$(q "$IG" versions "$G10K" --json)" "$(q "$IG" rename "$G10K" bench)" "$(q unzip -p "$G10K" manifest.json)")
  PREPS=("" "" "")
  OURS=(1 1 0)
  ours_ok "$G10K_BY" || { OURS[0]=skip; OURS[1]=skip; }
  XDG_STATE_HOME="$WORK/state" CMP_RUNS=$SHORT_RUNS compare open
fi

# ---- k. save after one edit on a 1 GiB gallery vs cp + fsync --------------------------------
# Each run changes the first image's caption (to the time), so each run saves: lock, read,
# edit, a new file with every blob copied raw (copy_file_range), fsync, swap, fsync of the
# folder, and the old file's removal. The anchor copies the file over an existing copy of it
# and flushes it: like a save, it replaces a 1 GiB file, whose cached pages the kernel must
# drop (about 0.5 s here). `cp` to a fresh file, which replaces nothing, is context, and so
# is a safe save done with cp: a copy to a temporary file, fsync, mv over the file, fsync of
# the folder.
if wanted save && [[ $MODE == full ]]; then
  save_g="$WORK/save.imagegallery"; save_cp="$WORK/save-copy.imagegallery"; save_new="$WORK/save-new.imagegallery"
  save_mv="$WORK/save-mv.imagegallery"; save_tmp="$WORK/save-mv.tmp"
  "$IG" create "$save_g" --force --title bench --date "$DATE" "$CORPUS/g1g" >/dev/null
  cp "$save_g" "$save_cp"; cp "$save_g" "$save_mv"
  prep=$(q sh -c "rm -f $(q "$save_new" "$save_tmp") && sync")
  NAMES=("imagegallery caption (save after one edit)" "cp over the old copy + fsync" "cp to a new file + fsync"
         "cp to a temp file + fsync + mv over + fsync folder")
  CMDS=("$(q sh -c "$(q "$IG" caption "$save_g" 1) \"\$(date +%s.%N)\" >/dev/null")"
        "$(q sh -c "cp $(q "$save_g" "$save_cp") && sync $(q "$save_cp")")"
        "$(q sh -c "cp $(q "$save_g" "$save_new") && sync $(q "$save_new")")"
        "$(q sh -c "cp $(q "$save_mv" "$save_tmp") && sync $(q "$save_tmp") && mv $(q "$save_tmp" "$save_mv") && sync $(q "$WORK")")")
  PREPS=("$prep" "$prep" "$prep" "$prep")
  OURS=(1 0 0 0)
  XDG_STATE_HOME="$WORK/state" compare save
  rm -f "$save_g" "$save_cp" "$save_new" "$save_mv" "$save_tmp"
fi

# ---- l. fetch 200 images from a loopback server: 4 at a time vs 1, and from a warm cache -----
# The scripted test server (Tests/Servers/gallery-http-server.py) serves the corpus's 200 small
# photos (60 MB) on 127.0.0.1 with a simulated network latency of FETCH_DELAY_MS per response:
# on loopback without one, transfers take a few ms and a single-threaded Python server is the
# bottleneck, which says nothing about fetching from a real server. `--cache-policy reload`
# makes every run transfer every image. The warm runs use the default policy after one
# unmeasured run has filled the cache: with `max-age=86400` nothing is asked of the server;
# with `max-age=0` every image is revalidated (If-None-Match, 304, no body). The server's log
# then shows whether any GET had a body. curl, one process, is the anchor.
if wanted fetch && [[ $MODE == full ]]; then
  FETCH_DELAY_MS=${FETCH_DELAY_MS:-50}
  fdir=$(realpath -m "$WORK/fetch") && rm -rf "$fdir" && mkdir -p "$fdir/curl"
  "$PY" Tests/Servers/gallery-http-server.py --root "$CORPUS/photos/small" --delay-ms "$FETCH_DELAY_MS" \
    > "$fdir/server.out" 2> "$fdir/server.err" &
  server_pid=$!
  for _ in $(seq 50); do grep -q '^PORT ' "$fdir/server.out" 2>/dev/null && break; sleep 0.1; done
  port=$(awk '/^PORT /{print $2; exit}' "$fdir/server.out")
  if [[ -z $port ]]; then note fetch "FAILED: the test server did not start: $(head -c 300 "$fdir/server.err")"; else
    base="http://127.0.0.1:$port/images"
    names=$(cd "$CORPUS/photos/small" && ls *.jpg | sort)
    fresh=() stale=()
    for n in $names; do fresh+=("$base/$n?max-age=86400"); stale+=("$base/$n?max-age=0"); done
    out="$fdir/fetched.imagegallery"
    # One cache folder per kind of row: the fresh and the revalidated URLs are 400 resources,
    # 123 MB, more than the 80 MiB cache, and would evict each other.
    create=("$IG" create "$out" --title bench --date "$DATE" --no-sync)
    in_cache() { echo env "XDG_CACHE_HOME=$fdir/cache-$1"; }
    prep=$(q rm -f "$out")
    NAMES=("imagegallery create, 200 URLs, --jobs 4" "imagegallery create, 200 URLs, --jobs 1"
           "imagegallery create, 200 URLs, warm cache (fresh)" "imagegallery create, 200 URLs, warm cache (revalidated)"
           "curl -Z --parallel-max 4, 200 URLs" "curl, 200 URLs one after another")
    CMDS=("$(q $(in_cache reload) "${create[@]}" --cache-policy reload --jobs 4 "${fresh[@]}")"
          "$(q $(in_cache reload) "${create[@]}" --cache-policy reload --jobs 1 "${fresh[@]}")"
          "$(q $(in_cache fresh) "${create[@]}" "${fresh[@]}")"
          "$(q $(in_cache stale) "${create[@]}" "${stale[@]}")"
          "$(q curl -sf -Z --parallel-max 4 --output-dir "$fdir/curl" --remote-name-all "${fresh[@]}")"
          "$(q curl -sf --output-dir "$fdir/curl" --remote-name-all "${fresh[@]}")")
    PREPS=("$prep" "$prep" "$prep" "$prep" "" "")
    OURS=(1 1 1 1 0 0)
    compare fetch
    # Did any warm run transfer a body? One more run of each, with the log cleared first.
    for kind in fresh stale; do
      curl -sf "http://127.0.0.1:$port/__reset" >/dev/null
      rm -f "$out"
      if [[ $kind == fresh ]]; then urls=("${fresh[@]}"); else urls=("${stale[@]}"); fi
      XDG_CACHE_HOME="$fdir/cache-$kind" "${create[@]}" "${urls[@]}" >/dev/null 2>&1 || note fetch "the $kind check run failed"
      curl -sf "http://127.0.0.1:$port/__log" > "$fdir/log-$kind.json"
      counts=$("$PY" -c 'import json,sys; log=[r for r in json.load(open(sys.argv[1])) if r["path"].startswith("/images/")]; print(len(log), sum(1 for r in log if r["bodyBytes"] > 0), sum(1 for r in log if r["status"] == 304))' "$fdir/log-$kind.json")
      read -r requests bodies notmodified <<< "$counts"
      echo "FETCH_WARM_${kind^^}_REQUESTS=$requests" >> "$RESULTS_DIR/machine.env"
      echo "FETCH_WARM_${kind^^}_BODY_GETS=$bodies" >> "$RESULTS_DIR/machine.env"
      echo "FETCH_WARM_${kind^^}_304=$notmodified" >> "$RESULTS_DIR/machine.env"
      echo "warm cache ($kind): $requests requests, $bodies with a body, $notmodified answered 304"
    done
    echo "FETCH_DELAY_MS=$FETCH_DELAY_MS" >> "$RESULTS_DIR/machine.env"
  fi
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
fi

# ---- m. convert a 200-image tar into a gallery vs bsdtar -xf then zip -0 -----------------------
# The corpus's 200 small photos (60 MB) in a plain tar made once by bsdtar. The anchor unpacks
# it with bsdtar and stores the images with Info-ZIP's zip -0: what a user would otherwise do
# by hand. Neither anchor flushes to disk, so ours is timed with --no-sync too; the durable
# default is the other row.
if wanted convert; then
  cdir=$(realpath -m "$WORK/convert") && rm -rf "$cdir" && mkdir -p "$cdir"
  tarball="$cdir/photos.tar"
  bsdtar -cf "$tarball" -C "$CORPUS/photos/small" .
  out_ig="$cdir/out.imagegallery"; out_zip="$cdir/out.zip"; unpacked="$cdir/unpacked"
  prep=$(q sh -c "rm -rf $(q "$out_ig" "$out_zip" "$unpacked") && sync")
  NAMES=("imagegallery convert (tar to gallery)" "imagegallery convert --no-sync"
         "bsdtar -xf, then zip -0")
  CMDS=("$(q "$IG" convert "$tarball" "$out_ig")"
        "$(q "$IG" convert "$tarball" "$out_ig" --no-sync)"
        "$(q sh -c "mkdir $(q "$unpacked") && bsdtar -xf $(q "$tarball") -C $(q "$unpacked") && zip -0 -q -r -j $(q "$out_zip") $(q "$unpacked")")")
  PREPS=("$prep" "$prep" "$prep")
  OURS=(1 1 0)
  compare convert
  rm -rf "$cdir"
fi

# ---- n. open the 10,000-image gallery's manifest: GalleryReader vs ZIPFoundation + JSONDecoder -----
# Context for the README's "Why its own ZIP and JSON code", not a target. Benchmarks/zipfoundation.sh
# builds the side package Benchmarks/zipfoundation/manifest-open (release, into .build-zf), reuses
# WORK/g10k.imagegallery (written above when info, list or open ran; else it writes it with IG),
# checks that both readers count the same images, times them in one hyperfine run (30 runs after
# 3 warm-ups; 3 runs with --quick) and leaves zipfoundation.* in RESULTS_DIR for report.py.
if wanted zipfoundation && [[ $MODE == full ]]; then
  echo
  echo "=== zipfoundation ==="
  zf=("$HERE/zipfoundation.sh")
  [[ -n $QUICK ]] && zf+=(--runs "$RUNS")
  if ! IG=$IG CORPUS=$CORPUS WORK=$WORK RESULTS_DIR=$RESULTS_DIR "${zf[@]}"; then
    note zipfoundation "FAILED: \`Benchmarks/zipfoundation.sh\` exited non-zero (its messages are in run.sh's output)"
  fi
fi

# ---- o. start-up: imagegallery --version, against a baseline build --------------------------------
# The floor under every command: process start, the Swift runtime's and the modules' initialisation,
# the argument parser, one line out. Always 30 runs after 3 warm-ups: a few ms each. BASELINE_IG,
# when set, names another build (e.g. the previous commit's release binary); it runs in the same
# hyperfine invocation, as the anchor, and report.py's target wants IG within 1.05 × of it.
if wanted startup && [[ $MODE == full ]]; then
  NAMES=("imagegallery --version" "baseline: imagegallery --version")
  CMDS=("$(q "$IG" --version)" "")
  PREPS=("" "")
  OURS=(1 skip)
  if [[ -n ${BASELINE_IG:-} ]]; then
    if [[ -f $BASELINE_IG && -x $BASELINE_IG ]]; then
      CMDS[1]=$(q "$BASELINE_IG" --version); OURS[1]=1
    else
      note startup "FAILED: ${NAMES[1]}: BASELINE_IG=$BASELINE_IG is not an executable file"
    fi
  fi
  CMP_WARMUP=3 CMP_RUNS=30 compare startup
fi

# ---- p. robustness: every command over the hostile corpus; the last fuzzing record ---------------
# Not a race against an anchor: the issue's figures are bounds (no crash, under 256 MiB, a few
# seconds a file) and the fuzzers' run time. The whole committed corpus goes through validate,
# info, list, extract, thumbnail and convert under RLIMIT_AS 256 MiB; the fuzzing record is the
# report of the last long `scripts/fuzz` run on this machine (FUZZ_REPORT), copied with its date.
if wanted robustness && [[ $MODE == full ]]; then
  echo "== robustness: the hostile corpus through every command"
  cmd=("$PY" scripts/check-hostile-commands.py Fixtures/hostile --binary "$IG" --json "$RESULTS_DIR/hostile.json")
  q "${cmd[@]}" > "$RESULTS_DIR/hostile.cmd"
  "${cmd[@]}" | tail -3 || echo "FAILED: hostile corpus: see $RESULTS_DIR/hostile.json" >> "$RESULTS_DIR/robustness.notes"
  fuzz_report=${FUZZ_REPORT:-.build-fuzz/report.json}
  if [[ -f $fuzz_report ]]; then
    cp "$fuzz_report" "$RESULTS_DIR/fuzz.json"
    date -u -r "$fuzz_report" +%Y-%m-%dT%H:%M:%SZ > "$RESULTS_DIR/fuzz.date"
  fi
fi

echo
if [[ -n $DO_REPORT ]]; then
  "$PY" "$HERE/report.py" "$RESULTS_DIR" "$REPORT"
  echo "wrote $REPORT"
fi
