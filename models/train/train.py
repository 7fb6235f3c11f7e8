"""Trains the tile-recognition CNN from the synthetic crops in models/data/ and exports ONNX + metadata.

Run through `npm run train` (which regenerates the data first). The recipe is a fixed number of
epochs over fixed data (seeded), so the same recipe runs on this project's 2-core CPU machines or,
where one is lent, on a CUDA device (same steps, only faster). Reads only models/data/ (never the
second-edition scans; the first-edition ones reach it only as crops made by make-data.ts).
"""
import datetime
import glob
import hashlib
import inspect
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get('DATA_DIR', os.path.join(ROOT, 'models', 'data'))
NAME = os.environ.get('MODEL_NAME', 'tiles-v1')
# The recipe is a fixed epoch count (EPOCHS). TRAIN_MINUTES instead bounds training by wall-clock
# minutes (the learning rate follows elapsed time), for quick experiments on a busy machine.
MINUTES = float(os.environ['TRAIN_MINUTES']) if 'TRAIN_MINUTES' in os.environ else None
EPOCHS = None if MINUTES else float(os.environ.get('EPOCHS', '14'))
ARCH = os.environ.get('ARCH', 'deep')
# Share of training crops passed through a random convolution (see `random_convolution`); 0 = off,
# the recipe (0.5 was measured worse on printed art and on the figure heads: docs/recognition.md).
RANDCONV = float(os.environ.get('RANDCONV', '0'))
# MIXSTYLE=p: during training, with probability p per batch, each crop's early feature maps take on
# a mix of their own and another crop's channel statistics (see `MixStyle`); 0 = off, the recipe.
MIXSTYLE = float(os.environ.get('MIXSTYLE', '0'))
# ATTRS=w: an `attributes` head learns what every tile shares with others rather than its type alone
# (see `attribute_table`), trained with weight w; 0 = off (the recipe).
ATTRS = float(os.environ.get('ATTRS', '0'))
# KIND_HEAD=w: a `meepleKind` head tells a follower from a big follower and an abbot (label column
# 19), trained with weight w; 0 = off (the default model's recipe; the far camera's model uses it).
KIND_HEAD = float(os.environ.get('KIND_HEAD', '0'))
KINDS = ['normal', 'big', 'abbot']
DEVICE = torch.device('cuda' if torch.cuda.is_available() and os.environ.get('CPU') != '1' else 'cpu')
MAX_LR = 3e-3
BATCH = 128
EMB = 128
COLOURS = ['red', 'blue', 'green', 'yellow', 'black', 'grey']
TERRAINS = ['field', 'road', 'city', 'river']

torch.manual_seed(1234)
np.random.seed(1234)
torch.set_num_threads(int(os.environ.get('THREADS', '2')))


def load(prefix):
    meta = json.load(open(os.path.join(DATA, prefix + '.json')))
    n, s = meta['count'], meta['size']
    x = np.fromfile(os.path.join(DATA, prefix + '.u8'), dtype=np.uint8).reshape(n, s, s, 3)
    y = np.fromfile(os.path.join(DATA, prefix + '.labels.i16'), dtype=np.int16).reshape(n, meta['labelColumns'])
    return meta, x, y


def conv(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def separable(cin, cout, stride):
    return nn.Sequential(nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin), nn.ReLU(inplace=True),
                         nn.Conv2d(cin, cout, 1, 1, 0, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def stem():
    return nn.Sequential(nn.Conv2d(3, 32, 2, 2, 0, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))  # 32x32


TRUNKS = {
    # Plain 3x3 convolutions: ~14 M multiply-adds per crop, ~300 crops/s training on 2 cores.
    'plain': lambda: nn.Sequential(stem(), conv(32, 48, 2), conv(48, 96, 2), conv(96, 96, 1), conv(96, 128, 2)),
    # Depthwise-separable: ~5 M multiply-adds, ~3x faster to train on 2 cores, so that more epochs
    # fit in `npm run train`'s budget there.
    'separable': lambda: nn.Sequential(stem(), separable(32, 64, 2), separable(64, 64, 1), separable(64, 128, 2),
                                       separable(128, 128, 1), separable(128, 128, 2)),
    # The recipe's trunk: the separable one with a block at 32x32 and another at 16x16 (~7 M
    # multiply-adds). In the separable trunk the 32x32 map is one linear 2x2 patch, so a 5-pixel
    # pennant meets its first 3x3 filter only at 16x16, and that model misread covered marks even on
    # its own training crops (98.9 %; this one 99.3 %; docs/recognition.md).
    'deep': lambda: nn.Sequential(stem(), separable(32, 32, 1), separable(32, 64, 2), separable(64, 64, 1), separable(64, 64, 1),
                                  separable(64, 128, 2), separable(128, 128, 1), separable(128, 128, 2)),
    # `deep` with a second block at 32x32, where a pennant is 3 pixels across (~1.3x the training
    # step). Measured and not kept: in-style no better beyond noise, and
    # `npm run train` over its 90 minutes on 2 cores (docs/recognition.md).
    'deeper': lambda: nn.Sequential(stem(), separable(32, 32, 1), separable(32, 32, 1), separable(32, 64, 2), separable(64, 64, 1),
                                    separable(64, 64, 1), separable(64, 128, 2), separable(128, 128, 1), separable(128, 128, 2)),
}


SEGMENTS = [e + str(k) for e in 'NESW' for k in range(3)]
FLAGS = ['pennant', 'cloister', 'garden', 'inn', 'cathedral', 'towerFoundation']


def attribute_names():
    pairs = ['same:%s-%s' % (SEGMENTS[i], SEGMENTS[j]) for i in range(12) for j in range(i + 1, 12)]
    return FLAGS + pairs + ['pennantCity:' + s for s in SEGMENTS] + ['innRoad:' + s for s in SEGMENTS]


def attribute_table(tiles):
    """Per class (tile × quarter turns) the catalog's attributes in the crop frame: the tile-level
    marks (pennant, cloister, garden, inn, cathedral, tower foundation), for each pair of edge
    segments whether one feature joins them, and which segments belong to a city with a pennant or
    a road with an inn.

    A type is learnt from its own crops only; a mark is learnt from every tile that has it (a
    garden from thirteen types, a tower foundation from nineteen), so it has to be read by the mark itself, not
    by the rest of that tile's drawing — which is what differs between editions.
    """
    catalog = json.load(open(os.path.join(ROOT, 'engine', 'catalog', 'data', 'tiles-classic.json')))
    by_id = {t['id']: t for e in catalog['expansions'].values() for t in e['tiles']}
    names = attribute_names()
    table = torch.zeros(len(tiles) * 4, len(names))
    pair_index = {}
    for i in range(12):
        for j in range(i + 1, 12):
            pair_index[(i, j)] = len(FLAGS) + len(pair_index)
    pennant_city = len(FLAGS) + len(pair_index)  # then 12 segments of a city with a pennant, 12 of a road with an inn
    inn_road = pennant_city + 12
    for ti, t in enumerate(tiles):
        tile = by_id[t['id']]
        flags = [tile['pennants'] > 0, tile['cloister'], tile['garden'], tile['inn'], tile['cathedral'], tile['towerFoundation']]
        for q in range(4):
            row = table[ti * 4 + q]
            row[:len(FLAGS)] = torch.tensor([float(f) for f in flags])
            for f in tile['features']:
                segs = sorted((SEGMENTS.index(s) + 3 * q) % 12 for s in f['segments'])
                for a in range(len(segs)):
                    for b in range(a + 1, len(segs)):
                        row[pair_index[(segs[a], segs[b])]] = 1
                for s in segs:
                    if f['type'] == 'city' and f.get('pennants', 0) > 0:
                        row[pennant_city + s] = 1
                    if f['type'] == 'road' and f.get('inn'):
                        row[inn_road + s] = 1
    return table


class MixStyle(nn.Module):
    """Mixes each crop's feature statistics with another crop's of the batch (Zhou et al., "Domain
    Generalization with MixStyle", ICLR 2021): per channel, the map is normalised by its own mean
    and standard deviation and given a mix (weight ~ Beta(α, α)) of its own and a shuffled partner's.

    In the early layers a map's channel statistics carry the art's style (palette, contrast, print
    texture) and little of its layout. A batch holds five drawn styles and the first edition's print;
    mixing them makes styles between those, so the later layers learn to read a tile whatever its
    style, as an edition the model never saw needs. Identity when not training (the ONNX file is
    the same network).
    """

    def __init__(self, p, alpha=0.1, gen=None):
        super().__init__()
        self.p, self.alpha, self.gen = p, alpha, gen

    def forward(self, x):
        if not self.training or self.p <= 0 or float(torch.rand(1, generator=self.gen)) >= self.p:
            return x
        n = x.shape[0]
        mu = x.mean(dim=(2, 3), keepdim=True)
        sig = (x.var(dim=(2, 3), keepdim=True) + 1e-6).sqrt()
        mu, sig = mu.detach(), sig.detach()
        lam = torch.distributions.Beta(self.alpha, self.alpha).sample((n, 1, 1, 1)).to(x.device)
        perm = torch.randperm(n, generator=self.gen).to(x.device)
        mix_mu = lam * mu + (1 - lam) * mu[perm]
        mix_sig = lam * sig + (1 - lam) * sig[perm]
        return (x - mu) / sig * mix_sig + mix_mu


def with_mixstyle(trunk, p):
    """The trunk with MixStyle after the stem and after each of its first three blocks (32x32 and
    16x16: style lives early; the 8x8 and 4x4 maps, where tiles are told apart, are left alone)."""
    if p <= 0:
        return trunk
    gen = torch.Generator().manual_seed(4242)
    layers = []
    for i, m in enumerate(trunk):
        layers.append(m)
        if i <= 3:
            layers.append(MixStyle(p, gen=gen))
    return nn.Sequential(*layers)


class TileNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        # A 2x2 patch stem, then 3x3 convolutions down to a 4x4 map, which is kept (flattened, not
        # pooled) because rotation and edge terrain depend on where things are.
        self.trunk = with_mixstyle(TRUNKS[ARCH](), MIXSTYLE)
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(128 * 16, 256, bias=False), nn.BatchNorm1d(256), nn.ReLU(inplace=True))
        self.present = nn.Linear(256, 1)
        self.embed = nn.Linear(256, EMB)
        self.prototypes = nn.Parameter(torch.randn(n_classes, EMB) * 0.1)
        self.scale = 20.0
        self.seg = nn.Linear(256, 12 * 4)
        self.meeple = nn.Linear(256, 1)
        self.colour = nn.Linear(256, 6)
        self.mseg = nn.Linear(256, 13)
        self.attrs = nn.Linear(256, len(attribute_names())) if ATTRS > 0 else None
        # Made last, so that the other heads start from the same weights with or without it.
        self.mkind = nn.Linear(256, len(KINDS)) if KIND_HEAD > 0 else None

    def forward(self, x):
        h = self.fc(self.trunk(x))
        e = F.normalize(self.embed(h), dim=1)
        logits = self.scale * e @ F.normalize(self.prototypes, dim=1).t()
        out = (torch.sigmoid(self.present(h)).squeeze(1), logits, self.seg(h).view(-1, 12, 4),
               torch.sigmoid(self.meeple(h)).squeeze(1), self.colour(h), self.mseg(h), e)
        if self.mkind is not None:
            out = out + (self.mkind(h),)
        return out + (self.attrs(h),) if self.attrs is not None else out


def split_extra(rest):
    """The optional heads after the embedding: (meepleKind or None, [attributes] or [])."""
    rest = list(rest)
    kind = rest.pop(0) if KIND_HEAD > 0 else None
    return kind, rest


MEAN, STD = 0.5, 0.25
STEPS_DONE = [0]


def to_tensor(x):
    """uint8 N×S×S×3 (tensor or array) → normalised float N×3×S×S."""
    if isinstance(x, np.ndarray):
        x = torch.from_numpy(x)
    return (x.permute(0, 3, 1, 2).float() / 255.0 - MEAN) / STD


def turn_batch(x, y, k):
    """Turns crops k quarter turns clockwise and moves their labels with them."""
    if k == 0:
        return x, y
    x = torch.rot90(x, -k, dims=(2, 3))  # clockwise
    y = y.clone()
    pres = y[:, 0] == 1
    y[pres, 2] = (y[pres, 2] + k) % 4
    y[pres, 3] = y[pres, 1] * 4 + y[pres, 2]
    seg = y[:, 4:16].clone()
    y[:, 4:16] = torch.roll(seg, shifts=3 * k, dims=1)
    m = (y[:, 16] == 1) & (y[:, 18] < 12)
    y[m, 18] = (y[m, 18] + 3 * k) % 12
    return x, y


def random_convolution(x, gen):
    """Each crop through its own random k×k colour-and-texture filter (k in 1, 3, 5, 7), mixed back
    with the crop by a random share and brought to the input's scale.

    Random convolutions ("RandConv", Xu et al., ICLR 2021) keep shapes and scramble colour and local
    texture: the model must read a tile by its layout — where the city walls, roads and river run —
    which the printed art shares with the drawings, rather than by a drawing's palette and strokes,
    which it does not. Weights ~ N(0, 1/(3k²)) keep the output's spread near the input's.
    """
    n = x.shape[0]
    k = int((1, 3, 5, 7)[int(torch.randint(0, 4, (1,), generator=gen))])
    w = torch.randn(n * 3, 3, k, k, generator=gen) / math.sqrt(3 * k * k)
    y = F.conv2d(x.reshape(1, n * 3, *x.shape[2:]), w.to(x.device), padding=k // 2, groups=n).reshape(x.shape)
    mean, std = y.mean(dim=(1, 2, 3), keepdim=True), y.std(dim=(1, 2, 3), keepdim=True) + 1e-5
    y = (y - mean) / std * x.std(dim=(1, 2, 3), keepdim=True) + x.mean(dim=(1, 2, 3), keepdim=True)
    a = torch.rand(n, 1, 1, 1, generator=gen).to(x.device)
    return a * x + (1 - a) * y


def main():
    parts = sorted(glob.glob(os.path.join(DATA, 'train-*.json')))
    if not parts:
        sys.exit('no training data in models/data/: run `npm run train` (it generates the data first)')
    xs, ys = [], []
    for p in parts:
        meta, x, y = load(os.path.basename(p)[:-5])
        xs.append(x)
        ys.append(y)
    X = torch.from_numpy(np.concatenate(xs)).to(DEVICE)
    Y = torch.from_numpy(np.concatenate(ys).astype(np.int64)).to(DEVICE)
    tiles = meta['tiles']
    n_classes = len(tiles) * 4
    # eq[c, d] = 1 when class d reads the same as class c up to the tile's symmetry.
    eq = torch.zeros(n_classes, n_classes, dtype=torch.bool)
    for ti, t in enumerate(tiles):
        for q in range(4):
            for s in t['symmetry']:
                eq[ti * 4 + q, ti * 4 + (q + s) % 4] = True
    eq = eq.to(DEVICE)
    attr_table = attribute_table(tiles).to(DEVICE) if ATTRS > 0 else None
    vmeta, VX, VY = load('val')
    VX = torch.from_numpy(VX).to(DEVICE)
    VY = torch.from_numpy(VY.astype(np.int64)).to(DEVICE)
    print(f'train {len(X)} crops, val {len(VX)}, classes {n_classes}, arch {ARCH}, device {DEVICE}', flush=True)

    model = TileNet(n_classes).to(DEVICE).to(memory_format=torch.channels_last)
    steps = int(EPOCHS * len(X) / BATCH) if EPOCHS else None
    opt = torch.optim.AdamW(model.parameters(), lr=MAX_LR, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(99)
    t0 = time.time()
    step = 0

    def progress():
        return step / steps if steps else (time.time() - t0) / (MINUTES * 60)

    def set_lr(p):
        # Warm up over the first 8 %, then cosine down to zero.
        lr = MAX_LR * p / 0.08 if p < 0.08 else MAX_LR * 0.5 * (1 + math.cos(math.pi * min(1.0, (p - 0.08) / 0.92)))
        for g in opt.param_groups:
            g['lr'] = lr

    while progress() < 1:
        perm = torch.randperm(len(X), generator=gen)
        for b in range(0, len(X) - BATCH + 1, BATCH):
            p = progress()
            if p >= 1:
                break
            set_lr(p)
            idx = perm[b:b + BATCH]
            idx = idx.to(DEVICE)
            x = to_tensor(X[idx]).contiguous(memory_format=torch.channels_last)
            y = Y[idx]
            x, y = turn_batch(x, y, int(torch.randint(0, 4, (1,), generator=gen)))
            # Crops whose colours were scrambled say nothing about a figure's colour.
            scrambled = torch.zeros(len(x), dtype=torch.bool, device=x.device)
            if RANDCONV > 0:
                scrambled = (torch.rand(len(x), generator=gen) < RANDCONV).to(x.device)
                if scrambled.any():
                    x = x.clone()
                    x[scrambled] = random_convolution(x[scrambled].contiguous(), gen).contiguous(memory_format=torch.channels_last)
            model.train()
            present, logits, seg, meeple, colour, mseg, _, *rest = model(x)
            kind, attrs = split_extra(rest)
            pres = y[:, 0] == 1
            loss = F.binary_cross_entropy(present.clamp(1e-6, 1 - 1e-6), y[:, 0].float())
            if pres.any():
                # A tile past the catalog's (another expansion's print, FOREIGN_SHARE) has edges but no type.
                typed = pres & (y[:, 1] < len(tiles))
                if typed.any():
                    lg = logits[typed]
                    m = eq[y[typed, 3]]
                    loss = loss + (torch.logsumexp(lg, 1) - torch.logsumexp(lg.masked_fill(~m, -1e9), 1)).mean()
                    if attrs:
                        # Each group weighs the same whatever its size: the marks, the joins, the marked segments.
                        a, t = attrs[0][typed], attr_table[y[typed, 3]]
                        nf = len(FLAGS)
                        loss = loss + ATTRS * sum(F.binary_cross_entropy_with_logits(a[:, g], t[:, g])
                                                  for g in (slice(0, nf), slice(nf, nf + 66), slice(nf + 66, None)))
                loss = loss + 0.5 * F.cross_entropy(seg[pres].reshape(-1, 4), y[pres, 4:16].reshape(-1))
                loss = loss + 0.5 * F.binary_cross_entropy(meeple[pres].clamp(1e-6, 1 - 1e-6), y[pres, 16].float())
                mm = y[:, 16] == 1
                if mm.any():
                    loss = loss + 0.3 * F.cross_entropy(mseg[mm], y[mm, 18])
                    if kind is not None:
                        loss = loss + KIND_HEAD * F.cross_entropy(kind[mm], y[mm, 19])
                mc = mm & ~scrambled
                if mc.any():
                    loss = loss + 0.5 * F.cross_entropy(colour[mc], y[mc, 17])
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 100 == 0:
                print(f'step {step} progress {progress():.3f} loss {loss.item():.3f} {time.time() - t0:.0f}s', flush=True)
    STEPS_DONE[0] = step
    # Kept beside the data (git-ignored) so that a later run can continue from these weights.
    torch.save(model.state_dict(), os.path.join(DATA, NAME + '.pt'))
    model = model.cpu()
    acc = evaluate(model, VX.cpu(), VY.cpu(), eq.cpu(), attr_table.cpu() if attr_table is not None else None)
    print('val', json.dumps(acc), flush=True)
    export(model, tiles, vmeta, acc, meta, time.time() - t0)


@torch.no_grad()
def evaluate(model, X, Y, eq, attr_table):
    model.eval()
    c = {'present': 0, 'typeRot': 0, 'seg': 0, 'meeplePresence': 0, 'meepleColour': 0}
    n = {'present': 0, 'typeRot': 0, 'seg': 0, 'meeplePresence': 0, 'meepleColour': 0}
    for b in range(0, len(X), 512):
        x = to_tensor(X[b:b + 512])
        y = Y[b:b + 512]
        present, logits, seg, meeple, colour, mseg, _, *rest = model(x)
        kind, attrs = split_extra(rest)
        pres = y[:, 0] == 1
        if kind is not None:
            km = y[:, 16] == 1
            c['meepleKind'] = c.get('meepleKind', 0) + (kind[km].argmax(1) == y[km, 19]).sum().item(); n['meepleKind'] = n.get('meepleKind', 0) + km.sum().item()
        if attrs:
            t = attr_table[y[pres, 3]]
            hit = ((attrs[0][pres] > 0).float() == t)
            c['flags'] = c.get('flags', 0) + hit[:, :len(FLAGS)].all(1).sum().item(); n['flags'] = n.get('flags', 0) + pres.sum().item()
            c['attributes'] = c.get('attributes', 0) + hit.all(1).sum().item(); n['attributes'] = n.get('attributes', 0) + pres.sum().item()
        c['present'] += ((present > 0.5).long() == y[:, 0]).sum().item(); n['present'] += len(y)
        pred = logits.argmax(1)
        c['typeRot'] += eq[y[pres, 3], pred[pres]].sum().item(); n['typeRot'] += pres.sum().item()
        c['seg'] += (seg[pres].argmax(2) == y[pres, 4:16]).sum().item(); n['seg'] += pres.sum().item() * 12
        c['meeplePresence'] += ((meeple[pres] > 0.5).long() == y[pres, 16]).sum().item(); n['meeplePresence'] += pres.sum().item()
        mm = y[:, 16] == 1
        c['meepleColour'] += (colour[mm].argmax(1) == y[mm, 17]).sum().item(); n['meepleColour'] += mm.sum().item()
    return {k: round(100.0 * c[k] / max(1, n[k]), 2) for k in c}


class Exported(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)


def export(model, tiles, vmeta, acc, meta, seconds):
    model.eval()
    out = os.path.join(ROOT, 'models', NAME + '.onnx')
    dummy = torch.zeros(1, 3, vmeta['size'], vmeta['size'])
    names = ['present', 'typeRot', 'segments', 'meeple', 'meepleColour', 'meepleSegment', 'embedding'] + (['meepleKind'] if KIND_HEAD > 0 else []) + (['attributes'] if ATTRS > 0 else [])
    extra = {'dynamo': False} if 'dynamo' in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(Exported(model), dummy, out, input_names=['crops'], output_names=names, opset_version=13,
                      dynamic_axes={k: {0: 'n'} for k in ['crops'] + names}, do_constant_folding=True, **extra)
    catalog = open(os.path.join(ROOT, 'engine', 'catalog', 'data', 'tiles-classic.json'), 'rb').read()
    info = {
        'name': NAME,
        'onnx': NAME + '.onnx',
        'input': {'name': 'crops', 'size': vmeta['size'], 'channels': 'RGB', 'layout': 'NCHW',
                  'normalisation': {'scale': 1 / 255, 'mean': [MEAN] * 3, 'std': [STD] * 3},
                  'crop': 'the rectified grid cell plus 10 % of the cell pitch on every side'},
        'outputs': {
            'present': 'probability that the cell holds a tile',
            'typeRot': 'scores (logits) for class = tileIndex * 4 + quarter turns clockwise',
            'segments': 'logits [12 segments N0..W2 in crop frame][terrain]',
            'meeple': 'probability that a piece stands on the cell tile',
            'meepleColour': 'logits over meepleColours',
            'meepleSegment': 'logits over 12 crop-frame segments + 12 = interior',
            'embedding': 'unit vector, %d values, for enrollment matching' % EMB,
            **({'meepleKind': 'logits over meepleKinds'} if KIND_HEAD > 0 else {}),
            **({'attributes': 'logits per attribute (attributeNames), crop frame'} if ATTRS > 0 else {}),
        },
        **({'attributeNames': attribute_names()} if ATTRS > 0 else {}),
        'tiles': [t['id'] for t in tiles],
        'symmetry': {t['id']: t['symmetry'] for t in tiles if len(t['symmetry']) > 1},
        'terrains': TERRAINS,
        'meepleColours': COLOURS,
        **({'meepleKinds': KINDS} if KIND_HEAD > 0 else {}),
        'catalog': {'file': 'engine/catalog/data/tiles-classic.json', 'sha256': hashlib.sha256(catalog).hexdigest()},
        'data': {'seed': meta['seed'], 'trainCrops': sum(json.load(open(p))['count'] for p in glob.glob(os.path.join(DATA, 'train-*.json'))),
                 'styles': meta['styles'], 'steps': STEPS_DONE[0], 'batch': BATCH, 'epochs': EPOCHS, 'minutesBudget': MINUTES,
                 'randomConvolution': RANDCONV, **({'mixStyle': MIXSTYLE} if MIXSTYLE > 0 else {}),
                 **({'attributes': ATTRS} if ATTRS > 0 else {}), **({'kindHead': KIND_HEAD} if KIND_HEAD > 0 else {})},
        'arch': ARCH,
        'trainedOn': str(DEVICE) if DEVICE.type == 'cpu' else torch.cuda.get_device_name(0),
        'date': datetime.datetime.utcnow().replace(microsecond=0).isoformat() + 'Z',
        'trainingSeconds': round(seconds),
        'measuredAccuracy': {'split': 'validation (training styles, unseen variants and seeds)', **acc},
        'torch': torch.__version__,
    }
    if meta.get('faces'):
        info['data']['facesPerStyle'] = meta['faces']  # an opt-in recipe (VARIED_FACES)
    if meta.get('print'):
        info['data']['print'] = meta['print']  # printed first-edition faces mixed in (PRINT_SHARE)
        # Where the model knows the print (tracker: it leads below 30 px per cell on these editions only);
        # every set of models/synth/print-faces.ts PRINT_SETS is a first-edition scan.
        info['printEditions'] = ['C1']
    far = {k: meta[k] for k in ('lowResolutionFrom', 'cameraJpeg', 'drawnAt') if k in meta}
    if far:
        info['data']['farCamera'] = far  # crops drawn small and compressed at a webcam's scale (LOW_RES_FROM, CAMERA_JPEG, DRAWN_AT)
    if meta.get('foreign'):
        info['data']['foreign'] = meta['foreign']  # other expansions' prints, edges only (FOREIGN_SHARE)
    json.dump(info, open(os.path.join(ROOT, 'models', NAME + '.json'), 'w'), indent=1)
    print('wrote', out, os.path.getsize(out), 'bytes', flush=True)


if __name__ == '__main__':
    main()
