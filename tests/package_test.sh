#!/bin/bash
# tests/package_test.sh — the Debian package, as a user gets it (make package-test):
#   1. built with `dpkg-buildpackage -us -uc -b` in a copy of the source under
#      /tmp (it writes its results to the parent directory: the checkout
#      stays clean), from the files git knows, committed or not;
#   2. lintian on the .changes: any error fails, warnings are listed;
#   3. installed with dpkg -i (as root, or through sudo);
#   4. /usr/games/bachess: --version names the version and ARCH=x86-64, and the
#      x86-64 build needs no CPU feature (it starts with all of them pretended
#      missing); the man page and XBoard's engine file are in place;
#   5. both protocols and a depth-5 search in each (tests/package_protocols.py);
#   6. a game under XBoard (headless) started as a user would, `-fcp bachess`,
#      against fairymax (scripts/xboard-match.sh);
#   7. the package removed again (unless it was installed before the test),
#      and the copy deleted; on failure the copy and logs are kept.
# Needs debhelper, dpkg-dev, lintian, fakeroot, xboard, xvfb, xauth and fairymax
# (scripts/install-test-deps.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$top/debian/changelog")
deb_arch=$(dpkg --print-architecture)
tmp=$(mktemp -d /tmp/bachess-package-XXXXXX)
src=$tmp/bachess-$version
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

failures=0
fail() {
    echo "package-test: FAIL: $*"
    failures=$((failures + 1))
}
finish() {
    if [ "$installed_before" = no ] && dpkg-query -W -f='${Status}' bachess 2>/dev/null | grep -q 'ok installed'; then
        $SUDO dpkg -r bachess >"$tmp/remove.log" 2>&1 || fail "dpkg -r bachess: see $tmp/remove.log"
    fi
    if [ "$failures" -gt 0 ]; then
        echo "package-test: $failures check(s) failed; logs in $tmp"
        exit 1
    fi
    rm -rf "$tmp"
    echo "package-test: ok (bachess_${version}_$deb_arch.deb built, lintian without errors, installed, both protocols, a game under XBoard, removed)"
    exit 0
}
installed_before=no
dpkg-query -W -f='${Status}' bachess 2>/dev/null | grep -q 'ok installed' && installed_before=yes

# ---- 1. build, out of tree ------------------------------------------------------
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard | while IFS= read -r f; do
    [ -e "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$src") || { fail "copying the source to $src"; finish; }
echo "package-test: building bachess $version in $src"
start=$(date +%s)
# The package builds as a user's would: not with the make variables of a
# `make test CC=… EXE=…` around this script (debian/rules is a makefile).
if ! (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
    tail -30 "$tmp/build.log"
    fail "dpkg-buildpackage failed: see $tmp/build.log"
    finish
fi
deb=$tmp/bachess_${version}_$deb_arch.deb
changes=$tmp/bachess_${version}_$deb_arch.changes
[ -f "$deb" ] || { fail "no $deb"; finish; }
echo "package-test: built $(basename "$deb") ($(stat -c %s "$deb") bytes) in $(($(date +%s) - start)) s"

# ---- 2. lintian --------------------------------------------------------------------
lintian --fail-on error --display-info --pedantic "$changes" >"$tmp/lintian.log" 2>&1
lintian_status=$?
grep -E '^[EWIP]: ' "$tmp/lintian.log" | sed 's/^/package-test: lintian: /'
echo "package-test: lintian: $(grep -c '^E: ' "$tmp/lintian.log") errors, $(grep -c '^W: ' "$tmp/lintian.log") warnings"
[ "$lintian_status" = 0 ] || fail "lintian exit code $lintian_status (errors, or lintian failed): see $tmp/lintian.log"

# ---- 3. install ------------------------------------------------------------------
if ! $SUDO dpkg -i "$deb" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    fail "dpkg -i failed"
    finish
fi
engine=/usr/games/bachess

# ---- 4. the binary and its files ------------------------------------------------------
"$engine" --version | sed 's/^/package-test: --version: /'
"$engine" --version | head -1 | grep -qx "bachess $version" || fail "--version does not start with 'bachess $version'"
"$engine" --version | grep -q 'ARCH=x86-64,' || fail "--version does not say ARCH=x86-64"
BACHESS_CPU_PRETEND_MISSING=sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,fma,bmi,bmi2 "$engine" --version >/dev/null 2>"$tmp/cpu.err" ||
    fail "the x86-64 build refused a CPU without the later features: $(cat "$tmp/cpu.err")"
[ -f /usr/share/man/man6/bachess.6.gz ] || fail "no /usr/share/man/man6/bachess.6.gz"
man -l /usr/share/man/man6/bachess.6.gz 2>/dev/null | grep -q "bachess $version" || fail "the man page does not render with the version"
eng_file=/usr/share/games/plugins/xboard/bachess.eng
if [ -f "$eng_file" ]; then
    [ "$(sed -n 1p "$eng_file")" = "plugin spec 0.0" ] && [ "$(sed -n 2p "$eng_file")" = "$engine" ] ||
        fail "$eng_file is not 'plugin spec 0.0' then $engine"
else
    fail "no $eng_file"
fi

# ---- 5. the protocols -------------------------------------------------------------------
python3 "$top/tests/package_protocols.py" "$engine" || fail "the protocols (above)"

# ---- 6. XBoard, started as a user would ----------------------------------------------------
XB_ANALYSIS=0 "$top/scripts/xboard-match.sh" bachess 1 "$tmp/xboard" || fail "the game under XBoard (above)"

finish
