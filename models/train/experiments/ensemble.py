"""Experiment (docs/recognition.md, "Tried and not kept": an ensemble): several tile models merged
into one ONNX graph with the same inputs and outputs, so the benchmarks and the app read it as one
model. Class scores: the log of the members' mean class probabilities, not their mean logits: a
symmetric tile's members may put their mass on different equivalent turns (BASE_H at 90° against
270°), and mean logits then let a third class win (in-style raw 98.47 -> 97.23 % that way). Other
heads: the mean of the members' outputs. Embedding: the members' concatenated, over sqrt(N), so it
stays a unit vector whose cosine with an exemplar is the mean of the members' cosines.

  /usr/bin/python3 models/train/experiments/ensemble.py OUT.onnx A.onnx B.onnx [...]
  BENCH_MODEL=OUT.onnx npm run --silent bench:recognition
(the first member's .json is copied beside OUT.onnx, renamed)
"""
import json
import math
import sys

import onnx
from onnx import TensorProto, compose, helper

out, srcs = sys.argv[1], sys.argv[2:]
if len(srcs) < 2:
    sys.exit('usage: ensemble.py OUT.onnx A.onnx B.onnx [...]')
members = [compose.add_prefix(onnx.load(s), prefix=f'm{i}_') for i, s in enumerate(srcs)]
nodes, inits = [], []
for i, m in enumerate(members):
    for n in m.graph.node:
        n.input[:] = ['crops' if x == f'm{i}_crops' else x for x in n.input]
        nodes.append(n)
    inits += list(m.graph.initializer)
N = len(members)
outputs = []
for name in ['present', 'typeRot', 'segments', 'meeple', 'meepleColour', 'meepleSegment']:
    if name == 'typeRot':
        for i in range(N):
            nodes.append(helper.make_node('Softmax', [f'm{i}_typeRot'], [f'm{i}_typeRotP'], axis=1))
        nodes.append(helper.make_node('Mean', [f'm{i}_typeRotP' for i in range(N)], ['typeRotMean']))
        nodes.append(helper.make_node('Log', ['typeRotMean'], [name]))
    else:
        nodes.append(helper.make_node('Mean', [f'm{i}_{name}' for i in range(N)], [name]))
    outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
nodes.append(helper.make_node('Concat', [f'm{i}_embedding' for i in range(N)], ['embeddingAll'], axis=1))
inits.append(helper.make_tensor('embeddingScale', TensorProto.FLOAT, [], [1 / math.sqrt(N)]))
nodes.append(helper.make_node('Mul', ['embeddingAll', 'embeddingScale'], ['embedding']))
outputs.append(helper.make_tensor_value_info('embedding', TensorProto.FLOAT, None))
inputs = [helper.make_tensor_value_info('crops', TensorProto.FLOAT, ['n', 3, 64, 64])]
model = helper.make_model(helper.make_graph(nodes, 'ensemble', inputs, outputs, initializer=inits), opset_imports=members[0].opset_import)
model.ir_version = members[0].ir_version
onnx.save(model, out)
meta = json.load(open(srcs[0][:-len('.onnx')] + '.json'))
meta['name'] = out.split('/')[-1][:-len('.onnx')]
meta['onnx'] = out.split('/')[-1]
meta['ensemble'] = srcs
json.dump(meta, open(out[:-len('.onnx')] + '.json', 'w'), indent=1)
print('wrote', out)
