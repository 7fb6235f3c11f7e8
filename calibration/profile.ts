import { z } from 'zod';
import { fail, ok, type Result } from './result.js';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const point = z.object({ x: finite, y: finite });

/**
 * Everything the app stores per camera: intrinsics and distortion when a lens calibration was
 * done, the table-plane homography, and the lattice. Versioned so a stored profile can be migrated.
 */
export const CameraProfileSchema = z.object({
  version: z.literal(1),
  cameraId: z.string().min(1),
  imageSize: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  /** 3×3 camera matrix, row-major; absent when no lens calibration was done. */
  intrinsics: z.array(finite).length(9).optional(),
  /** opencv distortion coefficients k1, k2, p1, p2, k3. */
  distortion: z.array(finite).length(5).optional(),
  /** Table mm → image px, row-major 3×3. */
  tableToImage: z.array(finite).length(9).refine((h) => Math.abs(h[8]!) > 1e-12 || h.some((v) => v !== 0), 'homography is all zeros'),
  source: z.enum(['sheet', 'start-piece', 'manual', 'refit']),
  lattice: z.object({ originMm: point, pitchMm: finite.refine((v) => v > 30 && v < 60, 'pitch must be 30–60 mm'), angleDeg: finite, tileMm: finite.refine((v) => v > 30 && v < 60, 'tile size must be 30–60 mm') }),
  savedAt: z.string().datetime(),
});
export type CameraProfile = z.infer<typeof CameraProfileSchema>;

/** Parses a stored profile; the error names the first field that is wrong. */
export function parseCameraProfile(value: unknown): Result<CameraProfile> {
  const r = CameraProfileSchema.safeParse(value);
  if (r.success) return ok(r.data);
  const issue = r.error.issues[0]!;
  return fail('invalid-profile', `camera profile field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}
