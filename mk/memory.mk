# Memory readers: tests/unit/test_memory.c compares the readers on a stopped
# child program built from tests/unit/memory_child.c. Never sanitized: gcore
# dumps every mapping, ASan's reserved shadow included (tens of GB).
MEMORY_CHILD = $(BUILD)/tests/memory-child
ALL += $(MEMORY_CHILD)

$(MEMORY_CHILD): tests/unit/memory_child.c tests/unit/memory_child.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -D_GNU_SOURCE -DMEMORY_CHILD_PROGRAM \
		-Itests/unit -o $@ $<

# The test starts the child from beside itself.
$(BUILD)/tests/test_memory: $(MEMORY_CHILD)
