#!/usr/bin/env bash
# Prints, for a boa binary, the results a refactor must not change (issue 33):
# the 60 runs of ../shared/baselines/f807ea5-runs.txt, an NB201 study of
# nasbowl and auto from a study file, and the best-so-far curves of every
# registered sampler on a continuous, a mixed and a tabular problem (boa
# bench, one worker and a batch of 4). Run it with the binaries before and
# after a change and diff the outputs:
#
#   go build -o /tmp/boa-old ./cmd/boa   # at the old commit
#   go build -o /tmp/boa-new ./cmd/boa   # at the new one
#   bash scripts/same-results.sh /tmp/boa-old > old.txt
#   bash scripts/same-results.sh /tmp/boa-new > new.txt
#   diff old.txt new.txt && echo same
#
# About 6 minutes on 2 cores; needs ../shared (baselines, data/nb201) and jq.
set -euo pipefail
boa=$(realpath "$1")
cd "$(dirname "$0")/.."
shared=../shared
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# boa run --function F --trials 40 --sampler S --seed K --json: S F K best_value"
grep -v '^#' "$shared/baselines/f807ea5-runs.txt" | while read -r s f k _; do
	printf '%s %s %s %s\n' "$s" "$f" "$k" "$("$boa" run --function "$f" --trials 40 --sampler "$s" --seed "$k" --json | jq -r .best_value)"
done

echo "# examples/nas/nb201.yaml, one worker, 40 trials: sampler seed best_value"
for s in nasbowl auto; do
	for k in 1 2; do
		sed -e "s/^sampler: .*/sampler: $s/" -e "s/^seed: .*/seed: $k/" -e "s/^name: .*/name: nb201-$s-$k/" examples/nas/nb201.yaml >"$tmp/nb201.yaml"
		"$boa" run "$tmp/nb201.yaml" --workers 1 --trials 40 --storage "sqlite:$tmp/boa.db" >/dev/null 2>&1
		printf '%s %s %s\n' "$s" "$k" "$("$boa" best "nb201-$s-$k" --storage "sqlite:$tmp/boa.db" --json | jq -c '[.value, .params]')"
	done
done

all=$("$boa" run --help | sed -n 's/^Samplers: *//p' | tr -d ' ')
graph=001-bo-edge,001-bo-gcn,001-bo-wl,graph-lcb-edge,graph-lcb-gcn,graph-lcb-wl,ls,nasbowl,nasbowl-edge,nasbowl-gcn,nasbowl-r,nasbowl-ucb,nasbowl-vh,re,rs
notgraph=$(echo "$all" | tr , '\n' | grep -vxF -f <(echo "$graph" | tr , '\n') | paste -sd,)
curves() { jq -c '.results[] | [.problem, .sampler, .seed, .best]' | sed 's/"001-bo-/"graph-lcb-/' | sort; }  # 001-bo-* is graph-lcb-* since issue 33
echo "# boa bench: problem sampler seed best-so-far"
"$boa" bench --problems branin,func3c --samplers "$notgraph" --seeds 2 --budget 25 --json --parallel 2 2>/dev/null | curves
"$boa" bench --problems hartmann3 --samplers "$notgraph" --seeds 1 --budget 24 --batch 4 --json --parallel 2 2>/dev/null | curves
"$boa" bench --problems ackley:3 --samplers "$notgraph" --seeds 1 --budget 24 --workers 3 --json --parallel 2 2>/dev/null | curves
"$boa" bench --table "nb201:$shared/data/nb201/cifar10.csv" --samplers "$all" --seeds 2 --budget 25 --json --parallel 2 2>/dev/null | curves
