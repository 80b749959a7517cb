#!/bin/bash
# tests/build_test.sh ENGINE BUILD_DIR — the builds OpenBench and the package
# make, and what each binary says of itself (make build-tests):
#   - make ARCH=x86-64, x86-64-v2 and x86-64-v3 (each in BUILD_DIR/arch-*):
#     the same bench node count as ENGINE (the native build), ARCH=... in
#     --version; the CPU check refuses, with one line on stderr naming the
#     build to make, when a needed feature is pretended missing
#     (BACHESS_CPU_PRETEND_MISSING), and x86-64 needs none;
#   - make EVALFILE=...: the network named and its SHA-256 in --version; a
#     copy of nets/default.nnue gives ENGINE's bench, a different usable net
#     (tests/conformance/harness.py's "shifted") another one; switching
#     EVALFILE to an older file rebuilds the object that holds the net;
#   - `bench` prints ASCII only and ends with `N nodes M nps`, the form
#     OpenBench's client parses (Client/bench.py), for ENGINE and the others;
#   - the profile-guided build in BUILD_DIR, if ENGINE was one: its
#     instrumented bench searched ENGINE's nodes and wrote search.c's counts;
#   - make TUNE=1 (OpenBench's SPSA): every parameter `scripts/spsa.py
#     --openbench` lists is a UCI option, and the bench is ENGINE's;
#   - `bachess "genfens N seed S book None|FILE" quit` (OpenBench's datagen
#     openings): N lines `info string genfens FEN`, each a legal position
#     (perft 1 accepts it), the same for the same seed.
# No timeouts: make and bench end by themselves (bench: 1-2 s idle).
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ]; then
    echo "usage: $0 ENGINE BUILD_DIR" >&2
    exit 2
fi
engine=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$2/build-tests" && cd "$2/build-tests" && pwd)
MAKE=${MAKE:-make}
failures=0
fail() {
    echo "build-tests: FAIL: $*"
    failures=$((failures + 1))
}

# bench's last line, after checking the whole output is ASCII and the last
# line has OpenBench's form.
bench_line() {
    local output last
    output=$("$1" bench 2>&1)
    if LC_ALL=C grep -q '[^[:print:][:space:]]' <<<"$output"; then
        fail "$1 bench prints non-ASCII bytes (OpenBench decodes it as ASCII)"
    fi
    last=$(tail -n 1 <<<"$output")
    [[ $last =~ ^[0-9]+\ nodes\ [0-9]+\ nps$ ]] || fail "$1 bench ends with '$last', not 'N nodes M nps'"
    echo "$last"
}
nodes_of() { awk '{print $1}' <<<"$1"; }

reference=$(bench_line "$engine")
echo "build-tests: $engine ($("$engine" --version | sed -n 2p)): $reference"
ref_nodes=$(nodes_of "$reference")

# The ARCH builds (x86 only).
if [ "$(uname -m)" = x86_64 ]; then
    for arch in x86-64 x86-64-v2 x86-64-v3; do
        dir=$out/arch-$arch
        if ! (cd "$top" && $MAKE --no-print-directory -j2 ARCH=$arch EXE="$dir/bachess" BUILD="$dir") >"$out/make-$arch.log" 2>&1; then
            tail -20 "$out/make-$arch.log"
            fail "make ARCH=$arch failed: see $out/make-$arch.log"
            continue
        fi
        grep -i 'warning' "$out/make-$arch.log" | head -5 | sed "s/^/build-tests: ARCH=$arch: /"
        # A build for more than this CPU has must refuse it (one line, exit 1)
        # and can be benched only where it runs.
        if ! refusal=$("$dir/bachess" --version 2>&1 >/dev/null); then
            grep -q "^bachess: this build (ARCH=$arch) needs the CPU feature" <<<"$refusal" ||
                fail "ARCH=$arch: --version failed with '$refusal'"
            echo "build-tests: ARCH=$arch: not run, this CPU lacks what it needs: $refusal"
            continue
        fi
        line=$(bench_line "$dir/bachess")
        echo "build-tests: ARCH=$arch: $line"
        [ "$(nodes_of "$line")" = "$ref_nodes" ] || fail "ARCH=$arch: bench $(nodes_of "$line") nodes, native $ref_nodes"
        "$dir/bachess" --version | grep -q "^build: ARCH=$arch, " || fail "ARCH=$arch: --version says $("$dir/bachess" --version | sed -n 2p)"
    done
    # The CPU check: what each build needs, what it names instead.
    refuse() { # BUILD PRETEND EXPECTED_ARCH
        local err status
        err=$(BACHESS_CPU_PRETEND_MISSING=$2 "$1" --version 2>&1 >/dev/null)
        status=$?
        if [ "$status" != 1 ] || [ "$(wc -l <<<"$err")" != 1 ] || ! grep -q "make ARCH=$3\`" <<<"$err"; then
            fail "$1 without $2: exit $status, '$err' (one line naming make ARCH=$3 expected)"
        else
            echo "build-tests: without $2: $err"
        fi
    }
    # The names it gives are for this CPU less the pretended features, so
    # they are known only where the CPU has all of x86-64-v3.
    if "$out/arch-x86-64-v3/bachess" --version >/dev/null 2>&1; then
        refuse "$out/arch-x86-64-v3/bachess" avx2 x86-64-v2
        refuse "$out/arch-x86-64-v3/bachess" bmi2,popcnt x86-64
        refuse "$out/arch-x86-64-v2/bachess" popcnt x86-64
    else
        echo "build-tests: this CPU lacks x86-64-v3: the refusals with pretended features are not checked"
    fi
    all=sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,fma,bmi,bmi2,avx512f,avx512bw
    BACHESS_CPU_PRETEND_MISSING=$all "$out/arch-x86-64/bachess" --version >/dev/null ||
        fail "ARCH=x86-64 refused a CPU with none of $all"
    if "$engine" --version | grep -q 'ARCH=native' && BACHESS_CPU_PRETEND_MISSING=$all "$engine" --version >/dev/null 2>&1; then
        echo "build-tests: note: the native build needs none of $all on this machine"
    fi
else
    echo "build-tests: not an x86-64 machine: the ARCH builds are skipped"
fi

# The profile-guided build (the default with gcc, docs/building.md): its
# instrumented engine's bench searched ENGINE's tree, and wrote the counts of
# the search's own file for the release objects to read.
pgo=$2/pgo-gen
if [ -f "$pgo/profile" ]; then
    pgo_nodes=$(grep -m1 ' nodes .* nps$' "$pgo/profile.log" | awk '{print $1}')
    if [ "$pgo_nodes" != "$ref_nodes" ]; then
        fail "PGO: the instrumented bench searched '$pgo_nodes' nodes, not $ref_nodes"
    elif [ ! -s "$pgo/src/search.gcda" ]; then
        fail "PGO: no counts for src/search.c in $pgo"
    else
        echo "build-tests: PGO: the instrumented bench searched the same $pgo_nodes nodes;" \
            "counts for $(find "$pgo" -name '*.gcda' | wc -l) files"
    fi
else
    echo "build-tests: $2 holds no profile-guided build (PGO=no, clang or another ARCH)"
fi

# EVALFILE: a copy of the default net, then a different one that is older.
# These builds and TUNE=1's are made with PGO=no: the profile-guided build
# is ENGINE, which every other suite runs, and profiling each build again
# here would double its time for nothing these checks look at.
dir=$out/evalfile
mkdir -p "$dir"
cp "$top/nets/default.nnue" "$dir/copy.nnue"
python3 -c "import sys; sys.path.insert(0, '$top/tests/conformance'); import harness; harness.eval_files('$dir')" ||
    fail "making the shifted network"
touch -d '2000-01-01' "$dir/shifted.nnue"
for net in copy shifted; do
    if ! (cd "$top" && $MAKE --no-print-directory -j2 PGO=no EXE="$dir/bachess" BUILD="$dir" EVALFILE="$dir/$net.nnue") >"$out/make-$net.log" 2>&1; then
        tail -20 "$out/make-$net.log"
        fail "make EVALFILE=$dir/$net.nnue failed"
        continue
    fi
    line=$(bench_line "$dir/bachess")
    netline=$("$dir/bachess" --version | sed -n 3p)
    echo "build-tests: EVALFILE=$net.nnue: $netline: $line"
    [ "$netline" = "net: $net.nnue (sha256 $(sha256sum "$dir/$net.nnue" | cut -c1-12))" ] ||
        fail "EVALFILE=$net.nnue: --version says '$netline'"
    if [ "$net" = copy ]; then
        [ "$(nodes_of "$line")" = "$ref_nodes" ] || fail "EVALFILE=copy.nnue: bench $(nodes_of "$line"), not $ref_nodes"
    else
        [ "$(nodes_of "$line")" != "$ref_nodes" ] || fail "EVALFILE=shifted.nnue: the same bench as the default net: not built in?"
    fi
done

# TUNE=1: the tuning build as the default build.
dir=$out/tune
if (cd "$top" && $MAKE --no-print-directory -j2 PGO=no TUNE=1 EXE="$dir/bachess" BUILD="$dir") >"$out/make-tune.log" 2>&1; then
    line=$(bench_line "$dir/bachess")
    echo "build-tests: TUNE=1: $line"
    [ "$(nodes_of "$line")" = "$ref_nodes" ] || fail "TUNE=1: bench $(nodes_of "$line"), not $ref_nodes"
    options=$(printf 'uci\nquit\n' | "$dir/bachess")
    params=$(python3 "$top/scripts/spsa.py" --openbench | cut -d, -f1)
    missing=$(for p in $params; do grep -q "^option name $p type spin " <<<"$options" || echo "$p"; done)
    [ -n "$params" ] && [ -z "$missing" ] || fail "TUNE=1: not UCI options: ${missing:-no parameters listed}"
    echo "build-tests: TUNE=1: $(wc -w <<<"$params") parameters offered as UCI options"
else
    tail -20 "$out/make-tune.log"
    fail "make TUNE=1 failed"
fi

# genfens, from the start position and from a book.
for book in None "$top/data/openings.epd"; do
    gen=$("$engine" "genfens 8 seed 42 book $book" quit)
    again=$("$engine" "genfens 8 seed 42 book $book" quit)
    [ "$gen" = "$again" ] || fail "genfens (book $book): another seed run, other openings"
    lines=$(grep -c '^info string genfens [^ ]* [wb] [-KQkqA-Ha-h]* [-a-h1-8]* [0-9]* [0-9]*$' <<<"$gen")
    [ "$lines" = 8 ] || fail "genfens (book $book): $lines good lines of 8: $gen"
    while read -r fen; do
        "$engine" perft 1 "$fen" >/dev/null 2>&1 || fail "genfens (book $book): perft refuses '$fen'"
    done < <(sed -n 's/^info string genfens //p' <<<"$gen")
    echo "build-tests: genfens (book $(basename "$book")): $(sed -n '1s/^info string genfens //p' <<<"$gen") …"
done

if [ "$failures" -gt 0 ]; then
    echo "build-tests: $failures check(s) failed; logs in $out"
    exit 1
fi
echo "build-tests: ok (ARCH builds give bench $ref_nodes and refuse CPUs they cannot run on; EVALFILE built in; TUNE=1 offers the parameters; genfens; bench in OpenBench's form)"
