# LLDB plugin: the Makefile's rule builds lldb/*.cpp into
# $(BUILD)/libirsnap-lldb.so; the plugin's own headers are prerequisites too.
$(BUILD)/libirsnap-lldb.so: $(wildcard lldb/*.h)
