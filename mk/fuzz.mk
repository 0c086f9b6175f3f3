# libFuzzer targets (tests/fuzz/fuzz_<name>.c), built with clang into
# $(BUILD)/fuzz/ over their own copy of the library, compiled with coverage
# instrumentation and ASan + UBSan whatever SANITIZE says. Not part of ALL:
# `make fuzz` (scripts/fuzz) and tests/fuzz/test_fuzz.sh build them with
# `make fuzz-build`.
#
#   $(BUILD)/fuzz/fuzz_<name>   one libFuzzer binary per target
#   $(BUILD)/fuzz/gen-seeds     writes the seeds that cannot be text files
#                               in the tree (memory images from a real walk,
#                               ELF cores) into $(BUILD)/fuzz/seeds/<name>/
FUZZ_CC   ?= clang
FUZZ_DIR   = $(BUILD)/fuzz
FUZZ_SAN   = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	     -fno-omit-frame-pointer
FUZZ_NAMES = $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  = $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

# The library as the Makefile compiles it, minus its sanitizer flags and
# -Werror (gcc's warnings gate the code; clang's differ and must not break
# this build), plus libFuzzer's coverage instrumentation.
FUZZ_LIB_CFLAGS = $(filter-out -Werror -Wpedantic $(SANFLAGS),$(LIB_CFLAGS)) \
		  $(FUZZ_SAN) -fsanitize=fuzzer-no-link
# Every object of the library and the batch tools, generated ones too (the
# schema and prelude tables other mk files add to LIB_OBJ and TOOLS_OBJ,
# after this file is read: hence the second expansion of the archive's
# prerequisites).
FUZZ_LIB_OBJ = $(patsubst $(BUILD)/obj/%,$(FUZZ_DIR)/obj/%,$(LIB_OBJ) $(TOOLS_OBJ))
FUZZ_LIB = $(FUZZ_DIR)/libirsnap-fuzz.a

# Test support: the fake target, toyc's debug info, toyc itself (the
# walker's and the layout's targets build real toyc IR), the harness.
FUZZ_SUP_SRC = tests/unit/fake_target.c tests/unit/toyc_fake.c \
	       tests/fuzz/harness.c
FUZZ_SUP_OBJ = $(FUZZ_SUP_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_TOYC_OBJ = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,\
		$(filter-out %/main.c,$(TOYC_SRC)))
FUZZ_TEST_CFLAGS = $(WARN) -Wno-pedantic $(CFLAGS) $(FUZZ_SAN) \
		   -Wno-unknown-attributes -D_GNU_SOURCE -Icommon -Itests/unit \
		   -Itests/fuzz \
		   -Itests/fixtures/toyc $(PKG_CFLAGS) \
		   -DIRS_SOURCE_DIR='"$(abspath .)"'
FUZZ_LIBS = $(FUZZ_LIB) $(PKG_LIBS) -lstdc++ -lm -lpthread

.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS) $(FUZZ_DIR)/seeds/.done

$(FUZZ_DIR)/obj/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) -c $< -o $@

.SECONDEXPANSION:
$(FUZZ_LIB): $$(FUZZ_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_TEST_CFLAGS) -fsanitize=fuzzer-no-link \
		-Wno-missing-prototypes $(DEPFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/tests/fixtures/toyc/%.o: tests/fixtures/toyc/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 $(FUZZ_SAN) -w $(DEPFLAGS) \
		-c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SUP_OBJ) $(FUZZ_TOYC_OBJ) \
		$(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_TEST_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_SUP_OBJ) $(FUZZ_TOYC_OBJ) $(FUZZ_LIBS)

$(FUZZ_DIR)/gen-seeds: tests/fuzz/gen_seeds.c $(FUZZ_SUP_OBJ) \
		$(FUZZ_TOYC_OBJ) $(FUZZ_LIB)
	$(FUZZ_CC) $(FUZZ_TEST_CFLAGS) -fsanitize=fuzzer-no-link -o $@ $< \
		$(FUZZ_SUP_OBJ) $(FUZZ_TOYC_OBJ) $(FUZZ_LIBS)

$(FUZZ_DIR)/seeds/.done: $(FUZZ_DIR)/gen-seeds tests/fuzz/kitchen.lua \
		tests/fixtures/toyc/toyc.lua
	rm -rf $(@D) && mkdir -p $(@D)
	ASAN_OPTIONS=detect_leaks=0 $(FUZZ_DIR)/gen-seeds $(@D)
	touch $@

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
