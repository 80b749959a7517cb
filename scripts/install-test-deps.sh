#!/bin/sh
# Installs the Debian packages the tests need, if any is missing.
# Runs as root directly, or through sudo for a normal user.
set -e
PACKAGES="gcc clang libclang-rt-14-dev make libcriterion-dev stockfish python3 pgn-extract xboard xvfb xauth polyglot fairymax valgrind fathom python3-torch python3-numpy libopenblas0"
exec "$(dirname "$0")/apt-install-missing.sh" $PACKAGES
