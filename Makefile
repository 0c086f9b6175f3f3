# irsnap: one GNU Makefile for the library, CLI, debugger front ends, the toyc
# fixture and the tests. Sources are picked up by wildcard, one concept per file.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CXX_LLDB ?= clang++
CFLAGS  ?= -O2 -g
CXXFLAGS ?= -O2 -g

# SANITIZE=1: ASan + UBSan into build-asan/; `make test SANITIZE=1` then runs
# the sanitized scope (tests/run's sanitized_scope: the suites that feed
# irsnap untrusted or real compilers' input), each sanitizer report failing
# its suite; `tests/run --sanitized /` runs every suite that can host them.
ifeq ($(SANITIZE),1)
BUILD   ?= build-asan
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
export IRSNAP_SANITIZE = 1
# The real compilers of the tests are never sanitized: one build of them,
# the plain build's, serves both runs (CI's second run reuses the first's).
# So do the type donors the e2e suites build (the system's c++ compiles
# them, whatever irsnap's build): a fresh clone builds each once.
export IRSNAP_REAL ?= $(abspath build/real)
export IRSNAP_TEST_DONORS ?= $(abspath build/donor-cache)
else
BUILD   ?= build
SANFLAGS =
endif

# test, demo and bench build on every core unless make was given -j itself.
JOBS    = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))

WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -Werror
DEPFLAGS = -MMD -MP
PKGS    = lua5.4 jansson libelf libdw libxxhash
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) -fPIC -fvisibility=hidden \
	     -D_GNU_SOURCE -DIRS_BUILDING_LIB -Icommon $(PKG_CFLAGS)

# The areas of common/, bottom to top (common/irsnap.h has the map). The
# library the debuggers load holds LIB_AREAS; the batch tools (TOOL_AREAS)
# are linked into the irsnap CLI (and the unit tests) only.
LIB_AREAS  = util mem layout walk run console
TOOL_AREAS = launch reduce tools
LIB_SRC   = $(foreach a,$(LIB_AREAS),$(wildcard common/$(a)/*.c))
LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS_SRC = $(foreach a,$(TOOL_AREAS),$(wildcard common/$(a)/*.c))
TOOLS_OBJ = $(TOOLS_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS_LIB = $(BUILD)/libirsnap-tools.a
CLI_SRC   = $(wildcard common/cli/*.c)
CLI_OBJ   = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TOYC_SRC  = $(wildcard tests/fixtures/toyc/*.c)
UNIT_SRC  = $(wildcard tests/unit/test_*.c)
UNIT_SUP  = $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
UNIT_SUP_OBJ = $(UNIT_SUP:%.c=$(BUILD)/obj/%.o)
UNIT_BIN  = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# Unit tests reach every area, the batch tools' too.
UNIT_LIBS = $(TOOLS_LIB) $(BUILD)/libirsnap.a $(BUILD)/libtoyc.a
LLDB_SRC  = $(wildcard lldb/*.cpp)
LLDB_OBJ  = $(LLDB_SRC:%.cpp=$(BUILD)/obj/%.o)

ALL = $(BUILD)/libirsnap.so $(BUILD)/libirsnap.a $(BUILD)/irsnap \
      $(BUILD)/toyc $(UNIT_BIN)
ifneq ($(LLDB_SRC),)
ALL += $(BUILD)/libirsnap-lldb.so
endif

# Area-specific rules (fuzz targets, preload libraries, ...) live in mk/*.mk;
# a file there may add to ALL.
-include $(wildcard mk/*.mk)

.PHONY: all test demo bench install uninstall man clean deps fuzz 80 check-layers real donors installed FORCE
# Keep intermediate objects: unit-test objects would otherwise be deleted
# and rebuilt on every make.
.SECONDARY:
all: $(ALL)

deps:
	@scripts/install-deps

# LuaJIT and Lua 5.4 from Debian's source packages, with debug info, into
# $(BUILD)/real/ (scripts/real-compilers): the real compilers of the tests.
real:
	@BUILD=$(BUILD) scripts/real-compilers

# The type donors of the shipped layouts that declare one (llvm14.lua),
# built with the system C++ compiler against the installed headers into
# irsnap's donor cache (irsnap donor LAYOUT; LLVM's private IR headers from
# scripts/real-compilers llvm-14-headers). Run again after a header
# upgrade: ir-layout load says when a donor is stale.
donors: $(BUILD)/irsnap
	@BUILD=$(BUILD) scripts/real-compilers llvm-14-headers
	@for f in common/layouts/*.lua; do \
		! grep -q '^donor *{' "$$f" || $(BUILD)/irsnap donor "$$f" \
			-I $${IRSNAP_REAL:-$(BUILD)/real}/llvm-14-headers/lib/IR || exit 1; \
	done

# No area of common/ includes a header of an area above it (irsnap.h).
check-layers:
	@scripts/check-layers

$(BUILD)/obj/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libirsnap.so: $(LIB_OBJ)
	$(CC) $(SANFLAGS) -shared -o $@ $^ $(PKG_LIBS) -lstdc++ -lm -lpthread

$(BUILD)/libirsnap.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(TOOLS_LIB): $(TOOLS_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/irsnap: $(CLI_OBJ) $(TOOLS_LIB) $(BUILD)/libirsnap.a
	$(CC) $(SANFLAGS) -o $@ $(CLI_OBJ) $(TOOLS_LIB) $(BUILD)/libirsnap.a \
		$(PKG_LIBS) -lstdc++ -lm -lpthread

# toyc is the debuggee: -O1 -g so debuggers see its types and locals, never
# sanitized (ASan's shadow memory would confuse the debugger tests).
$(BUILD)/toyc: $(TOYC_SRC) $(wildcard tests/fixtures/toyc/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -O1 -o $@ $(TOYC_SRC) -lm

# The toyc objects minus main(), so unit tests can build real toyc IR in
# their own memory and compare irsnap's rendering with toyc's printer.
TOYC_LIB_OBJ = $(patsubst %.c,$(BUILD)/obj/toyc/%.o,$(notdir $(filter-out %/main.c,$(TOYC_SRC))))
$(BUILD)/obj/toyc/%.o: tests/fixtures/toyc/%.c $(wildcard tests/fixtures/toyc/*.h)
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -g -O1 $(SANFLAGS) -fPIC -c $< -o $@
$(BUILD)/libtoyc.a: $(TOYC_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(WARN) -Wno-missing-prototypes $(CFLAGS) $(SANFLAGS) -D_GNU_SOURCE \
		-Icommon -Itests/unit -Itests/fixtures/toyc $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(UNIT_SUP_OBJ) $(UNIT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@ $< $(UNIT_SUP_OBJ) $(UNIT_LIBS) \
		$(PKG_LIBS) $(CMOCKA_LIBS) -lstdc++ -lm -lpthread

# The LLDB plugin: one object per lldb/*.cpp (its header dependencies
# tracked), so editing common/ relinks the plugin instead of recompiling it.
LLDB_INC = -I/usr/lib/llvm-14/include
$(BUILD)/obj/lldb/%.o: lldb/%.cpp
	@mkdir -p $(@D)
	$(CXX_LLDB) -std=c++17 -Wall -Wextra -Werror $(CXXFLAGS) -fPIC \
		$(LLDB_INC) -Icommon $(DEPFLAGS) -c $< -o $@

$(BUILD)/libirsnap-lldb.so: $(LLDB_OBJ) $(BUILD)/libirsnap.a
	$(CXX_LLDB) -shared -o $@ $(LLDB_OBJ) $(BUILD)/libirsnap.a \
		-L/usr/lib/llvm-14/lib -llldb $(PKG_LIBS) -lstdc++ -lm -lpthread

test: deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@BUILD=$(BUILD) scripts/real-compilers
	@BUILD=$(BUILD) tests/run

# make demo tells its story, not the compiler's: the build's commands go to
# $(BUILD)/build.log (V=1 prints them). DEMO is the story's script.
DEMO ?= scripts/demo
demo: deps
ifeq ($(V),1)
	@$(MAKE) --no-print-directory $(JOBS) all
else
	@mkdir -p $(BUILD); \
	printf 'building irsnap (the commands: %s/build.log, or make demo V=1) ... ' '$(BUILD)'; \
	if $(MAKE) --no-print-directory $(JOBS) all >$(BUILD)/build.log 2>&1; \
	then echo done; \
	else echo failed; tail -n 30 $(BUILD)/build.log; exit 1; fi
endif
	@BUILD=$(BUILD) $(DEMO)

bench:
	@scripts/install-deps --bench
	@$(MAKE) --no-print-directory $(JOBS) all $(BUILD)/bench/walk_bench
	@BUILD=$(BUILD) scripts/bench

fuzz:
	@BUILD=$(BUILD) scripts/fuzz

# Everything a user runs, from $(DESTDIR)$(PREFIX) alone: the library (its
# JSON Schemas and Lua prelude are built into it), the CLI, the header, the
# GDB script (it loads ../../../lib/libirsnap.so), the LLDB plugin, the
# reducer's crash-signature preload library (irsnap looks in ../lib), and
# the schemas and prelude as files to read, and the shipped layouts of real
# compilers (common/layouts/, loaded by path). mk/gdb.mk adds the GDB shim.
# irsnap(1) and irsnap-commands(7), the ir-* commands and settings, from
# the help texts irsnap prints (scripts/gen-man), with the installed paths.
$(BUILD)/man/irsnap.1: $(BUILD)/irsnap scripts/gen-man $(BUILD)/prefix
	scripts/gen-man $(BUILD)/irsnap $(@D) $(PREFIX)
$(BUILD)/man/irsnap-commands.7: $(BUILD)/man/irsnap.1

man: $(BUILD)/man/irsnap.1

# The pkg-config file of libirsnap (irsnap.h), for the installed prefix.
# The PREFIX the files naming installed paths were made for: they are made
# again when it changes.
$(BUILD)/prefix: FORCE
	@mkdir -p $(@D)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' >$@
FORCE:

$(BUILD)/irsnap.pc: scripts/irsnap.pc.in common/irsnap.h $(BUILD)/prefix
	sed -e 's|@PREFIX@|$(PREFIX)|' -e "s|@VERSION@|$$(sed -n \
		's/^#define IRS_VERSION \"\(.*\)\"/\1/p' common/irsnap.h)|" \
		scripts/irsnap.pc.in >$@

# What install installs, and nothing else of `all` (the unit tests and
# toyc stay in the build tree): a package build makes just these.
INSTALLED = $(BUILD)/libirsnap.so $(BUILD)/libirsnap.a $(BUILD)/irsnap \
	    $(BUILD)/libirsnap-crashsig.so $(BUILD)/libirsnap-gdb-xstate.so \
	    $(BUILD)/man/irsnap.1 $(BUILD)/man/irsnap-commands.7 \
	    $(BUILD)/irsnap.pc
ifneq ($(LLDB_SRC),)
INSTALLED += $(BUILD)/libirsnap-lldb.so
endif
# The guides, as share/doc/irsnap/NAME.
DOCS = README.md:README.md gdb/README.md:gdb.md lldb/README.md:lldb.md \
       docs/layout.md:layout.md docs/formats.md:formats.md \
       docs/reduce.md:reduce.md docs/hunts.md:hunts.md
installed: $(INSTALLED)

install: $(INSTALLED)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man7 \
		$(DESTDIR)$(PREFIX)/share/doc/irsnap \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(BUILD)/man/irsnap.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(BUILD)/man/irsnap-commands.7 \
		$(DESTDIR)$(PREFIX)/share/man/man7/
	for d in $(DOCS); do install -m 644 "$${d%%:*}" \
		"$(DESTDIR)$(PREFIX)/share/doc/irsnap/$${d##*:}"; done
	install -m 644 scripts/irsnap-completion.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/irsnap
	install -m 644 $(BUILD)/irsnap.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/irsnap/gdb \
		$(DESTDIR)$(PREFIX)/share/irsnap/prelude/irsnap $(DESTDIR)$(PREFIX)/share/irsnap/schema \
		$(DESTDIR)$(PREFIX)/share/irsnap/layouts
	install -m 755 $(BUILD)/libirsnap.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(BUILD)/libirsnap.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libirsnap-crashsig.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 common/irsnap.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(BUILD)/irsnap $(DESTDIR)$(PREFIX)/bin/
	install -m 644 gdb/irsnap.py $(DESTDIR)$(PREFIX)/share/irsnap/gdb/
	install -m 644 common/prelude/irsnap/*.lua $(DESTDIR)$(PREFIX)/share/irsnap/prelude/irsnap/
	install -m 644 common/schema/*.json $(DESTDIR)$(PREFIX)/share/irsnap/schema/
	for f in common/layouts/*.lua; do [ ! -f "$$f" ] || \
		install -m 644 "$$f" $(DESTDIR)$(PREFIX)/share/irsnap/layouts/; done
	for f in common/layouts/*/donor.cpp; do [ ! -f "$$f" ] || { \
		d=$(DESTDIR)$(PREFIX)/share/irsnap/layouts/$$(basename $$(dirname "$$f")); \
		install -d "$$d" && install -m 644 "$$f" "$$d/"; }; done
	if [ -f $(BUILD)/libirsnap-lldb.so ]; then \
		install -m 755 $(BUILD)/libirsnap-lldb.so $(DESTDIR)$(PREFIX)/lib/; fi

# What install put there, and the directories it made when left empty.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libirsnap.so \
		$(DESTDIR)$(PREFIX)/lib/libirsnap.a \
		$(DESTDIR)$(PREFIX)/lib/libirsnap-crashsig.so \
		$(DESTDIR)$(PREFIX)/lib/libirsnap-lldb.so \
		$(DESTDIR)$(PREFIX)/lib/libirsnap-gdb-xstate.so \
		$(DESTDIR)$(PREFIX)/include/irsnap.h \
		$(DESTDIR)$(PREFIX)/bin/irsnap \
		$(DESTDIR)$(PREFIX)/share/man/man1/irsnap.1 \
		$(DESTDIR)$(PREFIX)/share/man/man7/irsnap-commands.7 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/irsnap \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/irsnap.pc
	rm -rf $(DESTDIR)$(PREFIX)/share/irsnap $(DESTDIR)$(PREFIX)/share/doc/irsnap
	-rmdir $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7 \
		$(DESTDIR)$(PREFIX)/share/man \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/bash-completion \
		$(DESTDIR)$(PREFIX)/share/doc $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/share $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
		$(DESTDIR)$(PREFIX) 2>/dev/null

# Lines over 80 columns in C sources (tabs count as 8), as QBE's `make 80`.
80:
	@expand -t8 common/*.h common/*/*.[ch] | awk 'length > 80' | head -20

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
