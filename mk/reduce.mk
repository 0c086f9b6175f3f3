# The reducer's crash-signature preload library (irsnap reduce --crash):
# a small shared object with no dependency on libirsnap, LD_PRELOADed into
# every test process. See common/reduce/preload/irsnap_crashsig.c.
CRASHSIG_SO = $(BUILD)/libirsnap-crashsig.so
ALL += $(CRASHSIG_SO)

# Never sanitized: it is preloaded into programs that are not.
$(CRASHSIG_SO): common/reduce/preload/irsnap_crashsig.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -D_GNU_SOURCE -o $@ $< -ldl

# The reducer against C-Vise and llvm-reduce-14 on the corpus in
# tests/fixtures/reduce/cases/ (scripts/bench-reduce; part of `make bench`).
.PHONY: bench-reduce
bench-reduce: all
	@BUILD=$(BUILD) scripts/bench-reduce
