# GDB front end.
#
# The LD_PRELOAD shim that lets GDB 13 call debuggee functions on CPUs with
# AMX (see gdb/xstate_fix.c). Never sanitized: it is loaded into GDB itself.
ALL += $(BUILD)/libirsnap-gdb-xstate.so

$(BUILD)/libirsnap-gdb-xstate.so: gdb/xstate_fix.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC -shared -o $@ $< -ldl

# GDB cannot host the ASan runtime (preloaded, it deadlocks at start-up), so
# a sanitized build also makes an unsanitized copy of the library for the
# GDB tests to load: $(BUILD)/plain/libirsnap.so.
ifeq ($(SANITIZE),1)
GDB_PLAIN_OBJ = $(LIB_SRC:%.c=$(BUILD)/obj-plain/%.o)
ALL += $(BUILD)/plain/libirsnap.so

$(BUILD)/plain/libirsnap.so: $(GDB_PLAIN_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $^ $(PKG_LIBS) -lstdc++ -lm -lpthread

$(BUILD)/obj-plain/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SANFLAGS),$(LIB_CFLAGS)) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj-plain/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SANFLAGS),$(LIB_CFLAGS)) $(DEPFLAGS) -c $< -o $@

# The headers each of these objects includes, as the Makefile does for
# $(BUILD)/obj: without them a reused build dir links a stale copy after
# a header changes.
-include $(shell find $(BUILD)/obj-plain -name '*.d' 2>/dev/null)
endif

# `make install` installs the shim beside the library, where gdb/irsnap.py
# looks for it when it names it in an error.
.PHONY: install-gdb-shim
install: install-gdb-shim
install-gdb-shim: $(BUILD)/libirsnap-gdb-xstate.so
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 755 $< $(DESTDIR)$(PREFIX)/lib/
