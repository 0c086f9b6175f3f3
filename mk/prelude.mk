# The Lua prelude (common/prelude/irsnap/*.lua) is embedded in the library
# at build time, as mk/schema.mk does for the JSON Schemas: `require
# "irsnap.list"` reads the embedded text (common/layout/sandbox.c), so an
# installed libirsnap needs no data path; $IRSNAP_PRELUDE still points it
# at a directory when working on the prelude. mk/embed.mk writes the
# generated C file.

PRELUDE_LUA   = $(sort $(wildcard common/prelude/irsnap/*.lua))
PRELUDE_GEN_C = $(BUILD)/gen/prelude_files.c
PRELUDE_GEN_O = $(BUILD)/obj/gen/prelude_files.o
LIB_OBJ      += $(PRELUDE_GEN_O)

$(PRELUDE_GEN_C): $(PRELUDE_LUA) mk/prelude.mk mk/embed.mk
	$(call embed_files,$(PRELUDE_LUA),layout/layout.h,irs_prelude_file,irsnap/)

$(PRELUDE_GEN_O): $(PRELUDE_GEN_C) $(wildcard common/*.h common/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

# The other copies of the library link it too: the unsanitized one GDB
# loads in a sanitized build (mk/gdb.mk, whose rules compile it from
# $(BUILD)/gen/) and the fuzzers' (mk/fuzz.mk). A prerequisite added here
# joins their link's $^.
ifeq ($(SANITIZE),1)
$(BUILD)/plain/libirsnap.so: $(BUILD)/obj-plain/gen/prelude_files.o
endif
ifdef FUZZ_LIB
$(FUZZ_LIB): $(FUZZ_DIR)/obj/gen/prelude_files.o
$(FUZZ_DIR)/obj/gen/prelude_files.o: $(PRELUDE_GEN_C) $(wildcard common/*.h common/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_LIB_CFLAGS) -c $< -o $@
endif
