# bash completion for irsnap(1): its commands, each command's options, and
# files or directories where an operand goes. Installed as
# $(PREFIX)/share/bash-completion/completions/irsnap (bash-completion loads
# it on first use); to try it from a tree: source scripts/irsnap-completion.bash
_irsnap()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmds="reduce replay merge show diff report validate help"
	local cmd="" i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
		return
	fi
	local opts="" dirs=0
	case $cmd in
	reduce)
		opts="--test --crash --verifier --problem --broken --test-arg
		      -o --output -j --jobs --timeout --retries --layout --exe
		      --trust --comment --label --expect-crash --expect-check
		      --help" ;;
	replay)
		opts="--runs -j --jobs --shard --stop-after-failures --debugger
		      --layout --trace --reduce --all --timeout --dir --help" ;;
	merge) opts="-o --output --reduce --help"; dirs=1 ;;
	show) opts="--json --help"; dirs=1 ;;
	diff) opts="--json --help" ;;
	report) opts="-o --output --help"; dirs=1 ;;
	validate) opts="--json --help" ;;
	help)
		COMPREPLY=($(compgen -W "$cmds debugger settings ir-layout
			ir-dump ir-break ir-trace ir-verify ir-report ir-status
			ir-set" -- "$cur"))
		return ;;
	esac
	# values of options
	case $prev in
	--debugger) COMPREPLY=($(compgen -W "gdb lldb" -- "$cur")); return ;;
	--layout) COMPREPLY=($(compgen -f -X '!*.lua' -- "$cur")
			     $(compgen -d -- "$cur")); return ;;
	-o|--output|--dir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--test|--crash|--verifier|--exe)
		COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
		return ;;
	--runs|-j|--jobs|--timeout|--retries|--shard|--stop-after-failures|\
	--trace|--reduce|--problem|--broken|--comment|--label|--test-arg|\
	--expect-crash|--expect-check)
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [ "$dirs" = 1 ]; then
		COMPREPLY=($(compgen -d -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -F _irsnap irsnap
