/**
 * The tile editor's services against a real SQLite file: the table's description of a provisional
 * 2025 tile is checked by the engine, saved, used by the rules, survives a restart, and a game played
 * with it (or with the provisional shape before it) still replays. The crop it was described on is
 * enrolled through the real recognition model.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definitionOf, type TileDefinition } from '../../engine/catalog/definitions.js';
import type { Command } from '../../engine/game/commands.js';
import { defaultCatalog } from '../../engine/game/engine.js';
import { parseArgs } from '../../electron/contract/api.js';
import { setupFromNewGame, type NewGame } from '../../electron/contract/setup.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { enrollmentFromStore } from '../../electron/services/tiles/enrolled.js';
import { TileRecognizer } from '../../models/runner.js';
import { svgToPng } from '../../models/render/rasterise.js';
import { TRAIN_STYLES } from '../../models/render/styles.js';
import { tileSvg } from '../../models/render/svg.js';

const stores: Store[] = [];
function open(file: string): Store {
  const s = Store.open(file);
  stores.push(s);
  return s;
}
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'companion-tiles-')), 'c.sqlite');
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

// Jousts & Crests for two: the tournament tile (fields all round) is the start, so a tile with a road
// fits north of it only when turned so that the road does not touch it.
const NEW_GAME: NewGame = {
  players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }],
  expansions: ['base', 'jousts-crests'],
  rules: { tinyCity: 4, farmers: true, innCathedralIncomplete: 'zero', towerCapture: 'mandatory' },
  tileSet: { edition: 'C2', riverStartTile: 'stack' },
  options: { jc: { crownSpaces: ['road', 'city', 'field'], crownStart: 0, startTileToBox: true, allowRenominate: true } },
};
const setup = setupFromNewGame(NEW_GAME);

const feature = (id: string, kind: TileDefinition['features'][number]['kind'], segments: number[], extra: Partial<TileDefinition['features'][number]> = {}) => ({
  id, kind, segments, pennants: 0, inn: false, cathedral: false, adjacentCities: [], ...extra,
});

/** JC-L-PLAIN (provisional: fields all round) as the table finds it: a straight road N–S. */
const plainWithRoad: TileDefinition = {
  tile: 'JC-L-PLAIN',
  segments: ['field', 'road', 'field', 'field', 'field', 'field', 'field', 'road', 'field', 'field', 'field', 'field'],
  features: [feature('road1', 'road', [1, 7]), feature('field1', 'field', [2, 3, 4, 5, 6]), feature('field2', 'field', [8, 9, 10, 11, 0])],
};

function ok<T>(r: { ok: true; value: T } | { ok: false; reason: string }): T {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

const northOfStart = (rot: 0 | 90): Command[] => [
  { type: 'drawTile', player: 0, tile: 'JC-L-PLAIN' },
  { type: 'placeTile', player: 0, tile: 'JC-L-PLAIN', at: [0, -1], rot },
];

describe('tile editor: saved descriptions', () => {
  it('a saved description is used by the rules, survives a restart, and a game using it replays', () => {
    const file = tempFile();
    const store = open(file);
    const s = new GameSession(store);
    expect(s.editableTiles().find((t) => t.id === 'JC-L-PLAIN')).toMatchObject({ provisional: true, photos: 0, role: 'land tile' });

    const saved = ok(s.saveTile(plainWithRoad, null, 'settings'));
    expect(saved).toMatchObject({ tile: 'JC-L-PLAIN', exemplarId: null, game: null });

    ok(s.newGame(setup));
    // The road N–S now meets the tournament tile's field: refused unturned, taken turned.
    ok(s.play(northOfStart(0)[0]!));
    const refused = s.play(northOfStart(0)[1]!);
    expect(refused.ok).toBe(false);
    ok(s.play(northOfStart(90)[1]!));
    ok(s.play({ type: 'placeMeeple', player: 0, kind: 'normal', on: 'W1' }));
    ok(s.play({ type: 'endTurn', player: 0 }));
    const before = s.snapshot().game!;
    expect(before.board.find((t) => t.tile === 'JC-L-PLAIN')!.terrain.filter((x) => x === 1)).toHaveLength(2);
    store.close();

    const again = GameSession.resume(open(file));
    expect(again.snapshot().notice).toBeNull();
    const after = again.snapshot().game!;
    expect(after.board).toEqual(before.board);
    expect(after.meeples).toEqual(before.meeples);
    expect(again.currentGame!.catalog.get('JC-L-PLAIN')).toMatchObject({ provisional: false, segments: plainWithRoad.segments });
    const listed = again.editableTiles().find((t) => t.id === 'JC-L-PLAIN')!;
    expect(listed.provisional).toBe(false);
    expect(listed.definition).toEqual(plainWithRoad);
    expect(listed.confirmedAt).not.toBeNull();
  });

  it('a game in progress that already played the provisional shape keeps it and still replays; new games use the description', () => {
    const file = tempFile();
    const store = open(file);
    const s = new GameSession(store);
    const old = ok(s.newGame(setup));
    for (const c of northOfStart(0)) ok(s.play(c)); // legal only with the provisional fields all round
    ok(s.play({ type: 'endTurn', player: 0 }));

    const saved = ok(s.saveTile(plainWithRoad, null, 'camera'));
    expect(saved.game).toMatchObject({ id: old, updated: false });
    expect(saved.game!.why).toMatch(/keeps the shape of JC-L-PLAIN.*log entry 2.*new games use the new description/);
    expect(s.currentGame!.catalog.get('JC-L-PLAIN')!.provisional).toBe(true);
    store.close();

    const again = GameSession.resume(open(file));
    expect(again.snapshot().notice).toBeNull();
    expect(again.currentGameId).toBe(old);
    expect(again.snapshot().game!.board.find((t) => t.tile === 'JC-L-PLAIN')).toMatchObject({ x: 0, y: -1, rot: 0 });
    ok(again.newGame(setup));
    expect(again.currentGame!.catalog.get('JC-L-PLAIN')!.provisional).toBe(false);
    expect(ok(again.load(old)) === undefined && again.currentGame!.catalog.get('JC-L-PLAIN')!.provisional).toBe(true);
  });

  it('a game in progress that has not met the tile switches to the description at once', () => {
    const store = open(tempFile());
    const s = new GameSession(store);
    const id = ok(s.newGame(setup));
    ok(s.play({ type: 'drawTile', player: 0, tile: 'JC-L-T' }));
    const saved = ok(s.saveTile(plainWithRoad, null, 'camera'));
    expect(saved.game).toMatchObject({ id, updated: true });
    expect(s.currentGame!.catalog.get('JC-L-PLAIN')!.provisional).toBe(false);
    expect(store.gameTileDefinitions(id).map((d) => d.tileId)).toEqual(['JC-L-PLAIN']);
  });

  it('the table can describe a tile again: the latest wins for new games, and a game whose events it leaves unchanged follows it', () => {
    const file = tempFile();
    const s = new GameSession(open(file));
    ok(s.saveTile(plainWithRoad, null, 'settings'));
    const first = ok(s.newGame(setup));
    ok(s.play(northOfStart(90)[0]!));
    ok(s.play(northOfStart(90)[1]!));
    // Road S–W: turned 90° it runs W–N, still clear of the tournament tile; nothing scored differs.
    const curve: TileDefinition = {
      tile: 'JC-L-PLAIN',
      segments: ['field', 'field', 'field', 'field', 'field', 'field', 'field', 'road', 'field', 'field', 'road', 'field'],
      features: [feature('road1', 'road', [7, 10]), feature('field1', 'field', [8, 9]), feature('field2', 'field', [11, 0, 1, 2, 3, 4, 5, 6])],
    };
    const second = ok(s.saveTile(curve, null, 'settings'));
    expect(second.game).toMatchObject({ id: first, updated: true });
    const again = GameSession.resume(open(file));
    expect(again.currentGame!.catalog.get('JC-L-PLAIN')!.segments).toEqual(curve.segments);
    expect(again.snapshot().game!.board.find((t) => t.tile === 'JC-L-PLAIN')!.terrain).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    ok(again.newGame(setup));
    expect(again.currentGame!.catalog.get('JC-L-PLAIN')!.segments).toEqual(curve.segments);
  });

  it('siege symbols and the statue come from the description', () => {
    const s = new GameSession(open(tempFile()));
    const sd = definitionOf(defaultCatalog().get('SD-L-17')!);
    ok(s.saveTile({ ...sd, siege: ['knights', 'any'] }, null, 'settings'));
    const prize = definitionOf(defaultCatalog().get('JC-P-06')!);
    ok(s.saveTile({ ...prize, features: prize.features.map((f) => (f.kind === 'city' ? { ...f, id: 'keep', pennants: 2 } : f.kind === 'field' ? { ...f, adjacentCities: ['keep'] } : f)), statue: 'keep' }, null, 'settings'));
    ok(s.newGame(setupFromNewGame({ ...NEW_GAME, expansions: ['base', 'jousts-crests', 'siege-defense'], options: { ...NEW_GAME.options, sd: { rowBase: [3, 4] } } })));
    ok(s.play({ type: 'drawTile', player: 0, tile: 'SD-L-17' }));
    expect(s.snapshot().game!.sd!.pending).toEqual(['knights', 'any']);
    expect(s.currentGame!.catalog.get('JC-P-06')).toMatchObject({ statue: 'keep', provisional: false });
  });
});

describe('tile editor: refusals', () => {
  const refusal = (s: GameSession, d: TileDefinition) => {
    const r = s.saveTile(d, null, 'settings');
    expect(r.ok).toBe(false);
    return r.ok ? '' : r.reason;
  };

  it('an inconsistent description is refused, naming the tile and what is wrong, and nothing is saved', () => {
    const store = open(tempFile());
    const s = new GameSession(store);
    const plain = definitionOf(defaultCatalog().get('JC-L-PLAIN')!);
    // Terrain says road, but the segments still belong to the field.
    expect(refusal(s, { ...plain, segments: plainWithRoad.segments })).toBe('tile JC-L-PLAIN: segment N1 is road but feature field1 is a field');
    // The road's segments are claimed twice.
    expect(refusal(s, { ...plainWithRoad, features: [...plainWithRoad.features.slice(0, 1), feature('field1', 'field', [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11])] })).toBe(
      'tile JC-L-PLAIN: segment N1 belongs to road1 and field1',
    );
    // A city on one third of a side.
    const corner: TileDefinition = { ...plain, segments: ['city', ...plain.segments.slice(1)], features: [feature('city1', 'city', [0]), feature('field1', 'field', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])] };
    expect(refusal(s, corner)).toBe('tile JC-L-PLAIN: city city1 must cover whole sides');
    expect(refusal(s, { ...plainWithRoad, features: plainWithRoad.features.map((f) => (f.id === 'field1' ? { ...f, pennants: 1 } : f)) })).toBe(
      'tile JC-L-PLAIN: feature field1: only a city shows coats of arms',
    );
    expect(refusal(s, { ...plainWithRoad, siege: ['knights'] })).toBe('tile JC-L-PLAIN: JC-L-PLAIN is not a Siege & Defense land tile: it shows no siege symbols');
    const sd = definitionOf(defaultCatalog().get('SD-L-17')!);
    expect(refusal(s, { ...sd, siege: [] })).toBe('tile SD-L-17: SD-L-17 shows one or two siege symbols');
    const prize = definitionOf(defaultCatalog().get('JC-P-02')!);
    expect(refusal(s, { ...prize, statue: 'field1' })).toMatch(/^tile JC-P-02: prize tile JC-P-02: the statue must stand in one of its cities/);
    const river = definitionOf(defaultCatalog().get('JC-R-1')!);
    expect(refusal(s, { ...river, segments: river.segments.map(() => 'field'), features: [feature('field1', 'field', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])] })).toBe(
      'tile JC-R-1: JC-R-1 is a river tile: it must keep its river',
    );
    expect(refusal(s, { ...definitionOf(defaultCatalog().get('BASE_A')!) })).toMatch(/BASE_A is a printed tile of the classic catalog/);
    expect(refusal(s, { ...plainWithRoad, tile: 'NO_SUCH' })).toBe('tile NO_SUCH: tile NO_SUCH is not in the catalog');
    expect(store.latestTileDefinitions()).toEqual([]);
    expect(s.editableTiles().every((t) => t.provisional)).toBe(true);
  });

  it('malformed arguments are refused at the contract, and a crop that is not the image it claims is refused', () => {
    const s = new GameSession(open(tempFile()));
    const short = parseArgs('saveTile', [{ ...plainWithRoad, segments: plainWithRoad.segments.slice(1) }, null, 'settings']);
    expect(short).toEqual({ ok: false, error: 'The tile description: segments: twelve edge segments, N0 to W2' });
    const badKind = parseArgs('saveTile', [{ ...plainWithRoad, features: [{ ...plainWithRoad.features[0], kind: 'castle' }] }, null, 'settings']);
    expect(badKind.ok).toBe(false);
    expect(!badKind.ok && badKind.error).toMatch(/^The tile description: features, item 1, kind: /);
    const r = s.saveTile(plainWithRoad, { mime: 'image/png', base64: Buffer.from('not a png at all').toString('base64') }, 'camera');
    expect(r).toEqual({ ok: false, reason: 'the crop is not a PNG image' });
  });
});

describe('tile editor: the crop is enrolled', () => {
  it('the crop is stored with the description and read into exemplars by the real model', async () => {
    const file = tempFile();
    const store = open(file);
    const s = new GameSession(store);
    const tile = { ...defaultCatalog().get('JC-L-PLAIN')!, segments: plainWithRoad.segments, features: plainWithRoad.features };
    const png = await svgToPng(tileSvg(tile, TRAIN_STYLES[0]!, { variant: 3 }), 64);
    const saved = ok(s.saveTile(plainWithRoad, { mime: 'image/png', base64: png.toString('base64') }, 'camera'));
    expect(saved.exemplarId).not.toBeNull();
    expect(s.editableTiles().find((t) => t.id === 'JC-L-PLAIN')!.photos).toBe(1);
    expect(store.exemplars('JC-L-PLAIN')[0]!.image.equals(png)).toBe(true);

    const recognizer = await TileRecognizer.load();
    const { enrollment, problems } = await enrollmentFromStore(open(file), recognizer);
    expect(problems).toEqual([]);
    expect(enrollment.size).toBe(4);
    expect(enrollment.hasTile('JC-L-PLAIN')).toBe(true);
    const reading = await recognizer.readOne(png);
    expect(enrollment.similarity(reading.embedding, 'JC-L-PLAIN', 0)).toBeGreaterThan(0.99);
  }, 60_000);
});
