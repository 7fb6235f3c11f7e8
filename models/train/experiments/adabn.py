"""Experiment (docs/recognition.md, "Tried and not kept": test-time adaptation): AdaBN (Li et al., 2016) on the
exported model, whose convolutions have their BatchNorm folded in. Each convolution's output is
re-standardised per channel so that its mean and spread on the table's crops match those of the
unadapted model on training-style crops, layer by layer (each layer's table statistics taken through
the layers already adapted); the fully connected BatchNorm's running statistics are re-estimated on
the table's crops. The correction is folded into the weights, so the result is an ordinary model.

  /usr/bin/python3 models/train/experiments/adabn.py models/tiles-v1.onnx SOURCE.u8 TABLE.u8 OUT.onnx
(crops from adabn-crops.ts; copy the model's .json beside OUT.onnx, renamed, to bench it)
"""
import copy
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

MEAN, STD, SIZE = 0.5, 0.25, 64
model_path, source_path, table_path, out_path = sys.argv[1:5]
model = onnx.load(model_path)
init = {i.name: i for i in model.graph.initializer}


def tensor(name):
    return torch.from_numpy(numpy_helper.to_array(init[name]).copy())


def put(name, t):
    init[name].CopyFrom(numpy_helper.from_array(t.numpy().astype(np.float32), name))


convs = []
for node in model.graph.node:
    if node.op_type == 'Conv':
        a = {x.name: onnx.helper.get_attribute_value(x) for x in node.attribute}
        convs.append(dict(node=node, W=tensor(node.input[1]), b=tensor(node.input[2]),
                          stride=a['strides'], pad=a['pads'][:2], groups=a['group']))
fc_matmul = next(n for n in model.graph.node if n.op_type == 'MatMul')
fc_bn = next(n for n in model.graph.node if n.op_type == 'BatchNormalization')
unadapted = copy.deepcopy([{k: v for k, v in c.items() if k != 'node'} for c in convs])


def crops(path):
    x = np.fromfile(path, dtype=np.uint8).reshape(-1, SIZE, SIZE, 3)
    return (torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255.0 - MEAN) / STD


def conv_output(x, layers, k):
    """The output of convolution k before its ReLU."""
    h = x
    for i, c in enumerate(layers[:k + 1]):
        h = F.conv2d(h, c['W'], c['b'], stride=c['stride'], padding=c['pad'], groups=c['groups'])
        if i < k:
            h = F.relu(h)
    return h


source, table = crops(source_path), crops(table_path)
with torch.no_grad():
    for k, c in enumerate(convs):
        hs, ht = conv_output(source, unadapted, k), conv_output(table, convs, k)
        gain = (hs.std((0, 2, 3)) + 1e-5) / (ht.std((0, 2, 3)) + 1e-5)
        shift = hs.mean((0, 2, 3)) - gain * ht.mean((0, 2, 3))
        c['W'] = c['W'] * gain.view(-1, 1, 1, 1)
        c['b'] = c['b'] * gain + shift
    h = F.relu(conv_output(table, convs, len(convs) - 1)).flatten(1) @ tensor(fc_matmul.input[1])
    put(fc_bn.input[3], h.mean(0))
    put(fc_bn.input[4], h.var(0))
for c in convs:
    put(c['node'].input[1], c['W'])
    put(c['node'].input[2], c['b'])
onnx.save(model, out_path)
print('wrote', out_path)
