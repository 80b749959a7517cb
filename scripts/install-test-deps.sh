#!/bin/sh
# Installs the Debian packages the tests need, if any is missing, and the
# npm packages of the web page's browser test (webpage/package-lock.json).
# Runs as root directly, or through sudo for a normal user.
set -e
PACKAGES="gcc clang libclang-rt-14-dev make git libcriterion-dev gcc-mingw-w64-x86-64-posix gcc-aarch64-linux-gnu qemu-user wine wine64 file zip stockfish python3 python3-pytest pgn-extract xboard xvfb xauth polyglot fairymax valgrind fathom python3-torch python3-numpy libopenblas0 chromium build-essential debhelper dpkg-dev fakeroot lintian man-db"
# Node.js and npm from Debian unless the machine already has them (another
# build of Node.js would conflict with Debian's npm).
command -v node >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs"
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
"$(dirname "$0")/apt-install-missing.sh" $PACKAGES
web="$(dirname "$0")/../webpage"
[ -d "$web/node_modules/playwright-core" ] || (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
