/**
 * A second look: a reading the decoder is unsure of is read again at every quarter turn. Two views
 * (the crop and its half turn) are what the model reads by default, at a cost the batched target
 * allows; four read the hard crops a little better at half the speed. Unsure readings are few
 * (0.3–0.9 % of the placements on the synthetic sets), so reading only those again costs almost
 * nothing and reaches what four views reach everywhere. Chosen on synthetic sets, see
 * docs/recognition.md.
 */
import type { Decoded } from './decode.js';
import type { CropReading, TileRecognizer } from './runner.js';

/** Confidence below which a decoded reading gets a second look. */
export const SECOND_LOOK_BELOW = 0.9;

export interface Looked {
  readonly decoded: Decoded;
  /** The reading decoded: the first, or the second look's. */
  readonly reading: CropReading;
  readonly secondLook: boolean;
}

/**
 * Decodes `first` (the reading of the prepared crop `crop`, model size RGB); when the result is
 * unsure and the recognizer reads fewer than four views, reads the crop at the quarter turns not yet
 * read and decodes the four views merged instead.
 */
export async function decodeWithSecondLook(
  recognizer: TileRecognizer,
  crop: Uint8Array,
  first: CropReading,
  decode: (reading: CropReading) => Decoded,
  below = SECOND_LOOK_BELOW,
): Promise<Looked> {
  const decoded = decode(first);
  if (decoded.confidence >= below || recognizer.views === 4 || decoded.best === null) return { decoded, reading: first, secondLook: false };
  const again = await recognizer.readMoreViews(crop, first, 4);
  return { decoded: decode(again), reading: again, secondLook: true };
}
