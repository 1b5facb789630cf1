import sharp from 'sharp';
import { releasePixels } from './release-pixels';

describe('releasePixels', () => {
  it("frees sharp's decoded pixels at once: the buffer is empty afterwards", async () => {
    const { data } = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data.length).toBe(640 * 480 * 3);
    releasePixels(data);
    expect(data.length).toBe(0);
    expect(data.buffer.byteLength).toBe(0);
    releasePixels(data); // twice is harmless
  });

  it("leaves alone a Buffer that shares its memory (Node's pool, a slice of a larger one)", () => {
    const pooled = Buffer.from('a small string lives in the shared pool');
    const whole = Buffer.alloc(4096, 7);
    const slice = whole.subarray(100, 200);
    releasePixels(pooled);
    releasePixels(slice);
    expect(pooled.toString()).toBe('a small string lives in the shared pool');
    expect(slice.length).toBe(100);
    expect(whole[0]).toBe(7);
  });
});
