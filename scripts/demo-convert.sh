#!/usr/bin/env bash
# The conversion part of `make demo`: the demo gallery unpacked and packed again (the same
# bytes), made into a comic book and back, the sample images imported from a tar.gz made by
# tar, and the web gallery written (open DEMO_DIR/web/index.html in a browser).
# usage: scripts/demo-convert.sh BINARY GALLERY DEMO_DIR
set -euo pipefail
bin=$1 gallery=$2 dir=$3

run() { echo "+ imagegallery $*"; "$bin" "$@"; }
run convert "$gallery" "$dir/unpacked" --force
run convert "$dir/unpacked" "$dir/repacked.imagegallery" --force
cmp "$gallery" "$dir/repacked.imagegallery" && echo "(unpacked and packed again: the same bytes)"
run convert "$gallery" "$dir/samples.cbz" --force
run convert "$dir/samples.cbz" "$dir/from-comic.imagegallery" --force
tar -czf "$dir/samples.tar.gz" -C Fixtures images
run convert "$dir/samples.tar.gz" "$dir/from-tar.imagegallery" --force
run convert "$gallery" "$dir/web" --to web --force
