// The prelude modules over the structures they are for: libstdc++'s
// std::vector and std::string from real C++ objects (cxx_objects.cpp),
// LLVM-shaped ilists and SmallVectors, intrusive lists with embedded links.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cxx_objects.h"
#include "fake_target.h"
#include "walk/walk.h"
#include "unit_util.h"

/* LLVM's shapes, in C: an ilist_node_base in each element (a base class
 * there, so not a named member), the list's Sentinel, SmallVectorBase. */
struct ilist_node_base {
	struct ilist_node_base *Prev, *Next;
};

typedef struct LInst {
	int pad[3];
	struct ilist_node_base node;	/* at 16: give link_offset */
	int opcode;
} LInst;

typedef struct LBlock {
	struct {
		struct ilist_node_base Sentinel;
	} InstList;
	struct {
		void *BeginX;
		uint32_t Size, Capacity;
		int inline_storage[4];
	} Ops;
} LBlock;

/* An intrusive list whose head points at the first element's link. */
struct hlink {
	struct hlink *next;
};

typedef struct HNode {
	int v;
	struct hlink link;
} HNode;

typedef struct HHead {
	struct hlink *first;
} HHead;

static void
load(struct unit_layout_fixture *f, const char *src)
{
	unit_layout_load(&f->ft.target, src, "p.lua", &f->lo);
}

static char *
render(struct unit_layout_fixture *f, const void *root,
       struct irs_snapshot_stats *st)
{
	char error[512];
	char *text = unit_render(f->lo, fake_memory(&f->ft), (uintptr_t)root,
				 st, error, sizeof(error));
	if (st->nerrors)
		fprintf(stderr, "%s\n", error);
	return text;
}

// std::vector<int>, std::vector<CxxPt> and std::string (long, on the heap,
// and short, in the string's own buffer) from real libstdc++ objects.
static void
test_std_vector_and_string(void **state)
{
	struct unit_layout_fixture *f = *state;
	struct cxx_offsets o;
	assert_int_equal(cxx_offsets(&o), 0);
	fake_type(&f->ft, "CxxHolder", o.size);
	fake_type(&f->ft, "CxxPt", sizeof(CxxPt));
	FAKE_INT(&f->ft, CxxPt, x);
	FAKE_INT(&f->ft, CxxPt, y);
#define M(path, off, kind, tn) fake_field(&f->ft, "CxxHolder", path, off, 8, \
					   kind, tn, "", 0)
	M("ints._M_impl._M_start", o.ints_start, IRS_TYPE_POINTER, "int *");
	M("ints._M_impl._M_finish", o.ints_finish, IRS_TYPE_POINTER, "int *");
	M("pts._M_impl._M_start", o.pts_start, IRS_TYPE_POINTER, "CxxPt *");
	M("pts._M_impl._M_finish", o.pts_finish, IRS_TYPE_POINTER, "CxxPt *");
	M("name._M_dataplus._M_p", o.name_p, IRS_TYPE_POINTER, "char *");
	M("name._M_string_length", o.name_len, IRS_TYPE_UINT, "size_t");
	M("tag._M_dataplus._M_p", o.tag_p, IRS_TYPE_POINTER, "char *");
	M("tag._M_string_length", o.tag_len, IRS_TYPE_UINT, "size_t");
	load(f, "layout { name = \"cxx\", root = \"CxxHolder\" }\n"
	     "local std = require \"irsnap.std\"\n"
	     "struct \"CxxPt\" { node = false, fields = { x = scalar \"x\", "
	     "y = scalar \"y\" }, text = \"({x},{y})\" }\n"
	     "struct \"CxxHolder\" { fields = { ints = std.vector(\"ints\", "
	     "i32 {}), pts = std.vector(\"pts\", \"CxxPt\"),\n"
	     " name = std.string(\"name\"), tag = std.string(\"tag\") },\n"
	     " text = \"[{ints*,}] {pts} '{name}' '{tag}'\" }\n");
	void *h = cxx_holder_create("a std::string much longer than fifteen",
				    "hi");
	struct irs_snapshot_stats st;
	char *text = render(f, h, &st);
	assert_string_equal(text, "[1,2,3,5,8] (1,2)(3,4) 'a std::string much "
			    "longer than fifteen' 'hi'");
	assert_int_equal(st.nerrors, 0);
	free(text);
	cxx_holder_destroy(h);
}

// LLVM's iplist through ilist_node_base at an offset, and SmallVector.
static void
test_llvm_ilist_and_small_vector(void **state)
{
	struct unit_layout_fixture *f = *state;
	FAKE_TYPE(&f->ft, LInst);
	FAKE_INT(&f->ft, LInst, opcode);
	FAKE_TYPE(&f->ft, LBlock);
	FAKE_STRUCT(&f->ft, LBlock, InstList, "iplist<LInst>");
	FAKE_STRUCT(&f->ft, LBlock, InstList.Sentinel, "ilist_sentinel");
	FAKE_PTR(&f->ft, LBlock, Ops.BeginX, "void");
	FAKE_UINT(&f->ft, LBlock, Ops.Size);
	char src[1024];
	snprintf(src, sizeof(src),
		 "layout { name = \"llvm\", root = \"LBlock\" }\n"
		 "local llvm = require \"irsnap.llvm\"\n"
		 "struct \"LInst\" { fields = { op = scalar \"opcode\" }, "
		 "text = \"op{op}\" }\n"
		 "struct \"LBlock\" { fields = {\n"
		 " insts = llvm.ilist(\"InstList\", \"LInst\", "
		 "{ link_offset = %zu }),\n"
		 " ops = llvm.small_vector(\"Ops\", i32 {}) },\n"
		 " text = \"{insts*; } | {ops*,}\" }\n",
		 offsetof(LInst, node));
	load(f, src);
	LBlock b = { 0 };
	LInst in[3] = { { .opcode = 10 }, { .opcode = 20 }, { .opcode = 30 } };
	struct ilist_node_base *s = &b.InstList.Sentinel, *prev = s;
	for (int i = 0; i < 3; i++) {
		prev->Next = &in[i].node;
		in[i].node.Prev = prev;
		prev = &in[i].node;
	}
	prev->Next = s;
	s->Prev = prev;
	b.Ops.BeginX = b.Ops.inline_storage;
	b.Ops.Size = 3;
	b.Ops.inline_storage[0] = 7;
	b.Ops.inline_storage[1] = 8;
	b.Ops.inline_storage[2] = 9;
	struct irs_snapshot_stats st;
	char *text = render(f, &b, &st);
	assert_string_equal(text, "op10; op20; op30 | 7,8,9");
	assert_int_equal(st.nodes, 4);
	free(text);
}

// A NULL-terminated list through an embedded link that the head points
// at; element addresses come from the link's place in the element.
static void
test_list_through_embedded_link(void **state)
{
	struct unit_layout_fixture *f = *state;
	FAKE_TYPE(&f->ft, HNode);
	FAKE_INT(&f->ft, HNode, v);
	FAKE_STRUCT(&f->ft, HNode, link, "struct hlink");
	FAKE_PTR(&f->ft, HNode, link.next, "struct hlink");
	FAKE_TYPE(&f->ft, HHead);
	FAKE_PTR(&f->ft, HHead, first, "struct hlink");
	load(f, "layout { name = \"h\", root = \"HHead\" }\n"
	     "local l = require \"irsnap.list\"\n"
	     "struct \"HNode\" { fields = { v = scalar \"v\" }, "
	     "text = \"{v}\" }\n"
	     "struct \"HHead\" { fields = { nodes = l.null { first = "
	     "\"first\", of = \"HNode\", link = \"link\" } },\n"
	     " text = \"{nodes*->}\" }\n");
	HNode n[3] = { { .v = 4 }, { .v = 5 }, { .v = 6 } };
	n[0].link.next = &n[1].link;
	n[1].link.next = &n[2].link;
	HHead h = { .first = &n[0].link };
	struct irs_snapshot_stats st;
	char *text = render(f, &h, &st);
	assert_string_equal(text, "4->5->6");
	assert_int_equal(st.nodes, 4);
	free(text);
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, \
		unit_layout_fixture_setup, unit_layout_fixture_teardown)
	const struct CMUnitTest tests[] = {
		T(test_std_vector_and_string),
		T(test_llvm_ilist_and_small_vector),
		T(test_list_through_embedded_link),
	};
	return cmocka_run_group_tests_name("prelude", tests, NULL, NULL);
}
