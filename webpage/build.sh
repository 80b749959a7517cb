#!/bin/sh
# webpage/build.sh [OUT] — rebuilds the page of `bachess web` into OUT (default
# embed/web/, committed, so that building bachess needs neither npm nor
# the network; the page itself, embed/web/index.html, is written there
# by hand): the bundle of src/app.js and its modules with chessops and
# cm-chessboard (versions pinned in package-lock.json), the styles, and
# cm-chessboard's sprites. webpage/check-build.sh checks that the committed
# files are what this script makes of the sources.
set -e
out=$(realpath -m "${1:-$(dirname "$0")/../embed/web}")
cd "$(dirname "$0")"
[ -d node_modules/esbuild ] || npm ci --no-audit --no-fund --loglevel=error
mkdir -p "$out/pieces" "$out/extensions/markers" "$out/extensions/arrows"
npx esbuild src/app.js --bundle --minify --format=iife --target=es2020 --legal-comments=eof \
    --log-level=warning --outfile="$out/app.js"
cm=node_modules/cm-chessboard/assets
cat $cm/chessboard.css $cm/extensions/markers/markers.css $cm/extensions/arrows/arrows.css \
    $cm/extensions/promotion-dialog/promotion-dialog.css src/app.css | grep -v "sourceMappingURL" > "$out/app.css"
cp $cm/pieces/standard.svg "$out/pieces/"
cp $cm/extensions/markers/markers.svg "$out/extensions/markers/"
cp $cm/extensions/arrows/arrows.svg "$out/extensions/arrows/"
