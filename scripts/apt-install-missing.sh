#!/bin/sh
# scripts/apt-install-missing.sh PACKAGE... — installs the Debian packages
# of the list that are not installed yet (nothing to do: no apt at all).
# Runs as root directly, or through sudo for a normal user. Used by
# install-build-deps.sh and install-test-deps.sh, which hold the lists.
set -e
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q $missing
