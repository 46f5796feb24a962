#!/usr/bin/env bash
# Build the benchmark corpus that Benchmarks/RESULTS.md is measured on.
#
# usage: Benchmarks/make-corpus.sh [--verify] DIR     (make bench uses .build-bench/corpus)
#
#   DIR/photos/   the project's reference photo corpus, built by ../shared/bench/make_corpus.sh
#                 (relative to the repository): 200 small photos (1-3 MP), 20 large (24 MP),
#                 a 6000x4000 PNG, two 1 GiB zips. Needs the Debian package mirror and root
#                 (apt-get). ~1 minute, 2.4 GB.
#   DIR/g10k/     10,000 distinct JPEGs of 105-115 KB each (~1.1 GB), from the small photos.
#   DIR/g1g/      >= 1 GiB of real-sized photos (small + large, ~1530 files), all distinct.
#   (see Benchmarks/corpus_sets.py). ~2 more minutes and 2.2 GB; 4.6 GB in all.
#
# Idempotent: every part that is already complete (photos/SHA256SUMS, DIR/*.stamp.json) is
# skipped. --verify re-hashes g10k/ and g1g/ against their stamps. Deterministic on Debian 12.
set -euo pipefail

VERIFY=
if [[ ${1:-} == --verify ]]; then VERIFY=--verify; shift; fi
DIR=${1:?usage: Benchmarks/make-corpus.sh [--verify] DIR}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SHARED_SCRIPT="$REPO/../shared/bench/make_corpus.sh"
PY=/usr/bin/python3      # Debian's Python: Pillow from python3-pil, pinned for determinism

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
start=$SECONDS

# ---- 1. the reference photo corpus ----------------------------------------------------
photos_complete() {
  [[ -s $DIR/photos/SHA256SUMS ]] &&
    [[ $(find "$DIR/photos/small" -maxdepth 1 -name '*.jpg' 2>/dev/null | wc -l) -eq 200 ]] &&
    [[ $(find "$DIR/photos/large" -maxdepth 1 -name '*.jpg' 2>/dev/null | wc -l) -eq 20 ]]
}
if photos_complete; then
  echo "photos: up to date ($DIR/photos)"
else
  if [[ ! -f $SHARED_SCRIPT ]]; then
    echo "make-corpus: the reference corpus script is missing: $SHARED_SCRIPT" >&2
    echo "make-corpus: it ships in the project's shared folder beside the repository" >&2
    echo "make-corpus: (../shared/bench/); check that folder out next to the repo, or copy a" >&2
    echo "make-corpus: built corpus into $DIR/photos (with its SHA256SUMS)." >&2
    exit 1
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "make-corpus: note: $SHARED_SCRIPT runs apt-get (update/install python3-pil, download)" >&2
    echo "make-corpus: and may need root; re-run as root (or with sudo) if it fails." >&2
  fi
  echo "photos: building the reference corpus with $SHARED_SCRIPT (~1 minute, 2.4 GB) ..."
  bash "$SHARED_SCRIPT" "$DIR/photos"
  photos_complete || { echo "make-corpus: $DIR/photos is incomplete after the build" >&2; exit 1; }
fi

# ---- 2. the derived sets: g10k/ and g1g/ -------------------------------------------------
if ! "$PY" -c 'import PIL' 2>/dev/null; then
  echo "make-corpus: $PY has no Pillow: apt-get install python3-pil" >&2
  exit 1
fi
"$PY" "$HERE/corpus_sets.py" $VERIFY "$DIR"

echo "corpus ready in $DIR ($(du -sh "$DIR" | cut -f1), $((SECONDS - start)) s)"
