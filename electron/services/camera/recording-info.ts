/**
 * The bundled recording as the camera service uses it (docs/recording-format.md): where its markers
 * lie and which art it shows (the table profile the tracker reads by), and the game it was recorded
 * from (it only plays into a game set up the same way).
 */
import type { GameSetup } from '../../../engine/game/setup.js';
import { fail, ok, type Result } from '../../../engine/result.js';
import { setupFromRecord } from '../../../engine/record/convert.js';
import { parseRecord } from '../../../engine/record/schema.js';
import type { SheetLayout } from '../../../calibration/sheet/layout.js';
import { readManifest, readRecordJson } from '../../../models/scene/recording.js';

/** What the tracker must know of the table: the tile set's art as enrolled, and where the markers lie. */
export interface TableProfile {
  readonly style: string;
  readonly markers: SheetLayout;
}

export interface RecordingInfo {
  readonly dir: string;
  readonly profile: TableProfile;
  /** The recorded game's setup: the recording is only played into a game set up the same way. */
  readonly setup: GameSetup;
  readonly fps: number;
}

/** Reads what the camera service needs from a recording directory. */
export function recordingInfo(dir: string): Result<RecordingInfo> {
  const m = readManifest(dir);
  if (!m.ok) return fail(m.error);
  const src = m.value.source as { style?: unknown; markers?: unknown };
  if (typeof src.style !== 'string' || !src.markers) return fail(`${dir}: the manifest names no tile set style or marker layout`);
  const raw = readRecordJson(dir);
  if (!raw.ok) return fail(raw.error);
  const rec = parseRecord(raw.value);
  if (!rec.ok) return fail(`${dir}: ground truth: ${rec.reason}`);
  return ok({ dir, profile: { style: src.style, markers: src.markers as SheetLayout }, setup: setupFromRecord(rec.record), fps: m.value.fps });
}

/** Does a game's setup match the recording's (the same expansions and seats)? The mismatch in words, or null. */
export function setupMismatch(game: GameSetup, rec: GameSetup): string | null {
  const ex = (s: GameSetup) => [...s.expansions].sort().join(', ');
  if (ex(game) !== ex(rec)) return `expansions ${ex(rec)}`;
  const seats = (s: GameSetup) => s.players.map((p) => p.color).join(', ');
  if (seats(game) !== seats(rec)) return `${rec.players.length} players, colours ${seats(rec)} in that order`;
  return null;
}
