# bachess — the build (docs/building.md). The test targets, `make test`
# among them, are in tests/tests.mk, included at the end (docs/testing.md).
#
#   make            optimised engine (./bachess), native CPU features when available,
#                   profile-guided with gcc (PGO=no: without)
#   make run        build and start the engine
#   make engine     the engine alone (./bachess-engine): no web server, needs only libc,
#                   libm and pthreads
#   make debug      engine with assertions and debug info (./bachess-debug)
#   make tuning     the search parameters as UCI options (./bachess-tuning, scripts/spsa.py)
#   make install    the engine, its man page and XBoard's engine file under PREFIX
#                   (default /usr/local; DESTDIR honoured); make uninstall removes them
#   make release    one archive per platform in dist/, and dist/SHA256SUMS
#   make trainer    the NNUE trainer in C (./bachess-train, trainer/, docs/nnue.md)
#   make net        the built-in net trained again from the self-play store by its recipe
#                   (nets/default.recipe, scripts/nnue/make-net.sh) and compared with
#                   nets/default.nnue byte for byte (not part of `make test`: a full training);
#                   RECIPE=FILE [EXPECTED=FILE] trains another recipe (nets/s6c.recipe)
#
# Honours CC, EXE, CFLAGS, CPPFLAGS and LDFLAGS, e.g. `make CC=clang EXE=bachess-clang`, and
#   ARCH=x86-64 | x86-64-v2 | x86-64-v3 | native   the CPU to build for (default native;
#                   the binary refuses to start on a CPU without what it was built for);
#                   ARCH=aarch64 cross-builds for 64-bit ARM Linux (static, ./bachess-aarch64)
#   PLATFORM=windows  cross-builds bachess.exe with mingw-w64 (static; ARCH x86-64*)
#   WEB=no          leaves the web server (libmicrohttpd) out of ./bachess as well
#   EVALFILE=FILE   the NNUE network built in (default nets/default.nnue)
#   PIE=yes         a position-independent executable (the default only for the
#                   cross builds; the optimised Linux builds are faster without)

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

# A position-independent executable needs a register to hold each table's
# address before it can index it, and the evaluation, the move generator
# and the SEE index tables all the time: the optimised builds for Linux on
# x86-64 are linked at a fixed address instead (3.9 % fewer instructions
# in `bench 8 Classical`). PIE=yes keeps PIE (the Debian package's
# hardening, debian/rules).
PIE ?= $(if $(or $(CROSS),$(filter-out linux,$(PLATFORM))),yes,no)
ifeq ($(PIE),no)
  PIE_CFLAGS := -fno-pie
  PIE_LDFLAGS := -no-pie
endif

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# -ffile-prefix-map: reproducible binaries, with no build directory in them.
CFLAGS_COMMON := -std=gnu11 $(WARN) -pthread -Isrc -Isrc/syzygy/fathom -ffile-prefix-map=$(CURDIR)/= $(PLATFORM_FLAGS)

# ---- configurations ------------------------------------------------------
# Each configuration compiles every source its own way into $(BUILD)/NAME/.
CONFIGS := release tuning debug sanitize tsan pgo-gen
CFLAGS_release  := $(CFLAGS_COMMON) -O3 -DNDEBUG -flto=auto $(ARCH_FLAGS) $(PIE_CFLAGS) $(TUNE_FLAGS) $(CPPFLAGS) $(CFLAGS)
# A tuning build: the search parameters (src/search_params.h) as UCI options, for scripts/spsa.py.
CFLAGS_tuning   := $(CFLAGS_release) -DSEARCH_TUNING
CFLAGS_debug    := $(CFLAGS_COMMON) -O1 -g
CFLAGS_sanitize := $(CFLAGS_COMMON) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer $(NATIVE)
CFLAGS_tsan     := $(CFLAGS_COMMON) -O1 -g -fsanitize=thread
# The release build instrumented to count what `bench` runs, for PGO (below).
CFLAGS_pgo-gen  := $(CFLAGS_release) -fprofile-generate -fprofile-update=atomic
# What each links with beyond LDFLAGS: the optimised ones as they compile.
LDFLAGS_release := $(PIE_LDFLAGS)
LDFLAGS_tuning  := $(PIE_LDFLAGS)
LDFLAGS_pgo-gen := $(PIE_LDFLAGS)
# What each says of itself in `bachess --version`.
ARCH_NAME_release  := $(ARCH)
ARCH_NAME_pgo-gen  := $(ARCH)
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

.PHONY: all run engine release debug tuning install uninstall FORCE build-deps trainer net clean

all: $(EXE)

# The built-in NNUE network is assembled into its object (.incbin,
# src/incbin.h). EVALFILE (OpenBench's name) chooses the file; $(BUILD)/net
# holds the last path and checksum built in, so that another EVALFILE, even
# an older file, rebuilds the object.
EVALFILE ?=
NET := $(or $(EVALFILE),nets/default.nnue)
NET_SHA256 := $(shell sha256sum '$(NET)' 2>/dev/null | cut -c1-12)
NET_DEFS := -DBACHESS_NET_FILE='"$(abspath $(NET))"' -DBACHESS_NET_NAME='"$(notdir $(NET))"' -DBACHESS_NET_SHA256='"$(NET_SHA256)"'
# The rest of what is built in, the same way, is in embed/ (embed/README.md):
# the book and the page of `bachess web`.
WEB_ASSETS := $(shell find embed/web -type f 2>/dev/null)

# A file that changes only when its text does: what depends on it is
# rebuilt when flags, the version or the net change, and only then.
stamp = @mkdir -p $(@D); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
$(BUILD)/version: FORCE
	$(call stamp,$(VERSION))
$(BUILD)/net: FORCE
	@test -f '$(NET)' || { echo 'EVALFILE: no file $(NET)'; exit 1; }
	$(call stamp,$(abspath $(NET)) $(NET_SHA256))
FORCE:

# Profile-guided optimisation, on by default for a native build with gcc on
# Linux (PGO=no turns it off): the engine is first built instrumented
# ($(BUILD)/pgo-gen), runs `bench` with both evaluations, and the release
# objects are then compiled with the counts it wrote, each reading its own
# (-dumpdir and -dumpbase name it). The compiler then lays out and inlines
# for the paths the search really takes: the same tree (the same bench),
# searched faster (docs/results/speed.md). Builds for another CPU, which
# cannot run here, or with another compiler, are built without it.
IS_GCC := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo yes)
PGO ?= $(if $(and $(filter native,$(ARCH)),$(filter linux,$(PLATFORM)),$(IS_GCC)),yes,no)
PGO_PROFILE := $(BUILD)/pgo-gen/profile
ifeq ($(PGO),yes)
PROFILE_release := $(PGO_PROFILE)
$(call objects,release,$(SOURCES)): private PGO_FLAGS = -fprofile-use -fprofile-partial-training \
	-dumpdir $(patsubst $(BUILD)/release/%,$(BUILD)/pgo-gen/%,$(dir $@)) -dumpbase $(basename $(notdir $@))
endif
$(BUILD)/bachess-pgo-gen: $(call objects,pgo-gen,$(SOURCES))
	$(call link,pgo-gen)
$(PGO_PROFILE): $(BUILD)/bachess-pgo-gen
	find $(BUILD)/pgo-gen -name '*.gcda' -delete
	$(BUILD)/bachess-pgo-gen bench >$@.log 2>&1
	$(BUILD)/bachess-pgo-gen bench 8 Classical >>$@.log 2>&1
	touch $@

# One pattern rule per configuration; -MMD -MP writes each object's headers
# beside it (.d), read below. The objects whose data is assembled in, or
# that must run on any CPU, go outside LTO: LTO's link-time assembly would
# lose top-level asm, and would give the CPU check the build's -march.
define CONFIGURATION
$(BUILD)/$(1)/flags: FORCE
	$$(call stamp,$$(CC) $$(CFLAGS_$(1)) $$(PROFILE_$(1)))
$(BUILD)/$(1)/%.o: %.c $(BUILD)/$(1)/flags $$(PROFILE_$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_$(1)) $$(OBJECT_FLAGS) $$(PGO_FLAGS) -MMD -MP -c $$< -o $$@
$(BUILD)/$(1)/src/build_info.o: $(BUILD)/version
$(BUILD)/$(1)/src/build_info.o: OBJECT_FLAGS = -DBACHESS_VERSION='"$(VERSION)"' -DBACHESS_ARCH='"$(ARCH_NAME_$(1))"'
$(BUILD)/$(1)/src/cpu_check.o: OBJECT_FLAGS = -fno-lto $(BASELINE)
$(BUILD)/$(1)/src/nnue/default_net.o: $(NET) $(BUILD)/net
$(BUILD)/$(1)/src/nnue/default_net.o: OBJECT_FLAGS = -fno-lto $(NET_DEFS)
$(BUILD)/$(1)/src/web/web_assets.o: $(WEB_ASSETS)
$(BUILD)/$(1)/src/web/web_assets.o: OBJECT_FLAGS = -fno-lto
$(BUILD)/$(1)/src/games/book_default.o: embed/book.bin
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
link = $(CC) $(CFLAGS_$(1)) $(LDFLAGS_$(1)) $(LDFLAGS) $(STATIC) $(filter %.o,$^) -o $@ $(LDLIBS) $(2)

$(EXE): $(call objects,release,$(SOURCES))
	$(call link,release)

# The engine alone: UCI, XBoard, the console and the sub-commands, with
# libc, libm and pthreads only (`bachess web` says it is not there).
bachess-engine: $(call objects,release,$(ENGINE_SOURCES))
	$(CC) $(CFLAGS_release) $(LDFLAGS_release) $(LDFLAGS) $(STATIC) $^ -o $@ $(ENGINE_LIBS)
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

build-deps:
	@scripts/install-build-deps.sh

# The NNUE trainer in C (trainer/, docs/nnue.md): not part of the engine
# or its packages. -ffp-contract=off keeps a*b+c two roundings on every
# target, so that a recipe gives the same bytes with or without FMA.
TRAINER := bachess-train
TRAINER_SOURCES := $(wildcard trainer/*.c)
$(TRAINER): $(TRAINER_SOURCES) $(wildcard trainer/*.h) src/splitmix.h
	$(CC) -std=gnu11 $(WARN) -pthread -Isrc -O3 -ffp-contract=off $(ARCH_FLAGS) $(CPPFLAGS) $(CFLAGS) \
		$(TRAINER_SOURCES) -o $@ $(LDFLAGS) -lm
trainer: $(TRAINER)

# The built-in net trained again from the self-play store by its recipe
# (nets/default.recipe) and compared with nets/default.nnue byte for byte
# (scripts/nnue/make-net.sh). Not part of `make test`: it trains a full net.
# RECIPE=FILE trains another recipe (nets/s6c.recipe: s6's for bachess-train)
# and compares it with EXPECTED, or with nothing.
RECIPE ?=
EXPECTED ?= none
net: $(EXE) $(TRAINER)
	scripts/nnue/make-net.sh $(if $(RECIPE),$(RECIPE) $(BUILD)/make-net $(EXPECTED))

release:
	scripts/release.sh dist

clean:
	rm -rf $(BUILD) $(EXE) bachess-debug bachess-tuning bachess-engine $(TRAINER) bachess-aarch64 bachess.exe

# ---- tests ---------------------------------------------------------------
include tests/tests.mk
