#!/bin/sh
# Installs the Debian packages needed to build bachess, if any is missing.
# Runs as root directly, or through sudo for a normal user. `make run` and
# `make test` call it; a plain `make` assumes they are there.
set -e
PACKAGES="gcc make libfathom-dev"
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
