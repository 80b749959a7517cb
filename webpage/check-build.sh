#!/bin/sh
# webpage/check-build.sh — the page's committed bundle, styles and sprites
# (embed/web/) are what web/build.sh makes of web/src/ now: a source
# changed without its bundle rebuilt would otherwise ship the old page in
# the binary, and the browser test would test that old page.
set -e
cd "$(dirname "$0")"
built=$(mktemp -d)
trap 'rm -rf "$built"' EXIT
./build.sh "$built"
status=0
for f in $(cd "$built" && find . -type f | sort); do
	if cmp -s "$built/$f" "../embed/web/$f"; then
		echo "ok    embed/web/${f#./} is built from the sources"
	else
		echo "FAIL  embed/web/${f#./} differs from what webpage/build.sh makes: run webpage/build.sh and commit"
		status=1
	fi
done
exit $status
