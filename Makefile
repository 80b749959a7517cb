# bachess — build, test and measure.
#
#   make            optimised engine (./bachess), native CPU features when available
#   make run        build and start the engine
#   make test       install test dependencies (Debian), then run every test
#   make debug      engine with assertions and debug info (./bachess-debug): the board
#                   is checked after every make/unmake, every searched move for legality
#   make console-tests  console play driven in a pseudo-terminal
#   make memory-tests   Hash as resident memory; no leaks in whole games (valgrind, LeakSanitizer)
#   make conformance-uci  the UCI protocol scenarios (tests/conformance/uci_test.py)
#   make polyglot-match   two games under XBoard, bachess behind polyglot, vs fairymax
#   make conformance-cecp the XBoard protocol scenarios (tests/conformance/cecp_test.py)
#   make xboard-match     two games under XBoard, bachess speaking CECP, vs fairymax; analysis mode; two Chess960 games
#   make book-interop  opening books and PGN against polyglot and pgn-extract
#   make annotate-test  bachess annotate end to end: marks, lines, evaluations, pgn-extract, SIGINT
#   make perft-full the whole perft suite at its full depths
#   make perft-speed  perft speed side by side with Stockfish
#   make web-tests  bachess web: the server under bad and heavy use; the page in headless chromium
#   make lab        the game-tree lab: refresh the tables and plot in docs/lab.md (gnuplot)
#   make fuzz       every libFuzzer target (fuzz/) for FUZZ_SECONDS each (default 60)
#
# Honours CC and EXE, e.g. `make CC=clang EXE=bachess-clang`.

CC      ?= cc
EXE     ?= bachess
BUILD   ?= build
FUZZ_SECONDS ?= 60

NATIVE  := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_COMMON := -std=gnu11 $(WARN) -pthread -Isrc
RELEASE_CFLAGS := $(CFLAGS_COMMON) -O3 -DNDEBUG -flto=auto $(NATIVE)
DEBUG_CFLAGS   := $(CFLAGS_COMMON) -O1 -g
SANITIZE_CFLAGS := $(CFLAGS_COMMON) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $(NATIVE)
TSAN_CFLAGS := $(CFLAGS_COMMON) -O1 -g -fsanitize=thread
LDLIBS  := -lm -pthread -lfathom -lmicrohttpd

# The core is flat in src/; self-contained families have folders (README: source map).
SOURCES := $(wildcard src/*.c src/*/*.c)
LIB_SOURCES := $(filter-out src/main.c,$(SOURCES))
TEST_SOURCES := $(wildcard tests/test_*.c)
HEADERS := $(wildcard src/*.h src/*/*.h) $(wildcard tests/*.h)

.PHONY: all run debug tuning test build-deps test-deps deps-check syzygy-test unit-tests debug-tests sanitize-tests nnue-train-test web-tests tsan-tests book-interop annotate-test conformance-uci polyglot-match conformance-cecp xboard-match console-tests memory-tests perft-full perft-speed bench-check fuzz fuzz-short lab clean

all: $(EXE)

# ---- objects per configuration -------------------------------------------
$(BUILD)/release/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(RELEASE_CFLAGS) -c $< -o $@
$(BUILD)/debug/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(DEBUG_CFLAGS) -c $< -o $@
$(BUILD)/sanitize/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE_CFLAGS) -c $< -o $@
$(BUILD)/tsan/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TSAN_CFLAGS) -c $< -o $@
$(BUILD)/release/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(RELEASE_CFLAGS) -c $< -o $@
$(BUILD)/debug/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(DEBUG_CFLAGS) -c $< -o $@
$(BUILD)/sanitize/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE_CFLAGS) -c $< -o $@

# The built-in NNUE network is assembled into this object (.incbin). Not
# through LTO: its link-time assembly would lose the top-level asm's data.
NET := nets/default.nnue
$(foreach c,release debug sanitize tsan tuning,$(BUILD)/$(c)/nnue/default_net.o): $(NET)
$(BUILD)/release/nnue/default_net.o: RELEASE_CFLAGS += -fno-lto
$(BUILD)/tuning/nnue/default_net.o: TUNING_CFLAGS += -fno-lto
# The page of `bachess web` (src/web/assets/, built from web/ by `npm run
# build` there) goes in the same way.
WEB_ASSETS := $(shell find src/web/assets -type f 2>/dev/null)
$(foreach c,release debug sanitize tsan tuning,$(BUILD)/$(c)/web/web_assets.o): $(WEB_ASSETS)
$(BUILD)/release/web/web_assets.o: RELEASE_CFLAGS += -fno-lto
$(BUILD)/tuning/web/web_assets.o: TUNING_CFLAGS += -fno-lto

objects = $(patsubst src/%.c,$(BUILD)/$(1)/%.o,$(2))
test_objects = $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_SOURCES))

# ---- programs ------------------------------------------------------------
$(EXE): $(call objects,release,$(SOURCES))
	$(CC) $(RELEASE_CFLAGS) $^ -o $@ $(LDLIBS)

# A tuning build: the search parameters (src/search_params.h) as UCI options,
# for scripts/spsa.py.
TUNING_CFLAGS := $(RELEASE_CFLAGS) -DSEARCH_TUNING
$(BUILD)/tuning/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(TUNING_CFLAGS) -c $< -o $@
bachess-tuning: $(call objects,tuning,$(SOURCES))
	$(CC) $(TUNING_CFLAGS) $^ -o $@ $(LDLIBS)
tuning: bachess-tuning

bachess-debug: $(call objects,debug,$(SOURCES))
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS)

# The same for valgrind, which knows no AVX-512 (hence no -march=native).
$(BUILD)/bachess-debug: $(call objects,debug,$(SOURCES))
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bachess-sanitize: $(call objects,sanitize,$(SOURCES))
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bachess-tsan: $(call objects,tsan,$(SOURCES))
	$(CC) $(TSAN_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/release/unit-tests: $(call objects,release,$(LIB_SOURCES)) $(call test_objects,release)
	$(CC) $(RELEASE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

$(BUILD)/debug/unit-tests: $(call objects,debug,$(LIB_SOURCES)) $(call test_objects,debug)
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

$(BUILD)/sanitize/unit-tests: $(call objects,sanitize,$(LIB_SOURCES)) $(call test_objects,sanitize)
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

run: build-deps
	$(MAKE) --no-print-directory $(EXE)
	./$(EXE)

debug: bachess-debug

# ---- tests ---------------------------------------------------------------
build-deps:
	@scripts/install-build-deps.sh

test-deps: build-deps
	@scripts/install-test-deps.sh

# The optimised build runs everything at full test depth; the sanitizer
# build runs the same tests once more with lighter perft depths.
test: test-deps
	$(MAKE) --no-print-directory deps-check
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory debug-tests
	$(MAKE) --no-print-directory sanitize-tests
	$(MAKE) --no-print-directory tsan-tests
	$(MAKE) --no-print-directory book-interop
	$(MAKE) --no-print-directory annotate-test
	$(MAKE) --no-print-directory conformance-uci
	$(MAKE) --no-print-directory polyglot-match
	$(MAKE) --no-print-directory conformance-cecp
	$(MAKE) --no-print-directory xboard-match
	$(MAKE) --no-print-directory console-tests
	$(MAKE) --no-print-directory memory-tests
	$(MAKE) --no-print-directory perft-speed
	$(MAKE) --no-print-directory bench-check
	$(MAKE) --no-print-directory nnue-train-test
	$(MAKE) --no-print-directory syzygy-test
	$(MAKE) --no-print-directory web-tests
	$(MAKE) --no-print-directory fuzz-short

unit-tests: $(EXE) $(BUILD)/release/unit-tests
	BACHESS_DATA=data $(BUILD)/release/unit-tests --jobs 2

# The unit tests once more on the debug build, whose assertions check the
# board after every make/unmake, the legality of every move searched and
# the pairing of the evaluation's push/pop hooks (lighter perft depths).
debug-tests: $(BUILD)/debug/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/debug/unit-tests --jobs 2

# The include layers (README: source map).
deps-check: $(EXE)
	scripts/check-deps.sh
	scripts/check-symbols.sh $(BUILD)/release

# Syzygy tables (data/syzygy) through Fathom: 1,000 positions against
# Debian's fathom CLI, the options and commands of both protocols, bad paths;
# then three endgames played out against Stockfish (tests/tb_conversion_test.py).
syzygy-test: $(EXE)
	python3 tests/syzygy_test.py ./$(EXE) 1000
	python3 tests/tb_conversion_test.py ./$(EXE)

# Threaded search under ThreadSanitizer: stop/ponderhit/isready races.
tsan-tests: $(BUILD)/bachess-tsan
	tests/tsan_races.sh $(BUILD)/bachess-tsan

sanitize-tests: $(BUILD)/sanitize/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/sanitize/unit-tests --jobs 2

# Console play driven in a pseudo-terminal, with the optimised and the
# sanitizer build; the PGN it writes is checked with pgn-extract.
console-tests: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/console_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	python3 tests/console_test.py $(BUILD)/bachess-sanitize

# `bachess web`: the server under bad and heavy use (tests/web_server_test.py),
# optimised and with the sanitizers; the page in headless chromium
# (tests/web_browser_test.mjs), with a screenshot in $(BUILD)/web.png (docs/web.png is one).
web-tests: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/web_server_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	ASAN_OPTIONS=quarantine_size_mb=8 python3 tests/web_server_test.py $(BUILD)/bachess-sanitize
	node tests/web_browser_test.mjs $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(BUILD)/web.png

# Memory (tests/memory_test.py): Hash N costs N MiB of resident memory, up
# and down, with the optimised build; whole games over UCI and CECP leak
# nothing, under LeakSanitizer and under valgrind (the debug build: valgrind
# cannot run -march=native code on AVX-512 machines).
memory-tests: $(EXE) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug
	python3 tests/memory_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(BUILD)/bachess-sanitize $(BUILD)/bachess-debug

# UCI conformance (protocols.md §7.1, §7.3, bad input), legality judged by stockfish.
conformance-uci: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/conformance/uci_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	python3 tests/conformance/uci_test.py $(BUILD)/bachess-sanitize

# XBoard protocol conformance (protocols.md §7.1, §7.2, bad input), legality
# judged by stockfish; the sanitizer build runs the scenarios with searches,
# races and bad input again.
conformance-cecp: $(EXE) $(BUILD)/bachess-sanitize
	python3 tests/conformance/cecp_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))
	CECP_ONLY=04,05,11,13,17,18,19,22,24,25 python3 tests/conformance/cecp_test.py $(BUILD)/bachess-sanitize

# Two games under XBoard (headless) with bachess speaking CECP vs fairymax,
# then XBoard's analysis mode.
xboard-match: $(EXE)
	scripts/xboard-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2
	XB_VARIANT=fischerandom XB_ANALYSIS=0 XB_OPPONENT=$(abspath $(EXE)) scripts/xboard-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2

# Two games under XBoard (headless) with bachess behind polyglot vs fairymax.
polyglot-match: $(EXE)
	scripts/polyglot-match.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) 2

# Polyglot books and PGN against Debian's polyglot and pgn-extract (same
# book as make-book, both read each other's, pgn-extract accepts our PGN).
book-interop: $(EXE)
	tests/book_interop.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) data

# `bachess annotate` end to end (tests/annotate_test.py): a hung queen and a
# missed mate marked ??, the better line, an [%eval] on every move, an
# unreadable game passed over, pgn-extract reading the output, the same
# output with two workers, SIGINT keeping whole games. Node-limited searches.
annotate-test: $(EXE)
	python3 tests/annotate_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) data

perft-full: $(EXE)
	scripts/perft-suite.sh ./$(EXE) data/perft.epd full

perft-speed: $(EXE)
	RUNS=5 scripts/perft-speed.sh ./$(EXE)

# The NNUE pipeline on a tiny data set: datagen, training (Debian's PyTorch,
# /usr/bin/python3), export, and the engine's evaluation equal to Python's.
nnue-train-test: $(EXE)
	/usr/bin/python3 tests/nnue_train_test.py $(if $(filter /%,$(EXE)),$(EXE),./$(EXE))

# The bench node count must equal the last "Bench: N" stated in git history.
bench-check: $(EXE)
	scripts/check-bench.sh ./$(EXE)

# libFuzzer targets for every input path (FEN, moves, PGN, books, UCI, CECP,
# EPD; clang): each runs FUZZ_SECONDS, seeded from data/ and fuzz/seeds/,
# corpora and artifacts in $(BUILD)/fuzz. fuzz-short, part of `make test`:
# 6 s each from the seeds alone, two at a time.
fuzz:
	BUILD=$(BUILD) scripts/fuzz.sh all $(FUZZ_SECONDS)

fuzz-short:
	BUILD=$(BUILD) FUZZ_JOBS=2 FUZZ_FRESH=1 scripts/fuzz.sh all 6

# The reliability match (issue 7): 4 x STRESS_GAMES very fast games over UCI
# (cutechess-cli, built outside the repo) and CECP (XBoard headless), against
# fairymax and a second bachess; fails on any crash, illegal move, time
# loss or false claim of bachess. Not part of `make test` (about half an hour).
STRESS_GAMES ?= 250
stress: $(EXE)
	scripts/stress.sh $(if $(filter /%,$(EXE)),$(EXE),./$(EXE)) $(STRESS_GAMES) 1+0.01

# The game-tree lab (docs/lab.md): tables, data and the SVG plot, regenerated.
lab: $(EXE)
	scripts/lab-plot.sh ./$(EXE) docs

clean:
	rm -rf $(BUILD) $(EXE) bachess-debug bachess-tuning
