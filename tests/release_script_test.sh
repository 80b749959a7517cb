#!/bin/sh
# scripts/release.sh on a tree as fresh as a new clone (no build/, no dist/),
# with a stand-in `make` on PATH that writes the engine file each build names
# instead of compiling it: the script's own work (folders, archives, their
# contents, SHA256SUMS, the same bytes twice, a failed build reported) is
# checked in seconds. The real builds are `make release-test`'s.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # DESCRIPTION COMMAND...
    what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}

tree="$work/tree"
for f in scripts/release.sh debian/changelog README.md LICENSE src/syzygy/fathom/LICENSE man/bachess.6; do
    mkdir -p "$tree/$(dirname "$f")" && cp "$root/$f" "$tree/$f"
done
mkdir -p "$work/bin"
cat >"$work/bin/make" <<'STUB'
#!/bin/sh
# Stand-in for make: writes the EXE=... it is given; fails when told to.
[ -n "${STUB_MAKE_FAILS:-}" ] && { echo "stub make: failing as asked"; exit 2; }
# The engine's bytes name the platform's arguments, not the build folder, as a
# real build's do (-ffile-prefix-map).
args=
for arg; do
    case $arg in EXE=*) exe=${arg#EXE=} ;; BUILD=* | */*) ;; *) args="$args $arg" ;; esac
done
mkdir -p "$(dirname "$exe")" && printf 'engine built with:%s\n' "$args" >"$exe"
STUB
chmod +x "$work/bin/make"
export PATH="$work/bin:$PATH" SOURCE_DATE_EPOCH=1700000000

check "release.sh succeeds on a fresh tree" sh -c "cd '$tree' && sh scripts/release.sh dist"
check "seven archives and their SHA256SUMS" sh -c \
    "cd '$tree/dist' && [ \$(ls bachess-*.tar.gz bachess-*.zip | wc -l) -eq 7 ] && [ \$(wc -l <SHA256SUMS) -eq 7 ] && sha256sum -c SHA256SUMS"
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$tree/debian/changelog")
check "a Linux archive holds the engine, README, licences and man page" sh -c \
    "tar -tzf '$tree/dist/bachess-$version-linux-x86-64.tar.gz' | sort | tr '\n' ' ' | grep -qx 'bachess-$version-linux-x86-64/ bachess-$version-linux-x86-64/LICENSE bachess-$version-linux-x86-64/LICENSE-Fathom bachess-$version-linux-x86-64/README.md bachess-$version-linux-x86-64/bachess bachess-$version-linux-x86-64/bachess.6 '"
check "a Windows archive holds bachess.exe" sh -c \
    "unzip -l '$tree/dist/bachess-$version-windows-x86-64.zip' | grep -q 'bachess-$version-windows-x86-64/bachess.exe'"
check "the same bytes twice" sh -c \
    "cd '$tree' && cp dist/SHA256SUMS '$work/first' && BUILD_DIR=build/again sh scripts/release.sh dist && cmp '$work/first' dist/SHA256SUMS"
check "a failed build stops the release and names it" sh -c \
    "cd '$tree' && ! STUB_MAKE_FAILS=1 sh scripts/release.sh '$work/failed' >'$work/failed.log' 2>&1 && grep -q 'the linux-x86-64 build failed' '$work/failed.log'"

passed=$((6 - fails))
echo "$passed passed, $fails failed"
[ "$fails" -eq 0 ]
