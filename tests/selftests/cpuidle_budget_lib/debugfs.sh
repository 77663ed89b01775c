# SPDX-License-Identifier: GPL-2.0
#
# The project's debugfs tables, read by column name and never by number,
# so that a column added or moved cannot silently feed a test another
# column: cpuidle_budget/stats and packages, emul_idle/cpus and
# x86/fake_hybrid each have a header line that names the columns, then one
# row per CPU or package, keyed by the first column. The key/value files
# (emul_idle/platform, emul_blk/stats) are read by key where used.
# Sourced, not run.

# table_rows FILE ROW COLUMN...: the named columns, in the order given, of
# the row of FILE whose first field is ROW, or of every row for ROW "*",
# one row a line. Prints nothing and fails when FILE cannot be read or its
# header lacks a COLUMN.
table_rows() {
	local file=$1 row=$2
	shift 2
	[ -r "$file" ] || return 1
	awk -v names="$*" -v row="$row" '
		NR == 1 {
			n = split(names, want, " ")
			for (i = 1; i <= NF; i++)
				col[$i] = i
			for (j = 1; j <= n; j++)
				if (!(want[j] in col))
					exit 1
			next
		}
		row == "*" || $1 == row {
			line = $col[want[1]]
			for (j = 2; j <= n; j++)
				line = line " " $col[want[j]]
			print line
		}' "$file"
}

# table_col FILE COLUMN [ROW]: column COLUMN of every row of FILE, one
# value a line; with ROW, of the row whose first field is ROW only.
table_col() {
	table_rows "$1" "${3:-*}" "$2"
}

# table_cols FILE COLUMN...: the named columns of every row of FILE, in
# the order given, one row a line.
table_cols() {
	local file=$1
	shift
	table_rows "$file" "*" "$@"
}

# table_sum FILE COLUMN: the sum of column COLUMN over every row, a whole
# number; fails as table_rows does.
table_sum() {
	local v
	v=$(table_col "$1" "$2") || return 1
	echo "$v" | awk '{ s += $1 } END { printf "%d\n", s }'
}
