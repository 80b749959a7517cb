#!/bin/sh
# scripts/check-symbols.sh OBJECT_DIR — Debian's libfathom.so exports generic
# names (encode, probe_table, num_tables, ...). A global symbol of bachess
# with one of those names would interpose on the library's own calls at run
# time. Fails, naming the symbol, when an object defines a name the library
# exports; only src/syzygy/syzygy.c may talk to the library at all.
objects=${1:-build/release}
lib=$(ldconfig -p | sed -n 's/.*libfathom\.so[^>]*=> //p' | head -1)
[ -n "$lib" ] || { echo "check-symbols: libfathom.so not found (scripts/install-build-deps.sh)"; exit 2; }
ls "$objects"/*.o >/dev/null 2>&1 || { echo "check-symbols: no objects in $objects"; exit 2; }
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
ours=$(nm --defined-only "$objects"/*.o 2>/dev/null | awk '$2 ~ /^[TDBRVWC]$/ {print $3}' | sort -u)
clash=$(printf '%s\n' "$exported" | comm -12 - "$(printf '%s\n' "$ours" > /tmp/bachess-syms.$$; echo /tmp/bachess-syms.$$)")
rm -f /tmp/bachess-syms.$$
if [ -n "$clash" ]; then
    echo "symbol clash with $lib: $(echo $clash)"
    exit 1
fi
callers=$(grep -l '<tbprobe.h>' src/*.c src/*/*.c)
if [ "$callers" != "src/syzygy/syzygy.c" ]; then
    echo "only src/syzygy/syzygy.c may include <tbprobe.h>; found: $(echo $callers)"
    exit 1
fi
echo "no bachess symbol shadows one of the $(echo "$exported" | wc -l) that $lib exports"
