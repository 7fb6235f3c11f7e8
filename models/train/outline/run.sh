#!/usr/bin/env bash
# `npm run train:outline`: the outline refiner's data (two processes side by side, one per core;
# the validation frames after) and its training. Reproduces models/outline-v1.onnx.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# gen FRAMES SEED (make-data.ts --photos adds single-tile photos: tried, not kept; docs/teach.md)
gen() { npx tsx models/train/outline/make-data.ts --frames $1 --seed "$2" --out "models/data/outline-$2"; }
gen 320 50000 & a=$!
gen 320 51000 & b=$!
wait $a; wait $b
gen 40 58000
/usr/bin/python3 models/train/outline/train.py
