#!/bin/sh
# Installs the Debian packages needed to build bachess, if any is missing.
# Runs as root directly, or through sudo for a normal user. `make run` and
# `make test` call it; a plain `make` assumes they are there.
set -e
PACKAGES="gcc make libmicrohttpd-dev"
exec "$(dirname "$0")/apt-install-missing.sh" $PACKAGES
