# user-stacks.awk: `perf script -F comm,ip,sym,dso` of a recording with callchains -> one
# "COUNT STACK" line per distinct user stack (symbols leaf first, joined by ';') of the
# samples that ran in a built-in workload (a workload__* frame), then "COUNT TOTAL".
# Kernel and unresolved frames are left out: they vary with timing and the kernel, the
# workload's own call structure does not.
function flush() {
	if (insample && stack ~ /(^|;)workload__/) {
		n++
		count[stack]++
	}
	stack = ""
	insample = 0
}
/^\t/ {
	line = $0
	sub(/^\t *[0-9a-f]+ /, "", line)
	dso = line
	sub(/.* \(/, "", dso)
	sub(/\)$/, "", dso)
	sym = line
	sub(/ \([^(]*\)$/, "", sym)
	if (dso ~ /^\[kernel/ || dso == "[unknown]" || sym == "[unknown]")
		next
	stack = stack (stack == "" ? "" : ";") sym
	next
}
/^$/ { flush(); next }
{ flush(); insample = 1 }
END {
	flush()
	for (s in count)
		printf "%d %s\n", count[s], s
	printf "%d TOTAL\n", n
}
