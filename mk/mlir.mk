# The release MLIR tool of the MLIR tests (tests/fixtures/real/mlir/): an
# mlir-opt built as downstream converters build theirs, -O2 without -g,
# against Debian's libMLIR.so.14 (libmlir-14-dev). Not part of ALL (it needs
# libmlir-14-dev and a minute of clang++); the tests that use it build it
# with `make mlir-opt`. It lands beside the real compilers, so a sanitized
# run reuses the plain run's build.
MLIR_REAL ?= $(or $(IRSNAP_REAL),$(abspath $(BUILD)/real))
MLIR_OPT   = $(MLIR_REAL)/mlir/bin/irsnap-mlir-opt
MLIR_CXX  ?= clang++-14
LLVM14    ?= /usr/lib/llvm-14

.PHONY: mlir-opt
mlir-opt: $(MLIR_OPT)

$(MLIR_OPT): tests/fixtures/real/mlir/irsnap-mlir-opt.cpp
	@mkdir -p $(@D)
	$(MLIR_CXX) -std=c++17 -O2 -fno-rtti -I$(LLVM14)/include $< -o $@.tmp \
		-L$(LLVM14)/lib -lMLIR -lLLVM-14 -Wl,-rpath,$(LLVM14)/lib
	mv $@.tmp $@
