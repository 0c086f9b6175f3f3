// A child process with known memory, stopped, for tests/unit/test_memory.c:
// the live process, its /proc/PID/mem and a gcore of it must read the same.
//
// The child is its own program, $(BUILD)/tests/memory-child, built from
// memory_child.c with MEMORY_CHILD_PROGRAM defined (mk/memory.mk) and never
// sanitized: gcore dumps every mapping, and ASan's terabytes of reserved
// shadow would make a core of tens of gigabytes.
#ifndef MEMORY_CHILD_H
#define MEMORY_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MEMORY_CHILD_NODES 1000
#define MEMORY_CHILD_ARRAY ((uint64_t)16 << 20)
#define MEMORY_CHILD_FILE (3 * 4096 + 100)	// bytes in the mapped file
// The child's last argument: longer than the 80 bytes of a core's
// NT_PRPSINFO, with a blank and a quote in it.
#define MEMORY_CHILD_ARG "--note=an argument of more than eighty bytes, " \
	"with a blank and a 'quote', that NT_PRPSINFO cuts short"

struct memory_child_node {
	uint64_t value;			// memory_child_node_value(i)
	struct memory_child_node *next;
	char name[16];			// "node<i>"
};

// Addresses in the child, sent up a pipe before it stops.
struct memory_child_info {
	uint64_t list;		// first node of a malloc'd list
	uint64_t array;		// memory_child_array_byte(0 ...)
	uint64_t mapped;	// the test file, mapped read-only and private
	uint64_t hole;		// an unmapped page after a mapped one
	uint64_t guard;		// a PROT_NONE page between readable ones
	uint64_t code;		// a libc function (read-only file mapping)
};

struct memory_child {
	pid_t pid;
	char exe[512];		// the child program
	char dir[64];		// temporary directory, removed at the end
	char file[96];		// the mapped file
	char core[96];		// gcore of the stopped child ("" until made)
	struct memory_child_info info;
};

uint64_t memory_child_node_value(uint64_t i);
uint8_t memory_child_array_byte(uint64_t i);
uint8_t memory_child_file_byte(uint64_t i);

// Starts the child program (memory-child beside the running test binary)
// and waits until it has stopped itself. 0 on success, else -1 with a
// message on stderr.
int memory_child_start(struct memory_child *c);
// Writes c->core with GDB's gcore (real GDB, attached to the stopped
// child); 0 on success. The GDB log is left in c->dir/gcore.log.
int memory_child_gcore(struct memory_child *c);
// True while the child is in the stopped state ('T' or 't').
bool memory_child_stopped(const struct memory_child *c);
// Kills and reaps the child, removes its files.
void memory_child_stop(struct memory_child *c);

#endif
