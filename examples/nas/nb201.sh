#!/bin/sh
# Reports the validation error (100 − mean validation accuracy, percent) of
# the NB201 cell whose arch string is $1, read from the CIFAR-10 table
# (NB201_TABLE, default ../shared/data/nb201/cifar10.csv): a stand-in for
# training the cell. Column 6 is valid_acc_mean.
table=${NB201_TABLE:-../shared/data/nb201/cifar10.csv}
[ -r "$table" ] || { echo "NB201 table $table not found; set NB201_TABLE" >&2; exit 2; }
exec awk -F, -v arch="$1" '$2 == arch { print "BOA_RESULT", 100 - $6; found = 1; exit } END { if (!found) { print "cell " arch " not in the table" > "/dev/stderr"; exit 1 } }' "$table"
