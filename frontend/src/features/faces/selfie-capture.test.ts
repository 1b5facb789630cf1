import { describe, expect, it } from 'vitest';
import { cameraProblem, captureFrames, frameSize, turnInstruction } from './selfie-capture';

describe('the live selfie’s capture', () => {
  it('takes the frames the challenge asks for, one every interval from the start, in order', async () => {
    const waits: number[] = [];
    let n = 0;
    const seen: number[] = [];
    const frames = await captureFrames(
      () => Promise.resolve(new Blob([String(n++)], { type: 'image/jpeg' })),
      { frames: 12, intervalMs: 450, onFrame: (taken) => seen.push(taken) },
      (ms) => {
        waits.push(ms);
        return new Promise((resolve) => setTimeout(resolve, 0));
      },
    );
    expect(frames).toHaveLength(12);
    expect(await Promise.all(frames.map((f) => f.text()))).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // the first at once, then 11 waits, each up to the next 450 ms mark from the start
    expect(waits).toHaveLength(11);
    waits.forEach((ms, i) => expect(ms).toBeLessThanOrEqual((i + 1) * 450));
    expect(waits.at(-1)).toBeGreaterThan(11 * 450 - 200);
  });

  it('stops when the dialog is closed', async () => {
    const abort = new AbortController();
    const grabbed: number[] = [];
    const run = captureFrames(
      () => {
        grabbed.push(1);
        if (grabbed.length === 3) abort.abort();
        return Promise.resolve(new Blob(['x']));
      },
      { frames: 12, intervalMs: 1, signal: abort.signal },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(grabbed).toHaveLength(3);
  });

  it('sends frames of at most 640 pixels a side, keeping the camera’s shape', () => {
    expect(frameSize(1280, 720)).toEqual({ width: 640, height: 360 });
    expect(frameSize(640, 480)).toEqual({ width: 640, height: 480 });
    expect(frameSize(480, 640)).toEqual({ width: 480, height: 640 });
    expect(frameSize(320, 240)).toEqual({ width: 320, height: 240 });
  });

  it('says the asked turn and why a camera did not start, in the person’s words', () => {
    expect(turnInstruction('left')).toBe('Look at the camera, turn your head to your left, then back.');
    expect(cameraProblem(new DOMException('denied', 'NotAllowedError'))).toMatch(/blocked/);
    expect(cameraProblem(new DOMException('none', 'NotFoundError'))).toMatch(/taken live with a camera/);
  });
});
