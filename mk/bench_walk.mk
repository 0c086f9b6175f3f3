# The walk's in-process benchmark (tests/bench/walk_bench.c): not part of
# `make` or `make test`; build it with `make $(BUILD)/bench/walk_bench`
# (or `make bench-walk`) and run it by hand, see the file's comment.
.PHONY: bench-walk
bench-walk: $(BUILD)/bench/walk_bench

$(BUILD)/obj/tests/bench/%.o: tests/bench/%.c
	@mkdir -p $(@D)
	$(CC) $(WARN) -Wno-missing-prototypes $(CFLAGS) $(SANFLAGS) \
		-D_GNU_SOURCE -Icommon -Itests/unit -Itests/fixtures/toyc \
		$(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/bench/walk_bench: $(BUILD)/obj/tests/bench/walk_bench.o \
		$(UNIT_SUP_OBJ) $(UNIT_LIBS)
	@mkdir -p $(@D)
	$(CC) $(SANFLAGS) -o $@ $< $(UNIT_SUP_OBJ) $(UNIT_LIBS) $(PKG_LIBS) \
		$(CMOCKA_LIBS) -lstdc++ -lm -lpthread
