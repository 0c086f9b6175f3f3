# What the LLVM scenarios (test_llvm, test_llvm_print) need, said once.
# Source it after tests/e2e/debugger.sh: it checks that the tools are
# installed (scripts/install-deps installs them; the suite fails here,
# never skips), fetches LLVM's private IR headers into
# $REAL/llvm-14-headers (one check), and shares the type donors' cache,
# $BUILD/donor-cache (IRSNAP_TEST_DONORS: the sanitized run shares the
# plain build's), between suites.
for tool in clang-14 clang++-14 opt-14 c++; do
	command -v "$tool" >/dev/null || { not_ok "$tool is installed" \
		"scripts/install-deps installs it"; done_testing; exit 1; }
done
out=$(BUILD=$BUILD scripts/real-compilers llvm-14-headers 2>&1)
REAL=${IRSNAP_REAL:-$BUILD/real}
check "LLVM's private IR headers fetched ($out)" \
	test -f "$REAL/llvm-14-headers/lib/IR/LLVMContextImpl.h"
export IRSNAP_CACHE=${IRSNAP_TEST_DONORS:-$BUILD/donor-cache}
mkdir -p "$IRSNAP_CACHE"

# build_donor LAYOUT LOG: `irsnap donor LAYOUT` against the private
# headers, one suite at a time (the cache is shared); its output in LOG.
build_donor() {
	(
		flock 9
		"$IRSNAP" donor "$1" -I "$REAL/llvm-14-headers/lib/IR"
	) 9>"$IRSNAP_CACHE/.lock" >"$2" 2>&1
}
