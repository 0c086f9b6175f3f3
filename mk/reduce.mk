# The reducer's crash-signature preload library (irsnap reduce --crash):
# a small shared object with no dependency on libirsnap, LD_PRELOADed into
# every test process. See common/crashsig/irsnap_crashsig.c.
CRASHSIG_SO = $(BUILD)/libirsnap-crashsig.so
ALL += $(CRASHSIG_SO)

# Never sanitized: it is preloaded into programs that are not.
$(CRASHSIG_SO): common/crashsig/irsnap_crashsig.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -shared -D_GNU_SOURCE -o $@ $< -ldl
