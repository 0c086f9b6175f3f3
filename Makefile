# irsnap: one GNU Makefile for the library, CLI, debugger front ends, the toyc
# fixture and the tests. Sources are picked up by wildcard, one concept per file.

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CXX_LLDB ?= clang++
CFLAGS  ?= -O2 -g
CXXFLAGS ?= -O2 -g

# SANITIZE=1: ASan + UBSan into build-asan/; `make test SANITIZE=1` then runs
# every suite that can host them, each sanitizer report failing its suite
# (tests/run says which suites it leaves out and why).
ifeq ($(SANITIZE),1)
BUILD   ?= build-asan
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
export IRSNAP_SANITIZE = 1
else
BUILD   ?= build
SANFLAGS =
endif

WARN    = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -Werror
DEPFLAGS = -MMD -MP
PKGS    = lua5.4 jansson libelf libxxhash
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

LIB_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) -fPIC -fvisibility=hidden \
	     -D_GNU_SOURCE -DIRS_BUILDING_LIB -Icommon $(PKG_CFLAGS)

LIB_SRC   = $(wildcard common/*.c)
LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_SRC   = $(wildcard common/cli/*.c)
CLI_OBJ   = $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TOYC_SRC  = $(wildcard tests/fixtures/toyc/*.c)
UNIT_SRC  = $(wildcard tests/unit/test_*.c)
UNIT_SUP  = $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
UNIT_SUP_OBJ = $(UNIT_SUP:%.c=$(BUILD)/obj/%.o)
UNIT_BIN  = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LLDB_SRC  = $(wildcard lldb/*.cpp)

ALL = $(BUILD)/libirsnap.so $(BUILD)/libirsnap.a $(BUILD)/irsnap \
      $(BUILD)/toyc $(UNIT_BIN)
ifneq ($(LLDB_SRC),)
ALL += $(BUILD)/libirsnap-lldb.so
endif

# Area-specific rules (fuzz targets, preload libraries, ...) live in mk/*.mk;
# a file there may add to ALL.
-include $(wildcard mk/*.mk)

.PHONY: all test demo bench install clean deps fuzz 80
# Keep intermediate objects: unit-test objects would otherwise be deleted
# and rebuilt on every make.
.SECONDARY:
all: $(ALL)

deps:
	@scripts/install-deps

$(BUILD)/obj/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libirsnap.so: $(LIB_OBJ)
	$(CC) $(SANFLAGS) -shared -o $@ $^ $(PKG_LIBS) -lm -lpthread

$(BUILD)/libirsnap.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/irsnap: $(CLI_OBJ) $(BUILD)/libirsnap.a
	$(CC) $(SANFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libirsnap.a $(PKG_LIBS) -lm -lpthread

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

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(UNIT_SUP_OBJ) $(BUILD)/libirsnap.a $(BUILD)/libtoyc.a
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@ $< $(UNIT_SUP_OBJ) $(BUILD)/libirsnap.a $(BUILD)/libtoyc.a \
		$(PKG_LIBS) $(CMOCKA_LIBS) -lm -lpthread

LLDB_INC = -I/usr/lib/llvm-14/include
$(BUILD)/libirsnap-lldb.so: $(LLDB_SRC) common/irsnap.h $(BUILD)/libirsnap.a
	$(CXX_LLDB) -std=c++17 -Wall -Wextra -Werror $(CXXFLAGS) -fPIC -shared \
		$(LLDB_INC) -Icommon -o $@ $(LLDB_SRC) $(BUILD)/libirsnap.a \
		-L/usr/lib/llvm-14/lib -llldb $(PKG_LIBS) -lm -lpthread

test: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) tests/run

demo: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) scripts/demo

bench:
	@scripts/install-deps --bench
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) scripts/bench

fuzz:
	@BUILD=$(BUILD) scripts/fuzz

# Everything a user runs, from $(DESTDIR)$(PREFIX) alone: the library (its
# JSON Schemas and Lua prelude are built into it), the CLI, the header, the
# GDB script (it loads ../../../lib/libirsnap.so), the LLDB plugin, the
# reducer's crash-signature preload library (irsnap looks in ../lib), and
# the schemas and prelude as files to read. mk/gdb.mk adds the GDB shim.
install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/irsnap/gdb \
		$(DESTDIR)$(PREFIX)/share/irsnap/prelude/irsnap $(DESTDIR)$(PREFIX)/share/irsnap/schema
	install -m 755 $(BUILD)/libirsnap.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(BUILD)/libirsnap.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libirsnap-crashsig.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 common/irsnap.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(BUILD)/irsnap $(DESTDIR)$(PREFIX)/bin/
	install -m 644 gdb/irsnap.py $(DESTDIR)$(PREFIX)/share/irsnap/gdb/
	install -m 644 common/prelude/irsnap/*.lua $(DESTDIR)$(PREFIX)/share/irsnap/prelude/irsnap/
	install -m 644 common/schema/*.json $(DESTDIR)$(PREFIX)/share/irsnap/schema/
	if [ -f $(BUILD)/libirsnap-lldb.so ]; then \
		install -m 755 $(BUILD)/libirsnap-lldb.so $(DESTDIR)$(PREFIX)/lib/; fi

# Lines over 80 columns in C sources (tabs count as 8), as QBE's `make 80`.
80:
	@expand -t8 common/*.c common/*.h common/cli/*.c | awk 'length > 80' | head -20

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
