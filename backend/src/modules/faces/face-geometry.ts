import type { Point } from './engine/face-engine';

/**
 * Pure arithmetic over what the face model answers: distances between descriptors, and the head's
 * turn (yaw) read from the 68 landmarks. No model here: the unit tests drive it with landmark tracks.
 */

/** Euclidean distance of two descriptors (face-api's measure: the same person is usually under 0.5-0.6). */
export function descriptorDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`descriptors of different lengths: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/** The nearest of `candidates` to `face`, with its index; null for no candidate. */
export function nearest(face: ArrayLike<number>, candidates: ArrayLike<number>[]): { index: number; distance: number } | null {
  let best: { index: number; distance: number } | null = null;
  candidates.forEach((c, index) => {
    const distance = descriptorDistance(face, c);
    if (!best || distance < best.distance) best = { index, distance };
  });
  return best;
}

const mean = (points: Point[]): Point => [
  points.reduce((s, p) => s + p[0], 0) / points.length,
  points.reduce((s, p) => s + p[1], 0) / points.length,
];

/** Landmarks turned so that the eyes are level (the head's tilt, its roll, taken out), around the eyes' middle. */
function levelled(landmarks: Point[]): Point[] {
  const left = mean(landmarks.slice(36, 42));
  const right = mean(landmarks.slice(42, 48));
  const angle = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const [cx, cy] = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2];
  const cos = Math.cos(-angle);
  const sin = Math.sin(-angle);
  return landmarks.map(([x, y]) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos]);
}

/**
 * How far the head is turned, from -1 to 1: where the nose's ridge and tip sit between the two sides
 * of the jaw, once the roll is taken out. 0 is straight at the camera; positive when the nose moves
 * to the picture's right (the person turns to their own left, seen by an unmirrored camera).
 *
 * A real head turns in depth: the nose, well in front of the jaw line, swings toward one edge of the
 * face while the far cheek narrows. A flat picture (a printed photo or a screen held to the camera)
 * that is turned, tilted or moved keeps its proportions: the nose stays where it was between the two
 * jaw lines (an affine change keeps ratios along a line; a perspective one barely moves them for a
 * face a few centimetres wide), so its yaw stays that of the photo.
 */
export function yawOf(landmarks: Point[]): number {
  if (landmarks.length !== 68) throw new Error(`expected 68 landmarks, got ${landmarks.length}`);
  const p = levelled(landmarks);
  // the jaw's two sides at the height of the nose (points 1-3 and 13-15), and the nose (ridge and tip: 27-30, 33)
  const leftJaw = mean([p[1], p[2], p[3]])[0];
  const rightJaw = mean([p[13], p[14], p[15]])[0];
  const nose = mean([p[28], p[29], p[30], p[33]])[0];
  const width = rightJaw - leftJaw;
  if (width <= 0) return 0;
  return Math.max(-1, Math.min(1, ((nose - leftJaw) / width - 0.5) * 2));
}

/** The in-plane tilt of the head (roll), in degrees: the eyes' line against the horizontal. */
export function rollOf(landmarks: Point[]): number {
  const left = mean(landmarks.slice(36, 42));
  const right = mean(landmarks.slice(42, 48));
  return (Math.atan2(right[1] - left[1], right[0] - left[0]) * 180) / Math.PI;
}

/** Solves `a x = b` (n x n) by Gaussian elimination with partial pivoting; null when singular. */
function solve(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    if (Math.abs(m[pivot][c]) < 1e-12) return null;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * How far the landmarks of `to` are from any flat picture of `from`: the best plane-to-plane
 * mapping (a homography, 8 numbers, least squares over the 68 points) is fitted, and the points'
 * root mean square distance from it is answered, in units of the distance between the eyes. A flat
 * picture moved, tilted, turned or seen in perspective is exactly such a mapping of itself (only the
 * landmarks' own noise is left, about 0.01-0.03); a real head that turns is not (the nose, in front of
 * the face, moves against the jaw behind it: parallax).
 */
export function flatness(from: Point[], to: Point[]): number {
  const eyes = (p: Point[]) => {
    const l = mean(p.slice(36, 42));
    const r = mean(p.slice(42, 48));
    return { centre: [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2] as Point, span: Math.hypot(r[0] - l[0], r[1] - l[1]) || 1 };
  };
  const a = eyes(from);
  const b = eyes(to);
  const src = from.map(([x, y]) => [(x - a.centre[0]) / a.span, (y - a.centre[1]) / a.span]);
  const dst = to.map(([x, y]) => [(x - b.centre[0]) / b.span, (y - b.centre[1]) / b.span]);
  // normal equations of the DLT with h33 = 1
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  for (let i = 0; i < src.length; i++) {
    const [x, y] = src[i];
    const [u, v] = dst[i];
    const rows: [number[], number][] = [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ];
    for (const [row, rhs] of rows)
      for (let j = 0; j < 8; j++) {
        atb[j] += row[j] * rhs;
        for (let k = 0; k < 8; k++) ata[j][k] += row[j] * row[k];
      }
  }
  const h = solve(ata, atb);
  if (!h) return Number.POSITIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < src.length; i++) {
    const [x, y] = src[i];
    const w = h[6] * x + h[7] * y + 1;
    const u = (h[0] * x + h[1] * y + h[2]) / w;
    const v = (h[3] * x + h[4] * y + h[5]) / w;
    sum += (u - dst[i][0]) ** 2 + (v - dst[i][1]) ** 2;
  }
  return Math.sqrt(sum / src.length);
}

/** A head turn asked of the person: to their left or right, then back to the camera. */
export type TurnDirection = 'left' | 'right';

/** The thresholds of the live check, in yaw relative to the head's usual position (measured: docs/safety.md). */
export const TURN_RULES = {
  /** the head's usual position (the median of the frames) may be turned this much at most: roughly facing the camera */
  startWithin: 0.35,
  /** a frame at most this far from the usual position counts as facing the camera */
  facing: 0.12,
  /** the turn must move the yaw at least this far toward the asked side */
  turned: 0.3,
  /** and the turned frame must be at least this far from any flat picture of a facing frame (flatness()) */
  depth: 0.06,
  /** frames in a sequence: the browser sends 12, 450 ms apart */
  minFrames: 8,
  maxFrames: 16,
} as const;

export type TurnFailure = 'too_few_frames' | 'no_face' | 'not_facing' | 'no_turn' | 'wrong_way' | 'not_back' | 'flat';

export type TurnVerdict = { ok: true; peakTurn: number } | { ok: false; reason: TurnFailure; peakTurn: number };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Judges a sequence of frames' landmarks (in order; null where no single face was found) against the
 * asked turn. The head's usual position is the median yaw of the frames (a person faces the camera
 * most of the time), which must roughly face the camera. Relative to it, a frame facing the camera
 * (within `facing`) must come first, then a frame turned at least `turned` toward the asked side,
 * then a frame facing the camera again. `left` is the person's left: the nose moves to the picture's
 * right (the yaw grows). A turn the other way on the way is not held against the person (people mix
 * up left and right). And the turned frame must not be a flat picture of the facing one (`flatness`
 * at least `depth`): a printed photo or a screen held to the camera, however it is moved, tilted or
 * turned, is refused even where the perspective fools the yaw.
 */
export function judgeTurn(frames: (Point[] | null)[], direction: TurnDirection): TurnVerdict {
  const sign = direction === 'left' ? 1 : -1;
  const yaws = frames.map((f) => (f ? yawOf(f) : null));
  const seen = yaws.filter((y): y is number => y !== null);
  if (frames.length < TURN_RULES.minFrames) return { ok: false, reason: 'too_few_frames', peakTurn: 0 };
  if (seen.length < Math.ceil(frames.length * 0.6)) return { ok: false, reason: 'no_face', peakTurn: 0 };
  const usual = median(seen);
  const turns = yaws.map((y) => (y === null ? null : (y - usual) * sign));
  const peakTurn = turns.reduce<number>((best, t) => (t !== null && Math.abs(t) > Math.abs(best) ? t : best), 0);
  if (Math.abs(usual) > TURN_RULES.startWithin) return { ok: false, reason: 'not_facing', peakTurn };
  const facingAt = (from: number) => turns.findIndex((t, i) => i >= from && t !== null && Math.abs(t) <= TURN_RULES.facing);
  const turnedAt = (from: number) => turns.findIndex((t, i) => i >= from && t !== null && t >= TURN_RULES.turned);
  // the first facing frame, then the first asked turn after it, then a facing frame after that
  const facing = facingAt(0);
  const turn = facing < 0 ? -1 : turnedAt(facing + 1);
  if (turn < 0) {
    if (turns.some((t) => t !== null && t >= TURN_RULES.turned)) return { ok: false, reason: 'not_back', peakTurn };
    return { ok: false, reason: turns.some((t) => t !== null && -t >= TURN_RULES.turned) ? 'wrong_way' : 'no_turn', peakTurn };
  }
  if (facingAt(turn + 1) < 0) return { ok: false, reason: 'not_back', peakTurn };
  // the deepest of the turned frames against the facing one: a real head is no flat picture of itself
  const depth = Math.max(...turns.map((t, i) => (t !== null && t >= TURN_RULES.turned ? flatness(frames[facing]!, frames[i]!) : 0)));
  if (depth < TURN_RULES.depth) return { ok: false, reason: 'flat', peakTurn };
  return { ok: true, peakTurn };
}
