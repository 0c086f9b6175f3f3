#!/usr/bin/env bash
# The reducer's def-use repair on IR text (issue 17): what a deletion must
# rewrite besides the deleted lines for the candidate to still parse.
# Small inputs, plain text: these run in `make test`. The reducer's own
# model is what they test, so LLVM's verifier and printer, which the last
# section tests, are off (--no-print).
source "$(dirname "$0")/../lib.sh"
export TMPDIR="$TMP/tmp"
mkdir -p "$TMPDIR"
NUMBERS=$FIXTURES/reduce/llvm_numbers.awk

# ---- LLVM's unnamed values: a deletion renumbers the %N after it ---------
# LLVM numbers unnamed values and blocks in one sequence per function, and
# its parser rejects a gap ("instruction expected to be numbered '%5'").
# llvm_numbers.awk checks that rule as opt-14 does. The test wants the xor
# returned; everything before it is dead, so only renumbering lets it go.
cat >"$TMP/num.ll" <<'IR'
; the value a test needs sits after unnamed values and blocks it does not
define i32 @f(i32 %0) {
  %2 = add i32 %0, 1
  %3 = mul i32 %2, 3
  br label %4

4:
  %5 = sub i32 %3, %0
  %6 = icmp eq i32 %5, 0
  br i1 %6, label %7, label %9

7:
  %8 = xor i32 %0, 7
  ret i32 %8

9:
  ret i32 %5
}
IR
cat >"$TMP/num.sh" <<EOF
#!/bin/sh
awk -f "$NUMBERS" "\$1" 2>/dev/null || exit 1
grep -qx 'define i32 @f(i32 %0) {' "\$1" || exit 1
n=\$(sed -n 's/^ *%\([0-9]*\) = xor i32 %0, 7\$/\1/p' "\$1" | head -1)
[ -n "\$n" ] && grep -q "^ *ret i32 %\$n\\\$" "\$1" && grep -q '^}' "\$1"
EOF
check "the input is interesting" sh "$TMP/num.sh" "$TMP/num.ll"
"$IRSNAP" reduce "$TMP/num.ll" --no-print --test "sh $TMP/num.sh {}" -j 2 -o "$TMP/num.out" \
	>"$TMP/num.log" 2>&1
check_eq "reduce on numbered LLVM values exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/num.sh" "$TMP/num.out"
check "the result keeps LLVM's numbering" awk -f "$NUMBERS" "$TMP/num.out"
want=$(printf 'define i32 @f(i32 %%0) {\n  %%2 = xor i32 %%0, 7\n  ret i32 %%2\n}')
check_eq "the dead values and blocks are gone, the xor renumbered %2" \
	"$want" "$(cat "$TMP/num.out")"
figure "numbered LLVM values: $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/num.log") tests"

# ---- a chain of adds the failure needs in full, folded to one line ------
# calc.awk's check fails when %p reaches 1000: no single add may go, and
# deleting lines or tokens leaves all 30. Folding a chain into one line
# (its constants summed) keeps the value: the definitions merge into
# their uses. (The comment line makes '#' the comment marker, so "# step"
# is known for one.)
{
	printf '# calc: %%p reaches 1200 in 30 steps\n'
	printf 'func @main {\n@entry:\n  %%p = const 0\n  %%n = const 5\n  print %%n\n'
	for i in $(seq 30); do printf '  %%p = add %%p, 40   # step %s\n' "$i"; done
	printf '  print %%p\n  check %%p\n  ret\n}\n'
} >"$TMP/chain.calc"
cat >"$TMP/chain.sh" <<EOF
#!/bin/sh
awk -f "$FIXTURES/reduce/calc.awk" "\$1" >/dev/null 2>"\$1.err"
[ \$? -eq 3 ] && grep -q '^check failed' "\$1.err"
EOF
check "the chain input is interesting" sh "$TMP/chain.sh" "$TMP/chain.calc"
"$IRSNAP" reduce "$TMP/chain.calc" --test "sh $TMP/chain.sh {}" -j 2 \
	-o "$TMP/chain.out" >"$TMP/chain.log" 2>&1
check_eq "reduce on the chain exits 0" 0 "$?"
check "the result still fails the check" sh "$TMP/chain.sh" "$TMP/chain.out"
check_eq "the 30 adds are one, their constants summed" \
	"1 1200" "$(grep -c ' = add ' "$TMP/chain.out") $(sed -n 's/.* = add .*, \([0-9]*\)$/\1/p' "$TMP/chain.out")"
n=$(wc -l <"$TMP/chain.out")
if [ "$n" -le 4 ]; then ok "the result has $n lines (<= 4)"
else not_ok "the result has at most 4 lines" "it has $n" "$(cat "$TMP/chain.out")"; fi
figure "chain of 30 adds: $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/chain.log") tests"

# ---- an operand to another operand: one of two equal loads goes ---------
# The test wants a shl and a lshr of loaded values (what instcombine makes
# a rotate of); the input loads the same address twice. Neither load can
# go as such (its use would become 0, no load), but the lshr may use the
# first load, and the second load goes with its last use.
cat >"$TMP/two.ll" <<'IR'
define i32 @rotl3(i32 %0) {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4
  %3 = load i32, i32* %2, align 4
  %4 = shl i32 %3, 3
  %5 = load i32, i32* %2, align 4
  %6 = lshr i32 %5, 29
  %7 = or i32 %4, %6
  ret i32 %7
}
IR
cat >"$TMP/two.sh" <<EOF
#!/bin/sh
awk -f "$NUMBERS" "\$1" 2>/dev/null || exit 1
grep -qx 'define i32 @rotl3(i32 %0) {' "\$1" && grep -q '^}' "\$1" || exit 1
awk '\$2 == "=" && \$3 == "load" { load[\$1] = 1 }
	\$3 == "shl" && \$6 == "3" { sub(/,/, "", \$5); shl = \$5 }
	\$3 == "lshr" && \$6 == "29" { sub(/,/, "", \$5); lshr = \$5 }
	END { exit !((shl in load) && (lshr in load)) }' "\$1"
EOF
check "the two-load input is interesting" sh "$TMP/two.sh" "$TMP/two.ll"
"$IRSNAP" reduce "$TMP/two.ll" --no-print --test "sh $TMP/two.sh {}" -j 2 -o "$TMP/two.out" \
	>"$TMP/two.log" 2>&1
check_eq "reduce on two loads exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/two.sh" "$TMP/two.out"
check_eq "one load is left, the shl and the lshr use it" \
	"1 %3 %3" "$(grep -c ' = load ' "$TMP/two.out")$(awk '$3 == "shl" || $3 == "lshr" { sub(/,/, "", $5); printf " %s", $5 }' "$TMP/two.out")"
figure "two loads: $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/two.log") tests"

# ---- a parameter dropped with the argument of every call ----------------
# @helper uses one of its three parameters. Cutting one argument list
# alone breaks the call (the test checks argument counts as LLVM's
# verifier does); the parameter and every call's argument go together, an
# unnamed %N taking the numbers after it one down.
cat >"$TMP/args.ll" <<'IR'
define i32 @helper(i32 %0, i32 %1, i32 %2) {
  %4 = mul i32 %1, 3
  ret i32 %4
}

define i32 @main(i32 %0) {
  %2 = call i32 @helper(i32 7, i32 %0, i32 9)
  %3 = call i32 @helper(i32 1, i32 %2, i32 2)
  ret i32 %3
}
IR
cat >"$TMP/args.sh" <<EOF
#!/bin/sh
awk -f "$NUMBERS" "\$1" 2>/dev/null || exit 1
grep -q '^define i32 @main(' "\$1" && grep -q '^}' "\$1" || exit 1
grep -q '= mul i32 %[0-9]*, 3\$' "\$1" || exit 1
awk 'function nargs(s) { sub(/^[^(]*\(/, "", s); sub(/\).*/, "", s)
		return s ~ /^ *\$/ ? 0 : split(s, x, ",") }
	/^define i32 @helper\(/ { want = nargs(\$0); defs++ }
	/= call i32 @helper\(/ { got[calls++] = nargs(\$0) }
	END { if (defs != 1 || calls < 2) exit 1
		for (i = 0; i < calls; i++) if (got[i] != want) exit 1 }' "\$1"
EOF
check "the three-parameter input is interesting" sh "$TMP/args.sh" "$TMP/args.ll"
"$IRSNAP" reduce "$TMP/args.ll" --no-print --test "sh $TMP/args.sh {}" -j 2 -o "$TMP/args.out" \
	>"$TMP/args.log" 2>&1
check_eq "reduce on the parameters exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/args.sh" "$TMP/args.out"
check_eq "@helper takes one parameter, each call passes one argument" \
	"0 0 0" "$(grep -E '^define i32 @helper\(|= call i32 @helper\(' "$TMP/args.out" | awk '{ print gsub(/,/, ",") }' | xargs)"
check "the parameter left is %0, and the mul uses it" grep -q '= mul i32 %0, 3$' "$TMP/args.out"
figure "dropped parameters: $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/args.log") tests"

# ---- a pointer operand's constant is null --------------------------------
# The test wants a store of the parameter; its address may be any pointer.
# "i32* 0" does not parse (LLVM: integer constant must have integer type),
# so the alloca could not go before; "i32* null" does.
cat >"$TMP/ptr.ll" <<'IR'
define void @keep(i32 %0) {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4
  ret void
}
IR
cat >"$TMP/ptr.sh" <<EOF
#!/bin/sh
awk -f "$NUMBERS" "\$1" 2>/dev/null || exit 1
! grep -q '\* 0' "\$1" || exit 1	# as LLVM's parser
grep -qx 'define void @keep(i32 %0) {' "\$1" && grep -q '^}' "\$1" &&
	grep -q '^ *store i32 %0, i32\* ' "\$1"
EOF
check "the store input is interesting" sh "$TMP/ptr.sh" "$TMP/ptr.ll"
"$IRSNAP" reduce "$TMP/ptr.ll" --no-print --test "sh $TMP/ptr.sh {}" -j 2 -o "$TMP/ptr.out" \
	>"$TMP/ptr.log" 2>&1
check_eq "reduce on the store exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/ptr.sh" "$TMP/ptr.out"
check "the alloca is gone, the store is to null" \
	sh -c "! grep -q alloca '$TMP/ptr.out' && grep -q 'i32\\* null' '$TMP/ptr.out'"

# ---- LLVM IR: tokens its syntax cannot lose are not cut -------------------
# In LLVM IR an instruction cannot lose its type, opcode, an operand or a
# comma and still parse; trying each of them one by one was most of the
# tokens pass's tests. Here only the "nsw" flags may go (the test is a
# strict grammar of this input's lines): the tokens pass cuts them, and
# spends few tests on anything else.
{
	echo 'define i32 @f(i32 %a, i32 %b) {'
	printf '  %%v1 = mul nsw i32 %%a, %%b\n'
	for i in $(seq 2 12); do printf '  %%v%d = mul nsw i32 %%v%d, %%b\n' "$i" $((i - 1)); done
	echo '  ret i32 %v12'
	echo '}'
} >"$TMP/fix.ll"
cat >"$TMP/fix.sh" <<'EOF'
#!/bin/sh
[ "$(grep -cE '^  %v[0-9]+ = mul (nsw )?i32 %[a-z0-9]+, %b$' "$1")" -eq 12 ] &&
	grep -qx 'define i32 @f(i32 %a, i32 %b) {' "$1" &&
	grep -qx '  ret i32 %v12' "$1" && grep -qx '}' "$1" &&
	[ "$(wc -l <"$1")" -eq 15 ]
EOF
check "the nsw input is interesting" sh "$TMP/fix.sh" "$TMP/fix.ll"
IRSNAP_DEBUG=R "$IRSNAP" reduce "$TMP/fix.ll" --no-print --test "sh $TMP/fix.sh {}" -j 2 \
	-o "$TMP/fix.out" >"$TMP/fix.log" 2>"$TMP/fix.err"
check_eq "reduce on the nsw input exits 0" 0 "$?"
check_eq "every nsw went, nothing else" "$(sed 's/ nsw//' "$TMP/fix.ll")" "$(cat "$TMP/fix.out")"
tok=$(sed -n 's/^reduce: pass tokens: \([0-9]*\) tests.*/\1/p' "$TMP/fix.err")
check "the tokens pass spent few tests (${tok:-?} <= 12; each of 60 types, opcodes, operands and commas once was 40 more)" \
	test "${tok:-99}" -le 12
figure "LLVM tokens: ${tok:-?} tests in the tokens pass"
# Deleting a line that assigns a value used further on, or a numbered one
# (a gap in the numbers), or half a function's braces, never parses: the
# units pass deletes values with their uses repaired, the lines pass
# leaves them (before: one test per line and per chunk, 39 here).
ln=$(sed -n 's/^reduce: pass lines: \([0-9]*\) tests.*/\1/p' "$TMP/fix.err")
check "the lines pass tried no line the IR cannot lose (${ln:-?} <= 3)" test "${ln:-99}" -le 3
# The nsw cuts change no definition, use or unit: the steps that found
# nothing in round 1 are not run again in round 2 (before: 23 tests of
# delete-units, 28 of other-operands, 48 of const-operands...).
check "round 2 runs no step that found nothing (only optional words went)" \
	sh -c "! grep -qE '^reduce: round 2 pass (delete-units|other-operands|const-operands|lines|arguments): [1-9]' '$TMP/fix.err'"

# ---- LLVM IR: a named type is no value ---------------------------------
# "%T = type {...}" defines a type: its uses (%T* in its own definition,
# alloca %T) cannot become the constant 0 as a value's can; the test
# counts such candidates.
cat >"$TMP/ty.ll" <<'IR'
%T = type { i32, %T* }

define i32 @f(i32 %0) {
  %2 = alloca %T, align 8
  %3 = getelementptr %T, %T* %2, i32 0, i32 0
  store i32 %0, i32* %3, align 4
  %4 = load i32, i32* %3, align 4
  %5 = add i32 %4, 7
  ret i32 %5
}
IR
cat >"$TMP/ty.sh" <<EOF
#!/bin/sh
if grep -qE '(alloca|getelementptr) 0|0\\*' "\$1"; then echo "\$1" >>"$TMP/ty.bad"; exit 1; fi
grep -q '^%T = type {' "\$1" && grep -q 'alloca %T' "\$1" &&
	awk -f "$NUMBERS" "\$1" 2>/dev/null && grep -q 'add i32 %[0-9]*, 7' "\$1" &&
	grep -q '^ *ret i32 %' "\$1"
EOF
rm -f "$TMP/ty.bad"
check "the named-type input is interesting" sh "$TMP/ty.sh" "$TMP/ty.ll"
"$IRSNAP" reduce "$TMP/ty.ll" --no-print --test "sh $TMP/ty.sh {}" -j 2 -o "$TMP/ty.out" \
	>"$TMP/ty.log" 2>&1
check_eq "reduce on the named type exits 0" 0 "$?"
check "no candidate had a type turned into 0" test ! -e "$TMP/ty.bad"
check "the result is still interesting" sh "$TMP/ty.sh" "$TMP/ty.out"

# ---- LLVM IR: a block never loses its terminator alone --------------------
# A block without its br or ret does not parse ("block does not have
# terminator"): deleting units tries no terminator alone (it goes with its
# block, or when blocks merge). The test counts candidates that are the
# input less one terminator line; nothing may go here.
cat >"$TMP/term.ll" <<'IR'
define i32 @f(i32 %0) {
  %2 = add i32 %0, 1
  br label %3

3:
  %4 = mul i32 %2, 3
  br label %5

5:
  %6 = sub i32 %4, 2
  br label %7

7:
  %8 = xor i32 %6, 5
  ret i32 %8
}
IR
cat >"$TMP/term.sh" <<EOF
#!/bin/sh
d=\$(diff "$TMP/term.ll" "\$1" | grep '^[<>]')
if [ "\$(printf '%s\n' "\$d" | wc -l)" -eq 1 ] &&
	printf '%s\n' "\$d" | grep -qE '^< +(br|ret) '; then
	echo "\$1" >>"$TMP/term.bad"
fi
cmp -s "$TMP/term.ll" "\$1"
EOF
rm -f "$TMP/term.bad"
"$IRSNAP" reduce "$TMP/term.ll" --no-print --test "sh $TMP/term.sh {}" -j 2 -o "$TMP/term.out" \
	>"$TMP/term.log" 2>&1
check_files_eq "nothing goes from the strict input" "$TMP/term.ll" "$TMP/term.out"
check "no candidate was the input less one terminator" test ! -e "$TMP/term.bad"

# ---- LLVM IR: an instruction's operands are not trailing items ------------
# ", i32* %2" of a store, ", %0" of an add: an instruction's operand count
# is fixed, so the arguments pass cuts none of them alone (a
# getelementptr's indices excepted); ", align 4" it does cut. The test
# counts candidates that lost an operand.
cat >"$TMP/op.ll" <<'IR'
define i32 @f(i32 %0) {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4
  %3 = load i32, i32* %2, align 4
  %4 = add i32 %3, %0
  ret i32 %4
}
IR
sed 's/, align 4$//' "$TMP/op.ll" >"$TMP/op.want"
cat >"$TMP/op.sh" <<EOF
#!/bin/sh
if grep -qE '^  (store i32 %0|%3 = load i32|%4 = add i32 %3)(, align 4)?\$' "\$1"; then
	echo "\$1" >>"$TMP/op.bad"; exit 1
fi
sed 's/, align 4\$//' "\$1" | cmp -s - "$TMP/op.want"
EOF
rm -f "$TMP/op.bad"
"$IRSNAP" reduce "$TMP/op.ll" --no-print --test "sh $TMP/op.sh {}" -j 2 -o "$TMP/op.out" \
	>"$TMP/op.log" 2>&1
check_files_eq "every ', align 4' went, nothing else" "$TMP/op.want" "$TMP/op.out"
check "no candidate lost an instruction's operand" test ! -e "$TMP/op.bad"

# ---- LLVM IR through LLVM's own tools (issue 30) --------------------------
# Debian's llvm-14 is there (scripts/install-deps): candidates go through
# opt-14 -S first, those it rejects are not tested, a body the test does not
# need goes whole (the function declared, its call kept), and the result is
# written as opt-14 -S writes it, one instruction a line, "%N = " and block
# labels and all, less the "; ModuleID" and comment lines it adds.
for t in llvm-as-14 opt-14; do
	command -v $t >/dev/null || not_ok "$t is installed" "scripts/install-deps installs llvm-14"
done
cat >"$TMP/tools.ll" <<'IR'
define internal i32 @helper(i32 %0) {
  %2 = mul i32 %0, 3
  %3 = add i32 %2, 1
  ret i32 %3
}

define i32 @f(i32 %0) {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4
  %3 = load i32, i32* %2, align 4
  %4 = icmp sgt i32 %3, 10
  br i1 %4, label %5, label %8

5:                                                ; preds = %1
  %6 = load i32, i32* %2, align 4
  %7 = shl i32 %6, 4
  ret i32 %7

8:                                                ; preds = %1
  %9 = call i32 @helper(i32 %3)
  ret i32 %9
}

define i32 @unrelated(i32 %0) {
  %2 = sdiv i32 %0, 7
  ret i32 %2
}
IR
cat >"$TMP/tools.sh" <<'EOF'
#!/bin/sh
grep -q 'call i32 @helper' "$1" &&
	opt-14 -passes=instcombine -S "$1" -o - 2>/dev/null | grep -q 'shl i32'
EOF
check "the input is interesting" sh "$TMP/tools.sh" "$TMP/tools.ll"
"$IRSNAP" reduce "$TMP/tools.ll" --test "sh $TMP/tools.sh {}" -j 2 \
	-o "$TMP/tools.out" >"$TMP/tools.log" 2>&1
check_eq "reduce with LLVM's tools exits 0" 0 "$?"
check "the result is still interesting" sh "$TMP/tools.sh" "$TMP/tools.out"
check "llvm-as-14 accepts it" llvm-as-14 -o /dev/null "$TMP/tools.out"
check "candidates the printer rejected were not tested" \
	grep -qE '; [1-9][0-9]* candidates the printer rejected, untested$' "$TMP/tools.log"
check "@helper's body went, its declaration stays" \
	sh -c "grep -q '^declare i32 @helper(' '$TMP/tools.out' && ! grep -q 'mul i32' '$TMP/tools.out'"
opt-14 -S "$TMP/tools.out" -o "$TMP/tools.opt" 2>/dev/null
check_eq "the result is as opt-14 -S writes it (less its comment lines)" \
	"$(grep -v '^;\|^source_filename' "$TMP/tools.opt" | sed '/./,$!d')" \
	"$(cat "$TMP/tools.out")"
expect_rc "no line of it runs two of the input's together" 0 \
	python3 scripts/joined_lines.py "$TMP/tools.ll" "$TMP/tools.out"
figure "LLVM IR with its tools: $(sed -n 's/^reduced .* bytes, \([0-9]*\) tests.*/\1/p' "$TMP/tools.log") tests"

# ---- opt's own library, in server processes (issue 30) ---------------------
# The candidates go through libLLVM's C API beside opt-14 in -j servers,
# not an opt process each: what the test sees must be what opt -S writes
# (each candidate a fixed point of opt -S, the comment and source_filename
# lines it adds aside: the input and the result as written are tested too), and
# the reduction the same, test for test, as through the opt program alone
# (an opt-14 with no libLLVM beside it, so no library to load).
cat >"$TMP/fixed.sh" <<EOF
#!/bin/sh
opt-14 -S "\$1" -o - 2>/dev/null | grep -v '^;\|^source_filename' |
	sed '/./,\$!d' >"\$1.opt"
grep -v '^;\|^source_filename' "\$1" | sed '/./,\$!d' | cmp -s - "\$1.opt" ||
	echo "\$1" >>"$TMP/fixed.bad"
exec sh "$TMP/tools.sh" "\$1"
EOF
rm -f "$TMP/fixed.bad"
IRSNAP_DEBUG=R "$IRSNAP" reduce "$TMP/tools.ll" --test "sh $TMP/fixed.sh {}" \
	-j 2 -o "$TMP/lib.out" >"$TMP/lib.log" 2>&1
check_eq "reduce through opt's library exits 0" 0 "$?"
check "the library printed the candidates, in two servers" \
	grep -q 'printer: its library in 2 processes' "$TMP/lib.log"
check "every candidate the test saw is as opt-14 -S writes it" \
	test ! -e "$TMP/fixed.bad"
mkdir -p "$TMP/nolib/bin"
printf '#!/bin/sh\nexec /usr/bin/opt-14 "$@"\n' >"$TMP/nolib/bin/opt-14"
chmod +x "$TMP/nolib/bin/opt-14"
PATH="$TMP/nolib/bin:$PATH" IRSNAP_DEBUG=R "$IRSNAP" reduce "$TMP/tools.ll" \
	--test "sh $TMP/fixed.sh {}" -j 2 -o "$TMP/prog.out" >"$TMP/prog.log" 2>&1
check_eq "reduce through the opt program alone exits 0" 0 "$?"
check "the opt with no libLLVM beside it printed every candidate itself" \
	sh -c "grep -q 'printer: $TMP/nolib/bin/opt-14\$' '$TMP/prog.log' && ! grep -q 'its library' '$TMP/prog.log'"
check_files_eq "the same result either way" "$TMP/prog.out" "$TMP/lib.out"
check_eq "the same tests and rejected candidates either way" \
	"$(grep '^tests: ' "$TMP/prog.log")" "$(grep '^tests: ' "$TMP/lib.log")"

# ---- operands to the function's arguments (issue 30) -----------------------
# clang -O0 stores each argument and loads it back for every use; what a
# test needs of such a function is the arithmetic on the argument itself.
# A use becomes a parameter written with its type (llvm-reduce's
# operands-to-args), also a use an earlier step already sent to another
# load, so the loads, the store and the alloca all go. (two.ll above, and
# a test of instcombine's own.)
cat >"$TMP/toargs.sh" <<'EOF'
#!/bin/sh
opt-14 -passes=mem2reg,instcombine -S "$1" -o - 2>/dev/null |
	grep -q 'call i32 @llvm.fshl.i32'
EOF
cat >"$TMP/toargs.want" <<'IR'
define i32 @rotl3(i32 %0) {
  %2 = shl i32 %0, 3
  %3 = lshr i32 %0, 29
  %4 = or i32 %2, %3
  ret i32 %4
}
IR
check "the rotate is interesting" sh "$TMP/toargs.sh" "$TMP/two.ll"
"$IRSNAP" reduce "$TMP/two.ll" --test "sh $TMP/toargs.sh {}" -j 2 \
	-o "$TMP/toargs.out" >"$TMP/toargs.log" 2>&1
check_eq "reduce of the rotate exits 0" 0 "$?"
check_files_eq "both loads of the argument became the argument, nothing else is left" \
	"$TMP/toargs.want" "$TMP/toargs.out"

done_testing
