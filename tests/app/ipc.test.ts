import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { OPERATION_NAMES } from '../../electron/contract/api.js';
import { lanOff } from '../../electron/services/api/handlers.js';
import { GameSession } from '../../electron/services/session/session.js';
import { Store } from '../../electron/services/store/store.js';
import { handlers } from './fakes/electron.js';

vi.mock('electron', () => import('./fakes/electron.js'));

describe('Electron IPC', async () => {
  const { registerIpc, channel } = await import('../../electron/main/ipc.js');
  const store = Store.open(join(mkdtempSync(join(tmpdir(), 'companion-ipc-')), 'c.sqlite'));
  const session = new GameSession(store);
  const window = { id: 'our window' };
  registerIpc({ session, store, pairing: lanOff([]) }, (e) => (e.sender as unknown) === window);
  const call = (op: string, args: unknown, sender: unknown = window) => handlers.get(channel(op))!({ sender }, args);

  it('has one channel per operation', () => {
    expect([...handlers.keys()].sort()).toEqual(OPERATION_NAMES.map(channel).sort());
  });

  it('checks every argument and refuses other senders', () => {
    expect(call('newGame', [{ players: [{ name: 'Ada', color: 'red' }, { name: 'Bo', color: 'blue' }], expansions: ['base'] }])).toMatchObject({ ok: true });
    expect(call('play', [{ type: 'placeTile', player: 0, tile: 'BASE_U', at: [1, 0], rot: 0 }])).toMatchObject({ ok: true });
    expect(call('play', [{ type: 'placeTile', player: 0, tile: '../../etc', at: [1, 0], rot: 0 }])).toMatchObject({ ok: false, error: expect.stringMatching(/^The move: tile: a tile of the game$/) });
    expect(call('play', 'not a list')).toMatchObject({ ok: false, error: expect.stringMatching(/^The move: /) });
    expect(call('correct', [0, { type: 'endTurn', player: 0 }, 'extra'])).toMatchObject({ ok: false });
    expect(call('loadGame', [1.5])).toMatchObject({ ok: false, error: expect.stringMatching(/^Opening the game: /) });
    expect(call('undo', [], { id: 'a devtools page' })).toMatchObject({ ok: false, error: expect.stringMatching(/did not come from the companion's window/) });
    expect(session.snapshot().game!.board).toHaveLength(2);
    store.close();
  });
});

describe('Electron permissions', async () => {
  const { allowCameraOnly } = await import('../../electron/main/permissions.js');
  type Request = (wc: unknown, permission: string, callback: (granted: boolean) => void, details: object) => void;
  type Check = (wc: unknown, permission: string, origin: string, details: object) => boolean;
  let request: Request | undefined;
  let check: Check | undefined;
  allowCameraOnly({
    setPermissionRequestHandler: (h: Request) => (request = h),
    setPermissionCheckHandler: (h: Check) => (check = h),
  } as never);
  const ask = (permission: string, details: object) => {
    let granted: boolean | undefined;
    request!(null, permission, (g) => (granted = g), details);
    return granted;
  };

  it('grants the camera and nothing else', () => {
    expect(ask('media', { mediaTypes: ['video'] })).toBe(true);
    expect(ask('media', { mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(ask('media', { mediaTypes: ['audio'] })).toBe(false);
    for (const p of ['geolocation', 'notifications', 'clipboard-read', 'midi', 'openExternal']) expect(ask(p, {})).toBe(false);
    expect(check!(null, 'media', 'file://', { mediaType: 'video' })).toBe(true);
    expect(check!(null, 'media', 'file://', { mediaType: 'audio' })).toBe(false);
    expect(check!(null, 'geolocation', 'file://', {})).toBe(false);
  });
});
