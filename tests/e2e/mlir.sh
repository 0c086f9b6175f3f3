# What the MLIR scenarios (test_mlir, test_mlir_rerun, test_mlir_threads)
# need, said once. Source it after tests/e2e/debugger.sh: it checks that
# libmlir-14-dev is installed (scripts/install-deps installs it; the
# suite fails here, never skips), builds the release test tool
# ($MLIR_OPT, make mlir-opt) and mlir14.lua's donor as a user builds it
# (the system's c++), in the type donors' cache shared between suites
# ($BUILD/donor-cache, or IRSNAP_TEST_DONORS), one suite at a time; sets
# LAYOUT to mlir14.lua.
for f in /usr/lib/llvm-14/lib/libMLIR.so /usr/lib/llvm-14/include/mlir/IR/Operation.h; do
	[ -e "$f" ] || { not_ok "$f is installed" \
		"scripts/install-deps installs libmlir-14-dev"; done_testing; exit 1; }
done
REAL=${IRSNAP_REAL:-$BUILD/real}
MLIR_OPT=$REAL/mlir/bin/irsnap-mlir-opt
out=$(make -s -C "$IRSNAP_ROOT" BUILD="$BUILD" mlir-opt 2>&1)
check "make mlir-opt builds the release MLIR tool ($out)" test -x "$MLIR_OPT"
LAYOUT=$IRSNAP_ROOT/common/layouts/mlir14.lua
export IRSNAP_CACHE=${IRSNAP_TEST_DONORS:-$BUILD/donor-cache}
mkdir -p "$IRSNAP_CACHE"
(flock 9; "$IRSNAP" donor "$LAYOUT") 9>"$IRSNAP_CACHE/.lock" \
	>"$TMP/donor.log" 2>&1
check "irsnap donor builds mlir14.lua's donor ($(tail -1 "$TMP/donor.log"))" \
	grep -q "^irsnap donor: built .*/donor.o in" "$TMP/donor.log"
