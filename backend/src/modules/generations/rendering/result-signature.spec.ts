import sharp from 'sharp';
import { compareSignature, readSignature, reportProbe, resultSignature, SIGNATURE_BYTES, SIGNATURE_VERSION } from './result-signature';

/**
 * A result-like picture: a textured backdrop and a card that every picture of this "template"
 * shares, and a panel that shows the person (shapes drawn from `person`).
 */
async function picture(person: number): Promise<Buffer> {
  const shapes = Array.from({ length: 7 }, (_, i) => {
    const v = (person * 7919 + i * 104729) % 1000;
    return `<rect x="${60 + (v % 260)}" y="${140 + ((v * 7) % 420)}" width="${30 + (v % 90)}" height="${40 + ((v * 3) % 120)}" fill="hsl(${(v * 37) % 360},60%,${25 + (v % 50)}%)"/>`;
  }).join('');
  const stripes = Array.from(
    { length: 24 },
    (_, i) => `<rect x="0" y="${i * 40}" width="720" height="14" fill="#${i % 2 ? '8fb3c9' : 'c9b38f'}"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="1000"><rect width="720" height="1000" fill="#d9cbb5"/>${stripes}` +
    `<rect x="40" y="120" width="400" height="520" fill="#f4f1ea"/>${shapes}` +
    `<rect x="470" y="560" width="210" height="300" rx="20" fill="#fffaf0"/><circle cx="575" cy="650" r="45" fill="#b5651d"/>` +
    `<rect x="540" y="700" width="70" height="120" fill="#e8b923"/><text x="120" y="940" font-size="48" font-family="sans-serif">SUMMER LOOK</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

describe('the picture signature of a result', () => {
  it('is small, versioned, and read back as it was written', async () => {
    const bytes = await resultSignature(await picture(1));
    expect(bytes.length).toBeLessThanOrEqual(SIGNATURE_BYTES);
    expect(bytes[0]).toBe(SIGNATURE_VERSION);
    const signature = readSignature(bytes)!;
    expect(signature.xs.length).toBeGreaterThan(20);
    expect(Math.max(signature.width, signature.height)).toBe(320);
    expect(readSignature(Buffer.from([SIGNATURE_VERSION + 1, ...bytes.subarray(1)]))).toBeNull();
    expect(readSignature(Buffer.alloc(0))).toBeNull();
  });

  it('finds the picture in a copy cropped, turned, framed or recompressed, and tells a look-alike apart', async () => {
    const original = await picture(1);
    const lookAlike = readSignature(await resultSignature(await picture(2)))!;
    const own = readSignature(await resultSignature(original))!;
    const { width, height } = await sharp(original).metadata();
    const copies = {
      crop20: await sharp(original)
        .extract({ left: 90, top: 60, width: Math.round(width! * 0.8), height: Math.round(height! * 0.8) })
        .jpeg()
        .toBuffer(),
      rotate5: await sharp(original).rotate(5, { background: '#ffffff' }).jpeg().toBuffer(),
      border: await sharp(original)
        .resize(540)
        .extend({ top: 200, bottom: 200, left: 270, right: 270, background: '#000000' })
        .jpeg()
        .toBuffer(),
      recompress: await sharp(original).resize(480).jpeg({ quality: 50 }).toBuffer(),
    };
    for (const [name, copy] of Object.entries(copies)) {
      const probe = await reportProbe(copy);
      const same = compareSignature(probe, own);
      const other = compareSignature(probe, lookAlike);
      expect({ name, agrees: same.agreement >= 0.97, inliers: same.inliers >= 20 }).toEqual({ name, agrees: true, inliers: true });
      // the backdrop and card are the same, the panel is not: a share of the grid disagrees
      expect({ name, lookAlikeDisagrees: 1 - other.agreement >= 0.05 }).toEqual({ name, lookAlikeDisagrees: true });
    }
  });

  it('finds nothing in a picture that is none of ours', async () => {
    const own = readSignature(await resultSignature(await picture(1)))!;
    const flat = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    expect(compareSignature(await reportProbe(flat), own)).toMatchObject({ inliers: 0, agreement: 0 });
  });
});
