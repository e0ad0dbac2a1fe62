#!/bin/sh
# A stand-in for a training run: the Branin function of x and y, reported
# with the result protocol (DESIGN.md §2.3). A real objective would train a
# model with these hyper-parameters and print its validation loss.
awk -v x="$1" -v y="$2" 'BEGIN {
	pi = atan2(0, -1)
	b = 5.1 / (4 * pi * pi); c = 5 / pi; t = 1 / (8 * pi)
	f = (y - b * x * x + c * x - 6) ^ 2 + 10 * (1 - t) * cos(x) + 10
	print "BOA_RESULT", f
}'
