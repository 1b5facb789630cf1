import { descriptorDistance, flatness, judgeTurn, nearest, rollOf, TURN_RULES, yawOf } from './face-geometry';
import type { Point } from './engine/face-engine';

/**
 * A head as 68 landmarks in 3-D (x to the picture's right, y down, z toward the camera), in the
 * layout of the 68-point model: the jaw line far back at its ends, the nose well in front. A real
 * head turn rotates these points in depth; a printed photo of the face is the same points with no
 * depth (z = 0), which can only be moved, tilted or turned as a flat card.
 */
function head(): [number, number, number][] {
  const p: [number, number, number][] = [];
  for (let k = 0; k <= 16; k++) {
    const a = (Math.PI * k) / 16;
    p.push([-70 * Math.cos(a), 10 + 70 * Math.sin(a), -45 * (1 - Math.sin(a)) - 5]); // jaw 0-16
  }
  for (let k = 0; k < 5; k++) p.push([-55 + k * 10, -40 + Math.abs(k - 2) * 2, 12]); // left brow 17-21
  for (let k = 0; k < 5; k++) p.push([15 + k * 10, -40 + Math.abs(k - 2) * 2, 12]); // right brow 22-26
  for (let k = 0; k < 4; k++) p.push([0, -25 + k * 12, 20 + k * 8]); // nose ridge 27-30, the tip well in front
  for (let k = 0; k < 5; k++) p.push([-14 + k * 7, 24, 26 - Math.abs(k - 2) * 3]); // nostrils 31-35
  const eye = (cx: number): [number, number, number][] =>
    [0, 1, 2, 3, 4, 5].map((k) => [cx + 14 * Math.cos((Math.PI * k) / 3), -20 + 5 * Math.sin((Math.PI * k) / 3), 8]);
  p.push(...eye(-30), ...eye(30)); // eyes 36-47
  for (let k = 0; k < 12; k++) p.push([26 * Math.cos((2 * Math.PI * k) / 12), 52 + 10 * Math.sin((2 * Math.PI * k) / 12), 16]); // outer lips 48-59
  for (let k = 0; k < 8; k++) p.push([16 * Math.cos((2 * Math.PI * k) / 8), 52 + 4 * Math.sin((2 * Math.PI * k) / 8), 17]); // inner lips 60-67
  return p;
}

/** The camera's picture of 3-D points: perspective from `distance` away (a phone at arm's length), centred at (320, 240). */
function project(points: [number, number, number][], distance = 450, focal = 500): Point[] {
  return points.map(([x, y, z]) => [320 + (focal * x) / (distance - z), 240 + (focal * y) / (distance - z)]);
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The head turned by `yawDeg` (positive: to the person's left, the nose toward the picture's right). */
function turned(yawDeg: number): Point[] {
  const c = Math.cos(rad(yawDeg));
  const s = Math.sin(rad(yawDeg));
  return project(head().map(([x, y, z]) => [x * c + z * s, y, -x * s + z * c]));
}

/** A printed photo of the face (facing the camera) held as a card: turned `cardDeg` about its vertical axis, tilted in its plane, moved. */
function flatCard(cardDeg: number, rollDeg = 0, dx = 0, dy = 0): Point[] {
  const c = Math.cos(rad(cardDeg));
  const s = Math.sin(rad(cardDeg));
  const rc = Math.cos(rad(rollDeg));
  const rs = Math.sin(rad(rollDeg));
  const photo = project(head()).map(([x, y]) => [(x - 320) * 0.9, (y - 240) * 0.9] as const); // the picture as printed, no depth
  return project(
    photo.map(([x, y]) => {
      const [xr, yr] = [x * rc - y * rs, x * rs + y * rc];
      return [xr * c + dx, yr + dy, -xr * s];
    }),
  );
}

describe('yawOf: how far the head is turned, from the 68 landmarks', () => {
  it('is about 0 facing the camera, grows when the person turns to their left and falls to their right', () => {
    expect(Math.abs(yawOf(turned(0)))).toBeLessThan(0.02);
    expect(yawOf(turned(30))).toBeGreaterThan(TURN_RULES.turned);
    expect(yawOf(turned(-30))).toBeLessThan(-TURN_RULES.turned);
    expect(yawOf(turned(15))).toBeGreaterThan(yawOf(turned(5)));
  });

  it('does not move when a flat photo is turned up to 60 degrees, tilted 25 degrees in its plane or moved', () => {
    const still = yawOf(flatCard(0));
    for (const [card, roll, dx, dy] of [
      [30, 0, 0, 0],
      [-45, 0, 0, 0],
      [60, 0, 40, 0],
      [0, 25, 0, 0],
      [0, -25, -60, 30],
      [40, 15, 80, -20],
    ]) {
      const yaw = yawOf(flatCard(card, roll, dx, dy));
      expect(Math.abs(yaw - still)).toBeLessThan(TURN_RULES.facing);
    }
  });

  it('takes the tilt (roll) out before it measures', () => {
    expect(Math.abs(rollOf(flatCard(0, 20)) - 20)).toBeLessThan(1);
    expect(Math.abs(yawOf(flatCard(0, 20)) - yawOf(flatCard(0)))).toBeLessThan(0.01);
  });
});

describe('judgeTurn: the asked head turn, then back, over a sequence of frames', () => {
  const track = (degrees: number[]) => degrees.map((d) => turned(d));
  const realLeft = track([0, 0, 2, 12, 25, 35, 33, 18, 6, 1, 0, 0]);

  it('accepts a real turn to the asked side and back', () => {
    expect(judgeTurn(realLeft, 'left')).toMatchObject({ ok: true });
    expect(judgeTurn(track([0, -1, -10, -28, -36, -30, -12, -2, 0, 0, 1, 0]), 'right')).toMatchObject({ ok: true });
  });

  it('refuses the turn to the other side, and a turn that never comes back', () => {
    expect(judgeTurn(realLeft, 'right')).toMatchObject({ ok: false, reason: 'wrong_way' });
    expect(judgeTurn(track([0, 0, 0, 0, 0, 0, 0, 5, 15, 25, 35, 38]), 'left')).toMatchObject({ ok: false, reason: 'not_back' });
  });

  it('accepts a person who turned the wrong way first and then as asked', () => {
    expect(judgeTurn(track([0, 0, -30, -10, 0, 0, 20, 35, 30, 10, 0, 0]), 'left')).toMatchObject({ ok: true });
  });

  it('refuses a still photo held to the camera, however it is turned, tilted and moved', () => {
    const card = [0, 0, 10, 25, 45, 60, 60, 45, 20, 0, -20, 0];
    const rolls = [0, 0, 5, 10, 20, 25, 25, 15, 0, -10, -25, 0];
    const shifts = [0, 0, 20, 40, 60, 60, 30, 0, -30, -60, -40, 0];
    const frames = card.map((c, i) => flatCard(c, rolls[i], shifts[i], shifts[i] / 2));
    for (const turn of ['left', 'right'] as const) expect(judgeTurn(frames, turn)).toMatchObject({ ok: false });
    // where the perspective fools the yaw (a card turned 60 degrees and tilted), the landmarks stay a flat picture
    const fooled = [0, 0, 0, 0, 0, 0]
      .map(() => flatCard(0))
      .concat(
        [flatCard(60, 25, 60, 30), flatCard(60, 25, 60, 30)],
        [0, 0, 0, 0].map(() => flatCard(0)),
      );
    expect(judgeTurn(fooled, 'right')).toMatchObject({ ok: false, reason: 'flat' });
  });

  it('flatness: a flat picture moved is its own homography; a turned head is not', () => {
    const front = flatCard(0);
    expect(flatness(front, flatCard(60, 25, 60, 30))).toBeLessThan(0.01);
    expect(flatness(turned(0), turned(30))).toBeGreaterThan(TURN_RULES.depth);
    expect(flatness(turned(0), turned(0))).toBeLessThan(0.001);
  });

  it('refuses too few frames, and frames without a face', () => {
    expect(judgeTurn(realLeft.slice(0, 5), 'left')).toMatchObject({ ok: false, reason: 'too_few_frames' });
    expect(
      judgeTurn(
        realLeft.map((y, i) => (i % 2 ? null : y)),
        'left',
      ),
    ).toMatchObject({ ok: false, reason: 'no_face' });
  });

  it('refuses a head turned away the whole time (nobody facing the camera)', () => {
    expect(judgeTurn(track([50, 52, 55, 60, 58, 55, 52, 50, 50, 52, 55, 50]), 'left')).toMatchObject({ ok: false });
  });
});

describe('descriptor distances', () => {
  it('is euclidean, and finds the nearest candidate', () => {
    const a = [0, 0, 0];
    expect(descriptorDistance(a, [3, 4, 0])).toBe(5);
    expect(
      nearest(a, [
        [3, 4, 0],
        [1, 0, 0],
        [0, 2, 0],
      ]),
    ).toEqual({ index: 1, distance: 1 });
    expect(nearest(a, [])).toBeNull();
    expect(() => descriptorDistance([1], [1, 2])).toThrow();
  });
});
