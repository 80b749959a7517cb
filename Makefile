# bachess — build, test and measure.
#
#   make            optimised engine (./bachess), native CPU features when available
#   make run        build and start the engine
#   make test       install test dependencies (Debian), then run every test
#   make debug      engine with assertions and debug info (./bachess-debug)
#   make perft-full the whole perft suite at its full depths
#   make perft-speed  perft speed side by side with Stockfish
#
# Honours CC and EXE, e.g. `make CC=clang EXE=bachess-clang`.

CC      ?= cc
EXE     ?= bachess
BUILD   ?= build

NATIVE  := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS_COMMON := -std=gnu11 $(WARN) -pthread
RELEASE_CFLAGS := $(CFLAGS_COMMON) -O3 -DNDEBUG -flto=auto $(NATIVE)
DEBUG_CFLAGS   := $(CFLAGS_COMMON) -O1 -g
SANITIZE_CFLAGS := $(CFLAGS_COMMON) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $(NATIVE)
LDLIBS  := -lm -pthread

SOURCES := $(wildcard src/*.c)
LIB_SOURCES := $(filter-out src/main.c,$(SOURCES))
TEST_SOURCES := $(wildcard tests/test_*.c)
HEADERS := $(wildcard src/*.h) $(wildcard tests/*.h)

.PHONY: all run debug test test-deps unit-tests sanitize-tests perft-full perft-speed clean

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
$(BUILD)/release/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(RELEASE_CFLAGS) -Isrc -c $< -o $@
$(BUILD)/sanitize/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE_CFLAGS) -Isrc -c $< -o $@

objects = $(patsubst src/%.c,$(BUILD)/$(1)/%.o,$(2))
test_objects = $(patsubst tests/%.c,$(BUILD)/$(1)/tests/%.o,$(TEST_SOURCES))

# ---- programs ------------------------------------------------------------
$(EXE): $(call objects,release,$(SOURCES))
	$(CC) $(RELEASE_CFLAGS) $^ -o $@ $(LDLIBS)

bachess-debug: $(call objects,debug,$(SOURCES))
	$(CC) $(DEBUG_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bachess-sanitize: $(call objects,sanitize,$(SOURCES))
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/release/unit-tests: $(call objects,release,$(LIB_SOURCES)) $(call test_objects,release)
	$(CC) $(RELEASE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

$(BUILD)/sanitize/unit-tests: $(call objects,sanitize,$(LIB_SOURCES)) $(call test_objects,sanitize)
	$(CC) $(SANITIZE_CFLAGS) $^ -o $@ $(LDLIBS) -lcriterion

run: $(EXE)
	./$(EXE)

debug: bachess-debug

# ---- tests ---------------------------------------------------------------
test-deps:
	@scripts/install-test-deps.sh

# The optimised build runs everything at full test depth; the sanitizer
# build runs the same tests once more with lighter perft depths.
test: test-deps
	$(MAKE) --no-print-directory unit-tests
	$(MAKE) --no-print-directory sanitize-tests
	$(MAKE) --no-print-directory perft-speed

unit-tests: $(EXE) $(BUILD)/release/unit-tests
	BACHESS_DATA=data $(BUILD)/release/unit-tests --jobs 2

sanitize-tests: $(BUILD)/sanitize/unit-tests
	BACHESS_DATA=data BACHESS_TEST_LIGHT=1 $(BUILD)/sanitize/unit-tests --jobs 2

perft-full: $(EXE)
	scripts/perft-suite.sh ./$(EXE) data/perft.epd full

perft-speed: $(EXE)
	scripts/perft-speed.sh ./$(EXE)

clean:
	rm -rf $(BUILD) $(EXE) bachess-debug
