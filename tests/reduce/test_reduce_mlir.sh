#!/usr/bin/env bash
# irsnap reduce on MLIR's generic form (issue 29 item 4): an input the
# project wrote (tests/fixtures/real/mlir/corpus/ in one module, generic
# form; the bench case mlir-loop-mulf) shrunk while a real MLIR tool's pass pipeline still does what the
# test looks for: after canonicalize and cse, run by the release tool
# irsnap-mlir-opt (-O2, no -g, linking Debian's libMLIR.so.14), a loop
# still holds a floating-point multiply (a pass's output contains a
# construct, the kind of test an MLIR engineer writes). The result must be
# smaller in bytes and lines, parse and verify (mlir-opt-14), still be
# interesting, keep the input's lines (no two run into one), and have
# lost what the test does not need: the other functions, and the
# operations whose values it used only once their uses were rewired.
source "$(dirname "$0")/../lib.sh"
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"

for f in /usr/lib/llvm-14/lib/libMLIR.so /usr/bin/mlir-opt-14; do
	[ -e "$f" ] || { not_ok "$f is installed" \
		"scripts/install-deps installs libmlir-14-dev and mlir-14-tools"; \
		done_testing; exit 1; }
done
REAL=${IRSNAP_REAL:-$BUILD/real}
MLIR_OPT=$REAL/mlir/bin/irsnap-mlir-opt
out=$(make -s -C "$IRSNAP_ROOT" BUILD="$BUILD" mlir-opt 2>&1)
check "make mlir-opt builds the release MLIR tool ($out)" test -x "$MLIR_OPT"

# the bench's case (make bench-reduce sets it beside mlir-reduce-14)
CASE=$FIXTURES/reduce/cases/mlir-loop-mulf
input=$CASE/input.mlir
export MLIR_OPT
check "the input is interesting" "$CASE/test.sh" "$input"
res=$TMP/out.mlir
"$IRSNAP" reduce "$input" --test "$CASE/test.sh {}" -j 2 -o "$res" \
	>"$TMP/log" 2>&1
check_eq "irsnap reduce exits 0 ($(tail -1 "$TMP/log"))" 0 "$?"
check "the result is still interesting" "$CASE/test.sh" "$res"
check "the result parses and verifies (mlir-opt-14)" \
	mlir-opt-14 "$res" -o /dev/null
in_b=$(wc -c <"$input") out_b=$(wc -c <"$res")
in_l=$(wc -l <"$input") out_l=$(wc -l <"$res")
check "smaller in bytes ($in_b -> $out_b)" test "$out_b" -lt "$((in_b / 5))"
check "smaller in lines ($in_l -> $out_l)" test "$out_l" -lt "$((in_l / 5))"
check_eq "one function left" 1 "$(grep -c '"builtin.func"' "$res")"
# what rewiring operands buys: the multiply's operands are block
# arguments or values the loops need, nothing computed for it alone
check "no operation the loop does not need (memref.load, arith.cmpf, scf.if)" \
	sh -c "! grep -qE '\"(memref.load|arith.cmpf|scf.if|arith.negf)\"' '$res'"
check "the result keeps the input's lines" \
	python3 "$IRSNAP_ROOT/scripts/joined_lines.py" "$input" "$res"
figure "MLIR: $in_l -> $out_l lines, $in_b -> $out_b bytes, $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/log") tests"

# Block arguments (issue 29 item 4): a branch passes values to blocks that
# do not use them once the test needs only the multiply; each goes with
# the operand every branch passes it (cond_br's segment sizes shrink).
cat >"$TMP/ba.mlir" <<'EOF'
func @f(%a: i32, %c: i1) -> i32 {
  %one = arith.constant 1 : i32
  %x = arith.addi %a, %one : i32
  cond_br %c, ^bb1(%x, %a : i32, i32), ^bb2(%a : i32)
^bb1(%p: i32, %q: i32):
  %y = arith.muli %p, %p : i32
  br ^bb2(%y : i32)
^bb2(%r: i32):
  return %a : i32
}
EOF
mlir-opt-14 --mlir-print-op-generic "$TMP/ba.mlir" -o "$TMP/ba-gen.mlir"
cat >"$TMP/ba-test.sh" <<'EOF'
#!/bin/sh
mlir-opt-14 "$1" -o - 2>/dev/null | grep -q "arith.muli"
EOF
chmod +x "$TMP/ba-test.sh"
"$IRSNAP" reduce "$TMP/ba-gen.mlir" --test "$TMP/ba-test.sh {}" -j 2 \
	-o "$TMP/ba-out.mlir" >"$TMP/ba.log" 2>&1
check_eq "block arguments: irsnap reduce exits 0 ($(tail -1 "$TMP/ba.log"))" 0 "$?"
check "... the result is interesting and verifies" "$TMP/ba-test.sh" "$TMP/ba-out.mlir"
# the labels of the blocks after the entry: only the multiply's operand
check_eq "... every block argument left is used (the multiply's)" \
	"^bb1(%1:i32): ^bb2:" \
	"$(grep -oE '^ *\^bb[1-9][0-9]*(\([^)]*\))?:' "$TMP/ba-out.mlir" | tr -d ' ' | tr '\n' ' ' | sed 's/ $//')"
check "... the branch to the block without arguments passes none" \
	grep -qF '"std.br"()[^bb2] : () -> ()' "$TMP/ba-out.mlir"

done_testing
