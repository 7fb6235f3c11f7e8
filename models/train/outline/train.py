"""Trains the outline refiner (models/photo/outline-net.ts) from models/data/outline-*.{u8,f32,json}
and exports models/outline-v1.onnx (+ .json with the recipe and its validation figures).

Run through `npm run train:outline` (which makes the data first). Data whose seed is VAL_SEED or
over is the validation set; the rest trains. A fixed number of epochs over fixed, seeded data: the
same recipe on 2 CPU cores (about 19 minutes for 14 epochs) or on a CUDA device.
"""
import datetime
import glob
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DATA = os.environ.get('DATA_DIR', os.path.join(ROOT, 'models', 'data'))
OUT = os.environ.get('OUT', os.path.join(ROOT, 'models', 'outline-v1'))
EPOCHS = int(os.environ.get('EPOCHS', '14'))
VAL_SEED = 58000
BATCH = 128
MAX_LR = 3e-3
SCALE = 10.0  # outputs are unit-square offsets times this (OFFSET_SCALE)
DEVICE = torch.device('cuda' if torch.cuda.is_available() and os.environ.get('CPU') != '1' else 'cpu')

torch.manual_seed(4321)
np.random.seed(4321)
torch.set_num_threads(int(os.environ.get('THREADS', '2')))


def load_sets():
    train, val = [], []
    for meta_path in sorted(glob.glob(os.path.join(DATA, 'outline-*.json'))):
        meta = json.load(open(meta_path))
        base = meta_path[:-5]
        n, s = meta['count'], meta['size']
        x = np.fromfile(base + '.u8', dtype=np.uint8).reshape(n, s, s, 3)
        y = np.fromfile(base + '.f32', dtype=np.float32).reshape(n, 8)
        if meta['seed'] >= VAL_SEED:
            val.append(('photos' if meta.get('photos') else 'teach frames', x, y))
        else:
            train.append((x, y))
    return (np.concatenate([a for a, _ in train]), np.concatenate([b for _, b in train])), val


def conv(cin, cout, stride, k=3):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Refiner(nn.Module):
    """80 px crop → 8 offsets. Strided convolutions down to 5 × 5, then a dense head: where an
    edge is matters, so the map is flattened rather than pooled."""

    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(
            conv(3, 24, 2, 5),   # 40
            conv(24, 32, 1),
            conv(32, 48, 2),     # 20
            conv(48, 48, 1),
            conv(48, 64, 2),     # 10
            conv(64, 64, 1),
            conv(64, 96, 2),     # 5
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(96 * 25, 256), nn.ReLU(inplace=True), nn.Linear(256, 8))

    def forward(self, x):
        return self.head(self.trunk(x))


def colour_jitter(x):
    """Per-crop gain per channel, brightness, contrast and saturation: the editions' print differs
    in colour (the first muted and brown, the later brighter), the outline does not."""
    n = x.shape[0]
    gain = 1 + (torch.rand(n, 3, 1, 1, device=x.device) * 2 - 1) * 0.15
    x = x * gain
    grey = x.mean(1, keepdim=True)
    sat = 0.6 + torch.rand(n, 1, 1, 1, device=x.device) * 0.9
    x = grey + (x - grey) * sat
    mean = x.mean((1, 2, 3), keepdim=True)
    contrast = 0.75 + torch.rand(n, 1, 1, 1, device=x.device) * 0.5
    bright = (torch.rand(n, 1, 1, 1, device=x.device) * 2 - 1) * 0.12
    return ((x - mean) * contrast + mean + bright).clamp(0, 1)


def rotate90(x, y, k):
    """The crop turned k quarter turns clockwise, and its offsets with it: corner i of the turned
    outline is corner (i - k) mod 4 of the original, its offset turned alike."""
    if k == 0:
        return x, y
    xr = torch.rot90(x, -k, dims=(2, 3))  # clockwise on screen (y down)
    o = y.view(-1, 4, 2)
    o = torch.roll(o, shifts=k, dims=1)
    for _ in range(k):  # a clockwise quarter turn of the unit square: (u, v) -> (-v, u)
        o = torch.stack([-o[..., 1], o[..., 0]], -1)
    return xr, o.reshape(-1, 8)


def corner_mm(pred, y):
    """Largest corner error in millimetres (a tile is 45 mm; offsets are in tenths of its side)."""
    d = (pred - y).view(-1, 4, 2).norm(dim=2).max(dim=1).values
    return d / SCALE * 45


def main():
    (xt, yt), val_sets = load_sets()
    vals = [(name, torch.from_numpy(x).permute(0, 3, 1, 2).float().div(255), torch.from_numpy(y)) for name, x, y in val_sets]
    print(f'train {len(xt)}, validation {", ".join(f"{n} {len(y)}" for n, _, y in vals)} crops; device {DEVICE}', flush=True)
    model = Refiner().to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=MAX_LR, weight_decay=1e-4)
    steps = EPOCHS * (len(xt) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=MAX_LR, total_steps=steps, pct_start=0.15)
    t0 = time.time()
    for epoch in range(EPOCHS):
        model.train()
        perm = np.random.permutation(len(xt))
        total = 0.0
        for b in range(len(xt) // BATCH):
            idx = perm[b * BATCH:(b + 1) * BATCH]
            x = torch.from_numpy(xt[idx]).to(DEVICE).permute(0, 3, 1, 2).float().div(255)
            y = torch.from_numpy(yt[idx]).to(DEVICE)
            x, y = rotate90(x, y, int(np.random.randint(4)))
            x = colour_jitter(x)
            loss = F.smooth_l1_loss(model(x), y, beta=0.2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        figures = '; '.join(f'{n}: within 2 mm {w:.2f} %, median {m:.2f} mm' for n, (w, m) in ((n, evaluate(model, x, y)) for n, x, y in vals))
        print(f'epoch {epoch + 1}/{EPOCHS}: loss {total / (len(xt) // BATCH):.4f}, validation {figures}, {time.time() - t0:.0f} s', flush=True)
    validation = {}
    for n, x, y in vals:
        within, median = evaluate(model, x, y)
        before = corner_mm(torch.zeros_like(y), y)
        validation[n] = {'crops': int(len(y)), 'within2mm': round(within, 2), 'medianMm': round(median, 3),
                         'within2mmBefore': round(float((before <= 2).float().mean() * 100), 2)}
    export(model, {
        'trainedAt': datetime.datetime.now(datetime.timezone.utc).isoformat(),
        'epochs': EPOCHS, 'trainCrops': int(len(xt)), 'validation': validation,
        'seconds': round(time.time() - t0),
    })


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    pred = torch.cat([model(x[i:i + 512].to(DEVICE)).cpu() for i in range(0, len(x), 512)])
    mm = corner_mm(pred, y)
    return float((mm <= 2).float().mean() * 100), float(mm.median())


def export(model, meta):
    model.eval().cpu()
    dummy = torch.zeros(1, 3, 80, 80)
    torch.onnx.export(model, dummy, OUT + '.onnx', input_names=['input'], output_names=['offsets'],
                      dynamic_axes={'input': {0: 'n'}, 'offsets': {0: 'n'}}, opset_version=13)
    json.dump(meta, open(OUT + '.json', 'w'), indent=1)
    print(f'wrote {OUT}.onnx: {json.dumps(meta)}', flush=True)


if __name__ == '__main__':
    main()
