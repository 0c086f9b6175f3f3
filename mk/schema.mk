# The Makefile includes mk/*.mk before its `all:` rule, so the first rule
# of whichever file comes first would become the default goal.
.DEFAULT_GOAL := all

# Tools area: the JSON Schemas are embedded in the irsnap tool at build time,
# so an installed irsnap validates without any data file; mk/embed.mk
# writes the generated C file, an array per common/schema/*.schema.json.

SCHEMA_JSON  = $(sort $(wildcard common/schema/*.schema.json))
SCHEMA_GEN_C = $(BUILD)/gen/schema_files.c
SCHEMA_GEN_O = $(BUILD)/obj/gen/schema_files.o
TOOLS_OBJ   += $(SCHEMA_GEN_O)

$(SCHEMA_GEN_C): $(SCHEMA_JSON) mk/schema.mk mk/embed.mk
	$(call embed_files,$(SCHEMA_JSON),tools/tools.h,irs_schema_file,)

$(SCHEMA_GEN_O): $(SCHEMA_GEN_C) $(wildcard common/*.h common/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) -c $< -o $@
