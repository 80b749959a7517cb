#!/bin/sh
# Installs the Debian packages the tests need, if any is missing.
# Runs as root directly, or through sudo for a normal user.
set -e
PACKAGES="gcc clang libclang-rt-14-dev make libcriterion-dev stockfish python3 pgn-extract xboard xvfb xauth polyglot fairymax valgrind fathom python3-torch python3-numpy libopenblas0"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q $missing
