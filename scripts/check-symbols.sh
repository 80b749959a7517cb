#!/bin/sh
# scripts/check-symbols.sh [OBJECT_DIR] — Debian's libfathom.so exports
# generic names (encode, probe_table, num_tables, ...). A global symbol of
# bachess with one of those names would interpose on the library's own calls
# at run time. Fails, naming the symbol and the object, when an object of the
# engine defines a name the library exports; only src/syzygy/syzygy.c may
# talk to the library at all.
#
# Every object of the engine is looked at: OBJECT_DIR (default build/release)
# is searched recursively (games/, nnue/, protocol/, syzygy/, tools/, web/,
# ...), and each source file under src/ must have its object there, so that
# a folder added later cannot be missed.
cd "$(dirname "$0")/.." || exit 2
objects=${1:-build/release}
lib=$(ldconfig -p | sed -n 's/.*libfathom\.so[^>]*=> //p' | head -1)
[ -n "$lib" ] || { echo "check-symbols: libfathom.so not found (scripts/install-build-deps.sh)"; exit 2; }
[ -d "$objects" ] || { echo "check-symbols: no directory $objects"; exit 2; }

missing=""
for source in $(find src -name '*.c' | sort); do
    object="$objects/${source#src/}"
    object="${object%.c}.o"
    [ -f "$object" ] || missing="$missing $object"
done
if [ -n "$missing" ]; then
    echo "check-symbols: objects missing (build first):$missing"
    exit 2
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}' | sort -u > "$tmp/exported"
count=0
status=0
for object in $(find "$objects" -name '*.o' ! -path "$objects/tests/*" | sort); do
    count=$((count + 1))
    if ! nm --defined-only "$object" > "$tmp/nm" 2>"$tmp/err"; then
        echo "check-symbols: nm cannot read $object: $(cat "$tmp/err")"
        status=2
        continue
    fi
    awk '$2 ~ /^[TDBRVWCGSiu]$/ {print $3}' "$tmp/nm" | sort -u > "$tmp/ours"
    clash=$(comm -12 "$tmp/exported" "$tmp/ours")
    if [ -n "$clash" ]; then
        echo "symbol clash with $lib: $object defines $(echo $clash)"
        status=1
    fi
done
[ "$status" -eq 0 ] || exit "$status"

callers=$(grep -rl --include='*.c' --include='*.h' '<tbprobe.h>' src | sort)
if [ "$callers" != "src/syzygy/syzygy.c" ]; then
    echo "only src/syzygy/syzygy.c may include <tbprobe.h>; found: $(echo $callers)"
    exit 1
fi
echo "no symbol of the $count objects in $objects (recursive) shadows one of the $(wc -l < "$tmp/exported") that $lib exports"
