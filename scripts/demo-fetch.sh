#!/usr/bin/env bash
# The fetching part of `make demo`: serves the sample images on loopback with the tests'
# scripted server, adds two of them to the demo gallery by URL (one is an HTML page served as
# image/jpeg, which is refused: exit 4, the rest added), then fetches again, from the cache.
# usage: scripts/demo-fetch.sh BINARY GALLERY DEMO_DIR
set -euo pipefail
bin=$1 gallery=$2 dir=$(realpath -m "$3")   # absolute: XDG ignores relative paths
export XDG_CACHE_HOME=$dir/cache XDG_STATE_HOME=$dir/state
/usr/bin/python3 Tests/Servers/gallery-http-server.py --root Fixtures/images > "$dir/server.out" 2> "$dir/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q '^PORT ' "$dir/server.out" 2>/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$(awk '/^PORT /{print $2; exit}' "$dir/server.out")"

run() { echo "+ imagegallery $*"; "$bin" "$@"; }
status=0
run add "$gallery" "$base/images/6-bubbles.png?max-age=3600" "$base/html-as-jpeg" || status=$?
echo "(exit $status: 4 means some URLs failed and the others were added)"
[[ $status -eq 4 ]] || exit 1
run create --force "$dir/fetched.imagegallery" --title "Fetched again" "$base/images/6-bubbles.png?max-age=3600"
run cache info
