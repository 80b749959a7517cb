# bachess — build, test and measure.
#
#   make            optimised engine (./bachess), native CPU features when available
#   make run        build and start the engine
#   make test       install test dependencies (Debian), then run every test
#   make engine     the engine alone (./bachess-engine): no web server, needs only libc,
#                   libm and pthreads (docs/building.md)
#   make check      the fast tier: unit tests, perft counts, bench signature (~3 min)
#   make release    one archive per platform in dist/, and dist/SHA256SUMS (docs/building.md)
#   make debug      engine with assertions and debug info (./bachess-debug): the board
#                   is checked after every make/unmake, every searched move for legality
#   make console-tests  console play driven in a pseudo-terminal
#   make memory-tests   Hash as resident memory; no leaks in whole games (valgrind, LeakSanitizer)
#   make conformance-uci  the UCI protocol scenarios (tests/conformance/uci_test.py)
#   make polyglot-match   two games under XBoard, bachess behind polyglot, vs fairymax
#   make conformance-cecp the XBoard protocol scenarios (tests/conformance/cecp_test.py)
#   make xboard-match     two games under XBoard, bachess speaking CECP, vs fairymax; analysis mode; two Chess960 games
#   make windows-xboard-match  10 games at 5+0.05 of bachess.exe under wine vs the Linux build,
#                   XBoard refereeing headless (docs/building.md)
#   make book-interop  opening books and PGN against polyglot and pgn-extract
#   make annotate-test  bachess annotate end to end: marks, lines, evaluations, pgn-extract, SIGINT
#   make perft-full the whole perft suite at its full depths
#   make bench-perft  perft speed side by side with Stockfish (a benchmark: prints the ratio)
#   make bench-annotate  bachess annotate timed, and its ?? marks against Stockfish's (a benchmark:
#                   prints; ANNOTATE_ARGS="--nodes 1000000", JUDGE_NODES=N, ANNOTATE_GAMES=FILE)
#   make script-tests  the measuring scripts (pgn-score.py, engine-speed.py, ...), no engine of ours run
#   make web-tests  bachess web: the server under bad and heavy use; the page in headless chromium
#   make lab        the game-tree lab: refresh the tables and plot in docs/results/lab.md (gnuplot)
#   make fuzz       every libFuzzer target (fuzz/) for FUZZ_SECONDS each (default 60)
#   make flake-hunt ROUNDS=N  the suites that can race, N times each beside stress-ng (docs/flakes.md)
#   make install    the engine, its man page and XBoard's engine file under PREFIX
#                   (default /usr/local; DESTDIR honoured); make uninstall removes them
#   make build-tests  the ARCH builds, the CPU check, EVALFILE and the bench's last line
#   make package-test the Debian package: built, lintian, installed, both protocols, XBoard
#
# Honours CC, EXE, CFLAGS, CPPFLAGS and LDFLAGS, e.g. `make CC=clang EXE=bachess-clang`, and
#   ARCH=x86-64 | x86-64-v2 | x86-64-v3 | native   the CPU to build for (default native;
#                   the binary refuses to start on a CPU without what it was built for);
#                   ARCH=aarch64 cross-builds for 64-bit ARM Linux (static, ./bachess-aarch64)
#   PLATFORM=windows  cross-builds bachess.exe with mingw-w64 (static; ARCH x86-64*)
#   WEB=no          leaves the web server (libmicrohttpd) out of ./bachess as well
#   EVALFILE=FILE   the NNUE network built in (default nets/default.nnue)

# The platform: Linux (the default) or Windows, cross-built with mingw-w64.
# ARCH=aarch64 cross-builds for 64-bit ARM Linux. Cross builds are static
# (a binary alone, for GUIs that copy it) and leave the web server out.
PLATFORM ?= linux
ifeq ($(filter $(PLATFORM),linux windows),)
  $(error PLATFORM must be linux or windows, not '$(PLATFORM)')
endif

# The CPU to build for. An ARCH from the environment that is not one of
# these (some shells export ARCH=amd64 or the like) is ignored.
ARCH_LIST := x86-64 x86-64-v2 x86-64-v3 native aarch64
ifeq ($(origin ARCH),command line)
  ifeq ($(filter $(ARCH),$(ARCH_LIST)),)
    $(error ARCH must be one of $(ARCH_LIST), not '$(ARCH)')
  endif
else ifeq ($(filter $(ARCH),$(ARCH_LIST)),)
  override ARCH := $(if $(filter windows,$(PLATFORM)),x86-64,native)
endif

CROSS := $(or $(filter aarch64,$(ARCH)),$(filter windows,$(PLATFORM)))
ifeq ($(ARCH),aarch64)
  CC_CROSS := aarch64-linux-gnu-gcc
  EXE_CROSS := bachess-aarch64
else ifeq ($(PLATFORM),windows)
  CC_CROSS := x86_64-w64-mingw32-gcc-posix
  EXE_CROSS := bachess.exe
endif
ifneq ($(CROSS),)
  ifneq ($(filter default undefined,$(origin CC)),)
    CC := $(CC_CROSS)
  endif
  EXE ?= $(EXE_CROSS)
  BUILD ?= build/$(PLATFORM)-$(ARCH)
  WEB := no
  STATIC := -static
endif
# mingw-w64 declares localtime_r and the like on this condition.
PLATFORM_FLAGS := $(if $(filter windows,$(PLATFORM)),-D_POSIX_THREAD_SAFE_FUNCTIONS)

CC      ?= cc
EXE     ?= bachess
BUILD   ?= build
# The web server where libmicrohttpd is (Debian's libmicrohttpd-dev).
ifeq ($(origin WEB),undefined)
  WEB := $(if $(shell echo '\#include <microhttpd.h>' | $(CC) -E -x c - >/dev/null 2>&1 && echo y),yes,no)
endif
FUZZ_SECONDS ?= 60
# The engine as a command, whether EXE is a path or a name here.
RUN_EXE := $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))

# The version: the first entry of debian/changelog, the one place it is kept.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null)
VERSION := $(or $(VERSION),unknown)

NATIVE  := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
BASELINE := $(shell $(CC) -march=x86-64 -E -x c /dev/null >/dev/null 2>&1 && echo -march=x86-64 -mtune=generic)
ARCH_FLAGS := $(if $(filter native,$(ARCH)),$(NATIVE),$(if $(filter aarch64,$(ARCH)),-march=armv8-a,-march=$(ARCH) -mtune=generic))

# TUNE=1 makes the optimised build a tuning build (as `make tuning`: the
# search parameters of src/search_params.h as UCI options), for OpenBench's
# SPSA, which builds with a plain `make EXE=…`: a branch to tune sets it here.
TUNE ?=
TUNE_FLAGS := $(if $(filter 1,$(TUNE)),-DSEARCH_TUNING)

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# -ffile-prefix-map: reproducible binaries, with no build directory in them.
CFLAGS_COMMON := -std=gnu11 $(WARN) -pthread -Isrc -Isrc/syzygy/fathom -ffile-prefix-map=$(CURDIR)/= $(PLATFORM_FLAGS)

# ---- configurations ------------------------------------------------------
# Each configuration compiles every source its own way into $(BUILD)/NAME/.
CONFIGS := release tuning debug sanitize tsan
CFLAGS_release  := $(CFLAGS_COMMON) -O3 -DNDEBUG -flto=auto $(ARCH_FLAGS) $(TUNE_FLAGS) $(CPPFLAGS) $(CFLAGS)
# A tuning build: the search parameters (src/search_params.h) as UCI options, for scripts/spsa.py.
CFLAGS_tuning   := $(CFLAGS_release) -DSEARCH_TUNING
CFLAGS_debug    := $(CFLAGS_COMMON) -O1 -g
CFLAGS_sanitize := $(CFLAGS_COMMON) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $(NATIVE)
CFLAGS_tsan     := $(CFLAGS_COMMON) -O1 -g -fsanitize=thread
# What each says of itself in `bachess --version`.
ARCH_NAME_release  := $(ARCH)
ARCH_NAME_tuning   := $(ARCH)
ARCH_NAME_debug    := compiler default (debug build)
ARCH_NAME_sanitize := native (sanitize build)
ARCH_NAME_tsan     := compiler default (tsan build)

# The core is flat in src/; self-contained families have folders
# (docs/source-map.md). Fathom (src/syzygy/fathom/SOURCE.md) is one unit:
# tbprobe.c includes tbchess.c. The web server needs libmicrohttpd; builds
# without it link src/web/absent/ in its place.
CORE_SOURCES := $(filter-out src/web/%,$(wildcard src/*.c src/*/*.c)) src/syzygy/fathom/tbprobe.c
WEB_SOURCES  := $(wildcard src/web/*.c)
ENGINE_SOURCES := $(CORE_SOURCES) src/web/absent/web_absent.c
SOURCES := $(if $(filter yes,$(WEB)),$(CORE_SOURCES) $(WEB_SOURCES),$(ENGINE_SOURCES))
LIB_SOURCES := $(filter-out src/main.c,$(SOURCES))
TEST_SOURCES := $(wildcard tests/test_*.c)
ENGINE_LIBS := -lm -pthread
LDLIBS  := $(ENGINE_LIBS) $(if $(filter yes,$(WEB)),-lmicrohttpd)

objects = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))

.PHONY: all run engine check release debug tuning install uninstall build-tests package-test FORCE test build-deps test-deps deps-check syzygy-test unit-tests debug-tests sanitize-tests nnue-train-test selfplay-store-test net web-tests script-tests tsan-tests book-interop annotate-test conformance-uci polyglot-match conformance-cecp xboard-match console-tests memory-tests perft-full perft-speed bench-check fuzz fuzz-short lab clean

all: $(EXE)

# The built-in NNUE network is assembled into its object (.incbin,
# src/incbin.h). EVALFILE (OpenBench's name) chooses the file; $(BUILD)/net
# holds the last path and checksum built in, so that another EVALFILE, even
# an older file, rebuilds the object.
EVALFILE ?=
NET := $(or $(EVALFILE),nets/default.nnue)
NET_SHA256 := $(shell sha256sum '$(NET)' 2>/dev/null | cut -c1-12)
NET_DEFS := -DBACHESS_NET_FILE='"$(abspath $(NET))"' -DBACHESS_NET_NAME='"$(notdir $(NET))"' -DBACHESS_NET_SHA256='"$(NET_SHA256)"'
# The page of `bachess web` (src/web/assets/, built from webpage/src/ by
# webpage/build.sh; web-tests checks that it is) and the book
# (src/games/book_default.bin) go in the same way.
WEB_ASSETS := $(shell find src/web/assets -type f 2>/dev/null)

# A file that changes only when its text does: what depends on it is
# rebuilt when flags, the version or the net change, and only then.
stamp = @mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
$(BUILD)/version: FORCE
	$(call stamp,$(VERSION))
$(BUILD)/net: FORCE
	@test -f '$(NET)' || { echo 'EVALFILE: no file $(NET)'; exit 1; }
	$(call stamp,$(abspath $(NET)) $(NET_SHA256))
FORCE:

# One pattern rule per configuration; -MMD -MP writes each object's headers
# beside it (.d), read below. The objects whose data is assembled in, or
# that must run on any CPU, go outside LTO: LTO's link-time assembly would
# lose top-level asm, and would give the CPU check the build's -march.
define CONFIGURATION
$(BUILD)/$(1)/flags: FORCE
	$$(call stamp,$$(CC) $$(CFLAGS_$(1)))
$(BUILD)/$(1)/%.o: %.c $(BUILD)/$(1)/flags
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_$(1)) $$(OBJECT_FLAGS) -MMD -MP -c $$< -o $$@
$(BUILD)/$(1)/src/build_info.o: $(BUILD)/version
$(BUILD)/$(1)/src/build_info.o: OBJECT_FLAGS = -DBACHESS_VERSION='"$(VERSION)"' -DBACHESS_ARCH='"$(ARCH_NAME_$(1))"'
$(BUILD)/$(1)/src/cpu_check.o: OBJECT_FLAGS = -fno-lto $(BASELINE)
$(BUILD)/$(1)/src/nnue/default_net.o: $(NET) $(BUILD)/net
$(BUILD)/$(1)/src/nnue/default_net.o: OBJECT_FLAGS = -fno-lto $(NET_DEFS)
$(BUILD)/$(1)/src/web/web_assets.o: $(WEB_ASSETS)
$(BUILD)/$(1)/src/web/web_assets.o: OBJECT_FLAGS = -fno-lto
$(BUILD)/$(1)/src/games/book_default.o: src/games/book_default.bin
$(BUILD)/$(1)/src/games/book_default.o: OBJECT_FLAGS = -fno-lto
# Fathom's own code, unchanged, is held to its own warnings.
$(BUILD)/$(1)/src/syzygy/fathom/tbprobe.o: OBJECT_FLAGS = -Wno-missing-prototypes -Wno-sign-compare
$(BUILD)/$(1)/unit-tests: $(call objects,$(1),$(LIB_SOURCES) $(TEST_SOURCES))
	$$(call link,$(1),-lcriterion)
endef
$(foreach c,$(CONFIGS),$(eval $(call CONFIGURATION,$(c))))
ALL_SOURCES := $(CORE_SOURCES) $(WEB_SOURCES) src/web/absent/web_absent.c $(TEST_SOURCES) tests/cross/runner.c
-include $(wildcard $(foreach c,$(CONFIGS),$(patsubst %.c,$(BUILD)/$(c)/%.d,$(ALL_SOURCES))))

# ---- programs ------------------------------------------------------------
# link CONFIGURATION: its objects (the prerequisites) into the target.
link = $(CC) $(CFLAGS_$(1)) $(LDFLAGS) $(STATIC) $(filter %.o,$^) -o $@ $(LDLIBS) $(2)

$(EXE): $(call objects,release,$(SOURCES))
	$(call link,release)

# The engine alone: UCI, XBoard, the console and the sub-commands, with
# libc, libm and pthreads only (`bachess web` says it is not there).
bachess-engine: $(call objects,release,$(ENGINE_SOURCES))
	$(CC) $(CFLAGS_release) $(LDFLAGS) $(STATIC) $^ -o $@ $(ENGINE_LIBS)
engine: bachess-engine

bachess-tuning: $(call objects,tuning,$(SOURCES))
	$(call link,tuning)
tuning: bachess-tuning

bachess-debug: $(call objects,debug,$(SOURCES))
	$(call link,debug)
debug: bachess-debug

# The same for valgrind, which knows no AVX-512 (hence no -march=native).
$(BUILD)/bachess-debug: $(call objects,debug,$(SOURCES))
	$(call link,debug)
$(BUILD)/bachess-sanitize: $(call objects,sanitize,$(SOURCES))
	$(call link,sanitize)
$(BUILD)/bachess-tsan: $(call objects,tsan,$(SOURCES))
	$(call link,tsan)

# The cross builds' tests (tests/cross/): the evaluator's and the perft
# tests, against a stand-in for Criterion, which Debian has only natively.
CROSS_TEST_SOURCES := tests/test_nnue.c tests/test_nnue_king_buckets.c tests/test_nnue_support.c tests/test_perft.c tests/test_support.c tests/cross/runner.c
ifneq ($(CROSS),)
$(BUILD)/release/tests/%.o: OBJECT_FLAGS = -Itests/cross
endif
$(BUILD)/release/cross-tests: $(call objects,release,$(LIB_SOURCES) $(CROSS_TEST_SOURCES))
	$(call link,release)

# ---- installing ----------------------------------------------------------
# The engine (its network and book are built in), the manual page and the
# engine file by which XBoard lists it (plugin spec 0.0: the command, then
# the games it plays). The Debian package: PREFIX=/usr BINDIR=/usr/games.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
ENGDIR  ?= $(DATADIR)/games/plugins/xboard
install: $(EXE)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man6' '$(DESTDIR)$(ENGDIR)'
	install -m 755 '$(EXE)' '$(DESTDIR)$(BINDIR)/bachess'
	sed 's/@VERSION@/$(VERSION)/' man/bachess.6 > '$(DESTDIR)$(MANDIR)/man6/bachess.6'
	chmod 644 '$(DESTDIR)$(MANDIR)/man6/bachess.6'
	printf 'plugin spec 0.0\n%s\nchess,chess960\n' '$(BINDIR)/bachess' > '$(DESTDIR)$(ENGDIR)/bachess.eng'
	chmod 644 '$(DESTDIR)$(ENGDIR)/bachess.eng'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/bachess' '$(DESTDIR)$(MANDIR)/man6/bachess.6' '$(DESTDIR)$(ENGDIR)/bachess.eng'

run: build-deps
	$(MAKE) --no-print-directory $(EXE)
	$(RUN_EXE)

debug: bachess-debug

# ---- tests ---------------------------------------------------------------
# The Python suites run under Debian's pytest (tests/conftest.py says what
# they take from the environment); no bytecode is written into the tree.
PYTEST := PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest

build-deps:
	@scripts/install-build-deps.sh

test-deps: build-deps
	@scripts/install-test-deps.sh

# `make test` runs its suites in two lanes side by side (the machine's two
# cores; TEST_JOBS=1 runs them one after another): the Criterion suites,
# the builds, the web page and the short suites in one, the protocols, GUIs,
# package and cross builds in the other. Suites that can collide stay in
# one lane: everything under xvfb-run (`-a` picks a free display without a
# lock, so two at once can take the same one), and cross-tests before the
# Windows match, both building bachess.exe and using its wine prefix. The
# binaries the suites share are built first (in parallel), so that no two
# lanes compile into the same directory. Each suite's output
# is printed whole when it ends, with its wall time ("make test: SUITE
# passed in N s"), so that where the time goes can be read from any run's
# log. The optimised build runs everything at full test depth; the sanitizer
# build runs the same tests once more with lighter perft depths.
TEST_JOBS ?= 2
TEST_LANE_BUILDS := deps-check unit-tests debug-tests sanitize-tests build-tests fuzz-short tsan-tests \
	book-interop annotate-test console-tests memory-tests perft-counts bench-check nnue-train-test \
	selfplay-store-test syzygy-test web-tests script-tests
TEST_LANE_PROTOCOLS := conformance-uci polyglot-match conformance-cecp xboard-match package-test \
	cross-tests windows-xboard-match
TEST_SUITES := $(TEST_LANE_BUILDS) $(TEST_LANE_PROTOCOLS)
TEST_BINARIES := $(EXE) $(BUILD)/release/unit-tests $(BUILD)/debug/unit-tests $(BUILD)/sanitize/unit-tests \
	$(BUILD)/bachess-sanitize $(BUILD)/bachess-debug $(BUILD)/bachess-tsan
timed = @t0=$$(date +%s); $(MAKE) --no-print-directory $(1) && echo "make test: $(1) passed in $$(($$(date +%s) - t0)) s"

test: test-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(TEST_BINARIES)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(addprefix test-suite-,$(TEST_SUITES))

# One target a suite (a static pattern: make looks for no implicit rule of a
# phony target); each waits for the suite before it in its lane.
$(addprefix test-suite-,$(TEST_SUITES)): test-suite-%:
	$(call timed,$*)
lane-order = $(if $(word 2,$(1)),$(eval test-suite-$(word 2,$(1)): | test-suite-$(firstword $(1)))$(call lane-order,$(wordlist 2,$(words $(1)),$(1))))
$(call lane-order,$(TEST_LANE_BUILDS))
$(call lane-order,$(TEST_LANE_PROTOCOLS))
.PHONY: $(addprefix test-suite-,$(TEST_SUITES))

# The fast tier: the unit tests, the perft counts and the bench signature.
check:
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory perft-counts
	$(MAKE) --no-print-directory bench-check

unit-tests: $(EXE) $(BUILD)/release/unit-tests
	BACHESS_DATA=data $(BUILD)/release/unit-tests --jobs 2

# The unit tests once more on the debug build, whose assertions check the
# board after every make/unmake, the legality of every move searched and
# the pairing of the evaluation's push/pop hooks (lighter perft depths).
debug-tests: $(BUILD)/debug/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/debug/unit-tests --jobs 2

# The include layers and no include circles (docs/source-map.md); every
# reference in comments and docs resolves (scripts/check-references.py).
deps-check: $(EXE)
	scripts/check-deps.sh
	scripts/check-references.py

# Syzygy tables (data/syzygy) through Fathom: 1,000 positions against
# Debian's fathom CLI, the options and commands of both protocols, bad paths;
# then three endgames played out against Stockfish (tests/tb_conversion_test.py).
syzygy-test: $(EXE)
	BACHESS=$(RUN_EXE) SYZYGY_POSITIONS=1000 $(PYTEST) tests/syzygy_test.py tests/tb_conversion_test.py

# The measuring scripts whose figures the docs quote: scripts/pgn-score.py.
# The checks of the tree fail on planted defects: an include circle, a
# dangling reference.
script-tests:
	$(PYTEST) tests/pgn_score_test.py tests/annotate_judge_test.py tests/time_iterations_test.py \
		tests/engine_speed_test.py tests/check_references_test.py
	tests/check_deps_test.sh

# Threaded search under ThreadSanitizer: stop/ponderhit/isready races.
tsan-tests: $(BUILD)/bachess-tsan
	tests/tsan_races.sh $(BUILD)/bachess-tsan

sanitize-tests: $(BUILD)/sanitize/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/sanitize/unit-tests --jobs 2

# Console play driven in a pseudo-terminal, with the optimised and the
# sanitizer build; the PGN it writes is checked with pgn-extract.
console-tests: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/console_test.py
	BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/console_test.py

# `bachess web`: the server under bad and heavy use (tests/web_server_test.py),
# optimised and with the sanitizers; the page in headless chromium
# (tests/web_browser_test.mjs), with a screenshot in $(BUILD)/web.png (docs/web.png is one).
web-tests: $(EXE) $(BUILD)/bachess-sanitize
	webpage/check-build.sh
	BACHESS=$(RUN_EXE) $(PYTEST) tests/web_server_test.py
	ASAN_OPTIONS=quarantine_size_mb=8 BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/web_server_test.py
	node tests/web_browser_test.mjs $(RUN_EXE) $(BUILD)/web.png

# Memory (tests/memory_test.py): Hash N costs N MiB of resident memory, up
# and down, with the optimised build; whole games over UCI and CECP leak
# nothing, under LeakSanitizer and under valgrind (the debug build: valgrind
# cannot run -march=native code on AVX-512 machines).
memory-tests: $(EXE) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug
	BACHESS=$(RUN_EXE) BACHESS_SANITIZE=$(BUILD)/bachess-sanitize BACHESS_DEBUG=$(BUILD)/bachess-debug \
		$(PYTEST) tests/memory_test.py

# UCI conformance (start-up, the UCI scenarios, bad input), legality judged by stockfish.
conformance-uci: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/conformance/uci_test.py
	BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/conformance/uci_test.py

# XBoard protocol conformance (start-up, the CECP scenarios, bad input), legality
# judged by stockfish; the sanitizer build runs the scenarios with searches,
# races and bad input again.
conformance-cecp: $(EXE) $(BUILD)/bachess-sanitize
	BACHESS=$(RUN_EXE) $(PYTEST) tests/conformance/cecp_test.py
	CECP_ONLY=04,05,11,13,17,18,19,22,24,25 BACHESS=$(BUILD)/bachess-sanitize $(PYTEST) tests/conformance/cecp_test.py

# Two games under XBoard (headless) with bachess speaking CECP vs fairymax,
# then XBoard's analysis mode.
xboard-match: $(EXE)
	scripts/xboard-match.sh $(RUN_EXE) 2
	XB_VARIANT=fischerandom XB_ANALYSIS=0 XB_OPPONENT=$(abspath $(EXE)) scripts/xboard-match.sh $(RUN_EXE) 2

# The Debian package (tests/package_test.sh): built in a copy under /tmp,
# lintian without errors, installed with dpkg -i, /usr/games/bachess answering
# UCI and XBoard with a depth-5 search in each, a game under XBoard started
# with `-fcp bachess` against fairymax; then removed again.
package-test:
	tests/package_test.sh

# Two games under XBoard (headless) with bachess behind polyglot vs fairymax.
polyglot-match: $(EXE)
	scripts/polyglot-match.sh $(RUN_EXE) 2

# Polyglot books and PGN against Debian's polyglot and pgn-extract (same
# book as make-book, both read each other's, pgn-extract accepts our PGN).
book-interop: $(EXE)
	tests/book_interop.sh $(RUN_EXE) data

# `bachess annotate` end to end (tests/annotate_test.py): a hung queen and a
# missed mate marked ??, the better line, an [%eval] on every move, an
# unreadable game passed over, pgn-extract reading the output, the same
# output with two workers, SIGINT keeping whole games. Node-limited searches.
annotate-test: $(EXE)
	BACHESS=$(RUN_EXE) DATA=data $(PYTEST) tests/annotate_test.py

perft-full: $(EXE)
	scripts/perft-suite.sh $(RUN_EXE) data/perft.epd full

# perft node counts of the command line against Stockfish's (start position
# to depth 6, Kiwipete to depth 5); part of make test. Not timed.
perft-counts: $(EXE)
	scripts/perft-speed.sh --counts $(RUN_EXE)

# A benchmark, not a test: perft speed against Stockfish's, best of 5; prints
# the ratio and fails only if the node counts disagree (perft-speed: old name).
bench-perft perft-speed: $(EXE)
	RUNS=5 scripts/perft-speed.sh $(RUN_EXE)

# A benchmark, not a test: bachess annotate on games with real mistakes, timed,
# then its ?? marks against Stockfish's at JUDGE_NODES a position by the same
# rule (docs/annotate.md, "Benchmarks"). The judge's searches are cached under
# build/, so only the first run pays for them (about 3 h of one core at 1 M nodes a position).
ANNOTATE_GAMES ?= data/annotate/blunder-games.pgn
ANNOTATE_ARGS ?= --movetime 100 --threads 2
JUDGE_NODES ?= 1000000
JUDGE_GAMES ?= 0
JUDGE_JOBS ?= 2
bench-annotate: $(EXE)
	python3 scripts/annotate-judge.py $(ANNOTATE_GAMES) --bachess $(RUN_EXE) \
		--annotate-args "$(ANNOTATE_ARGS)" --out $(BUILD)/annotate-bench.pgn \
		--judge-nodes $(JUDGE_NODES) --judge-games $(JUDGE_GAMES) --jobs $(JUDGE_JOBS) \
		--cache $(BUILD)/annotate-judge-cache.jsonl
.PHONY: perft-counts bench-perft bench-annotate flake-hunt cross-tests windows-match windows-xboard-match release-test

# The NNUE pipeline on a tiny data set: datagen, training (Debian's PyTorch,
# /usr/bin/python3), export, and the engine's evaluation equal to Python's.
nnue-train-test: $(EXE)
	BACHESS=$(RUN_EXE) $(PYTEST) tests/nnue_train_test.py

# The built-in net trained again from the self-play store by its recipe
# (nets/default.recipe) and compared with nets/default.nnue byte for byte
# (scripts/nnue/make-net.sh). Not part of `make test`: it trains a full net.
net: $(EXE)
	scripts/nnue/make-net.sh

# The self-play store (data/selfplay): every chunk against its manifest,
# every game replayed; planted defects found; datagen -> store -> trainer
# gives datagen's own records; a small net trained twice is the same bytes.
selfplay-store-test: $(EXE)
	BACHESS=$(RUN_EXE) $(PYTEST) tests/selfplay_store_test.py

# The bench node count must equal the last "Bench: N" stated in git history.
bench-check: $(EXE)
	scripts/check-bench.sh $(RUN_EXE)

# The ARCH builds (same bench, ARCH in --version, the CPU check), EVALFILE
# and the bench's last line in OpenBench's form (tests/build_test.sh); the
# builds go to $(BUILD)/build-tests; then the header dependencies
# (tests/make_deps_test.sh, in $(BUILD)/make-deps).
build-tests: $(EXE)
	tests/build_test.sh $(RUN_EXE) $(BUILD)
	tests/make_deps_test.sh $(BUILD)

# The cross builds under emulation (docs/building.md): bachess.exe
# (x86-64-v3) under wine (tests/windows_test.py), bachess-aarch64 and the
# evaluator's and perft tests under qemu-aarch64 (tests/aarch64_test.sh).
# Each build is made by a make of its own, told every variable that a
# command line could otherwise pass down to it.
CROSS_DIR := $(BUILD)/cross
WINDOWS_EXE := $(CROSS_DIR)/windows/bachess.exe
AARCH64_EXE := $(CROSS_DIR)/aarch64/bachess-aarch64
cross-build = $(MAKE) --no-print-directory CC=$(1) BUILD=$(patsubst %/,%,$(dir $(2))) EXE=$(2) $(3) $(2) $(4)
# bachess.exe as the cross tests and both Windows matches use it.
windows-exe = $(call cross-build,x86_64-w64-mingw32-gcc-posix,$(WINDOWS_EXE),PLATFORM=windows ARCH=x86-64-v3)
cross-tests: $(EXE)
	$(windows-exe)
	BACHESS_EXE=$(WINDOWS_EXE) BACHESS=$(RUN_EXE) WINDOWS_WORK=$(CROSS_DIR)/windows $(PYTEST) tests/windows_test.py
	$(call cross-build,aarch64-linux-gnu-gcc,$(AARCH64_EXE),ARCH=aarch64,$(CROSS_DIR)/aarch64/release/cross-tests)
	tests/aarch64_test.sh $(AARCH64_EXE) $(CROSS_DIR)/aarch64/release/cross-tests $(RUN_EXE) $(CROSS_DIR)/aarch64

# A match of bachess.exe (x86-64-v3) under wine against the Linux build,
# 10 games at 5+0.05, refereed by a GUI that Debian packages: XBoard,
# headless (scripts/xboard-match.sh; with XB_FIRST_WRAPPER=wine XBoard
# starts `wine ./bachess.exe`), then bachess.exe in XBoard's analysis mode
# (docs/building.md). Fails on a crash, a time loss by bachess's own clock,
# an illegal move or an error line of either engine. The wine prefix is
# tests/windows_test.py's, made or brought up to date first as that script
# does (without Mono and Gecko, whose installers would wait under xvfb for
# an answer); the logs go to $(CROSS_DIR)/windows/xboard-match.
# Pondering is off (XB_PONDER=true turns it on). With both engines
# pondering on 2 cores beside stress-ng --cpu 2, bachess.exe lost a game on
# time by its own clock, 76 ms used of the 50 ms it had: under wine, calling
# off the ponder search and starting the next (thread joins, starts and
# wake-ups, each through wineserver) made a move played at once cost more
# than the 0.05 s increment, and the clock sank. Lines from XBoard reached
# it up to 221 ms later than the fastest with pondering (no stress), 10 ms
# at most without (35 ms beside stress-ng). Pondering under XBoard is
# tested natively by xboard-match.
WINE_ENV = WINEPREFIX=$(abspath $(CROSS_DIR)/windows/wine) WINEDEBUG=-all
windows-xboard-match: $(EXE)
	$(windows-exe)
	$(WINE_ENV) WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init && $(WINE_ENV) wineserver --wait
	$(WINE_ENV) XB_FIRST_WRAPPER=wine XB_OPPONENT=$(abspath $(EXE)) XB_TC=0:05 XB_INC=0.05 XB_PONDER=$${XB_PONDER:-false} \
		scripts/xboard-match.sh $(WINDOWS_EXE) 10 $(CROSS_DIR)/windows/xboard-match

# The same match through fastchess, a developer's tool: no Debian package
# has fastchess (scripts/match.sh: FASTCHESS, built by hand outside the
# repository), so neither `make test` nor CI can run it; fails on a crash,
# a time loss or an illegal move (152 s measured, docs/building.md).
windows-match: $(EXE)
	$(windows-exe)
	BACHESS_EXE=$(WINDOWS_EXE) BACHESS=$(RUN_EXE) WINDOWS_WORK=$(CROSS_DIR)/windows $(PYTEST) tests/windows_test.py >/dev/null
	WINEPREFIX=$(abspath $(CROSS_DIR)/windows/wine) WINEDEBUG=-all scripts/match.sh --runner fastchess \
		--pgn $(abspath $(CROSS_DIR)/windows/match.pgn) --name bachess.exe \
		"wine $(abspath $(WINDOWS_EXE))" bachess:$(abspath $(EXE)) 10 5+0.05

# The release archives (scripts/release.sh): dist/, one a build, and
# dist/SHA256SUMS. release-test makes them twice and compares the bytes.
release:
	scripts/release.sh dist
release-test:
	scripts/release.sh $(BUILD)/release-a
	BUILD_DIR=$(BUILD)/dist-b scripts/release.sh $(BUILD)/release-b
	cmp $(BUILD)/release-a/SHA256SUMS $(BUILD)/release-b/SHA256SUMS && echo "release: the same bytes twice"

# libFuzzer targets for every input path (FEN, moves, PGN, books, UCI, CECP,
# EPD; clang): each runs FUZZ_SECONDS, seeded from data/ and fuzz/seeds/,
# corpora and artifacts in $(BUILD)/fuzz. fuzz-short, part of `make test`:
# 6 s each from the seeds alone, two at a time.
fuzz:
	BUILD=$(BUILD) scripts/fuzz.sh all $(FUZZ_SECONDS)

fuzz-short:
	BUILD=$(BUILD) FUZZ_JOBS=2 FUZZ_FRESH=1 scripts/fuzz.sh all 6

# The flake hunt (docs/flakes.md): the suites with threads, pipes, clocks or
# sockets in them, ROUNDS times each while stress-ng keeps every core busy;
# a table of suite, rounds and failures, each failure's log kept in
# $(BUILD)/flake-hunt. Not part of `make test` (about 20 minutes a round).
ROUNDS ?= 10
flake-hunt:
	BUILD=$(BUILD) EXE=$(EXE) scripts/flake-hunt.sh $(ROUNDS) $(FLAKE_SUITES)

# The reliability match: 4 x STRESS_GAMES very fast games over UCI
# (cutechess-cli, built outside the repo) and CECP (XBoard headless), against
# fairymax and a second bachess; fails on any crash, illegal move, time
# loss or false claim of bachess. Not part of `make test` (about half an hour).
STRESS_GAMES ?= 250
stress: $(EXE)
	scripts/stress.sh $(RUN_EXE) $(STRESS_GAMES) 1+0.01

# The game-tree lab (docs/lab.md): tables, data and the SVG plot in docs/results/, regenerated.
lab: $(EXE)
	scripts/lab-plot.sh $(RUN_EXE) docs/results

clean:
	rm -rf $(BUILD) $(EXE) bachess-debug bachess-tuning bachess-engine bachess-aarch64 bachess.exe
