#!/usr/bin/env bash
# The svm_digits comparison of README.md: each method of spec
# gp-and-acquisitions §9.4 (EI and MES marginalised over 50 ESS samples,
# FITBO and FITBO-MM with 50) tunes svm_digits.yaml for TRIALS trials with SEEDS
# seeds; for every run it prints the best observed 5-fold CV error and the
# error at the model's recommendation x̂ = argmin μ (boa best --model,
# evaluated once more: the CV split is fixed, so the error is exact).
# Usage, from the repository root, with boa and a python3 with
# scikit-learn on PATH:  bash examples/infotheoretic/compare.sh [TRIALS] [SEEDS]
set -euo pipefail
trials=${1:-20}
seeds=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
declare -A sampler=(
	[EI]="{type: gpbo, acquisition: ei, marginalise: ess, samples: 50}"
	[MES]="{type: gpbo, acquisition: mes, marginalise: ess, samples: 50}"
	[FITBO]="{type: gpbo, acquisition: fitbo, samples: 50}"
	[FITBO-MM]="{type: gpbo, acquisition: fitbo-mm, samples: 50}"
)
echo "method seed best_observed_error recommended_error"
for m in EI MES FITBO FITBO-MM; do
	for seed in $(seq 1 "$seeds"); do
		f="$dir/$m-$seed.yaml"
		sed -e "s/^sampler: .*/sampler: ${sampler[$m]}/" -e "s/^trials: .*/trials: $trials/" -e "s/^seed: .*/seed: $seed/" \
			-e "s/^name: .*/name: $m-$seed/" examples/infotheoretic/svm_digits.yaml > "$f"
		boa run "$f" --storage "sqlite:$dir/boa.db" >/dev/null 2>&1
		out=$(boa best "$m-$seed" --model --json --storage "sqlite:$dir/boa.db")
		best=$(jq -r .best.value <<<"$out")
		C=$(jq -r .recommendation.params.C <<<"$out")
		gamma=$(jq -r .recommendation.params.gamma <<<"$out")
		rec=$(python3 examples/infotheoretic/svm_digits.py --C "$C" --gamma "$gamma" | awk '/^BOA_RESULT/ {print $2}')
		echo "$m $seed $best $rec"
	done
done
