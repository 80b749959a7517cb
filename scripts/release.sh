#!/bin/sh
# scripts/release.sh [DIST_DIR] — the release archives (make release), one a
# build, as Stockfish ships them, into DIST_DIR (default dist/):
#   bachess-VERSION-linux-x86-64{,-v2,-v3}.tar.gz     the engine alone (make engine's cut:
#                                                     libc, libm, pthreads)
#   bachess-VERSION-windows-x86-64{,-v2,-v3}.zip      bachess.exe, static (mingw-w64)
#   bachess-VERSION-linux-aarch64.tar.gz              static, e.g. for Android GUIs
# each holding a folder bachess-VERSION-NAME/ with the engine, README.md,
# LICENSE, LICENSE-Fathom (the Syzygy prober built in) and the man page
# bachess.6; then SHA256SUMS. The same sources give the same bytes: every
# time stamp is SOURCE_DATE_EPOCH (default: the last commit's time), the
# archives list their files sorted, with no owner, and the compiler keeps no
# build path (-ffile-prefix-map). The builds go to BUILD_DIR (default
# build/dist), each in a folder of its own.
set -eu
cd "$(dirname "$0")/.."
dist=${1:-dist}
builds=${BUILD_DIR:-build/dist}
# Called from make: its command-line variables (BUILD, EXE, CC...) must not
# reach the builds below.
unset MAKEFLAGS MFLAGS MAKELEVEL || true
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || stat -c %Y debian/changelog)}
export SOURCE_DATE_EPOCH TZ=UTC LC_ALL=C

# NAME  make's arguments
BUILDS="linux-x86-64      PLATFORM=linux ARCH=x86-64 WEB=no CC=gcc
linux-x86-64-v2   PLATFORM=linux ARCH=x86-64-v2 WEB=no CC=gcc
linux-x86-64-v3   PLATFORM=linux ARCH=x86-64-v3 WEB=no CC=gcc
windows-x86-64    PLATFORM=windows ARCH=x86-64 CC=x86_64-w64-mingw32-gcc-posix
windows-x86-64-v2 PLATFORM=windows ARCH=x86-64-v2 CC=x86_64-w64-mingw32-gcc-posix
windows-x86-64-v3 PLATFORM=windows ARCH=x86-64-v3 CC=x86_64-w64-mingw32-gcc-posix
linux-aarch64     PLATFORM=linux ARCH=aarch64 CC=aarch64-linux-gnu-gcc"

# Both folders made first: on a fresh clone not even build/ exists.
mkdir -p "$dist" "$builds"
rm -f "$dist"/bachess-*.tar.gz "$dist"/bachess-*.zip "$dist"/SHA256SUMS
echo "$BUILDS" | while read -r name args; do
    case $name in windows-*) exe=bachess.exe ;; *) exe=bachess ;; esac
    out="$builds/$name"
    # shellcheck disable=SC2086
    make --no-print-directory -j2 $args BUILD="$out" EXE="$out/$exe" "$out/$exe" >"$builds/$name.log" 2>&1 ||
        { cat "$builds/$name.log"; echo "release: the $name build failed"; exit 1; }
    folder="bachess-$version-$name"
    stage="$out/stage"
    rm -rf "$stage" && mkdir -p "$stage/$folder"
    cp "$out/$exe" README.md LICENSE "$stage/$folder/"
    cp src/syzygy/fathom/LICENSE "$stage/$folder/LICENSE-Fathom"
    sed "s/@VERSION@/$version/" man/bachess.6 >"$stage/$folder/bachess.6"
    chmod 755 "$stage/$folder/$exe" && chmod 644 "$stage/$folder"/[!b]* "$stage/$folder/bachess.6"
    find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    case $name in
    windows-*)
        archive="$dist/$folder.zip"
        zip_path=$(realpath "$dist")/$folder.zip
        (cd "$stage" && find "$folder" | sort | zip -q -X -D -9 "$zip_path" -@) ;;
    *)
        archive="$dist/$folder.tar.gz"
        tar -C "$stage" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
            --format=gnu -cf - "$folder" | gzip -n -9 >"$archive" ;;
    esac
    echo "release: $archive"
done
(cd "$dist" && sha256sum bachess-*.tar.gz bachess-*.zip >SHA256SUMS)
cat "$dist/SHA256SUMS"
