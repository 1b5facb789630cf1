import { describe, expect, it } from 'vitest';
import { isImageFile, type MeasurePhoto, PHOTO_MESSAGES, screenPhotos } from './photo-rules';

const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const WEBP = [0x52, 0x49, 0x46, 0x46, 0x24, 0, 0, 0, 0x57, 0x45, 0x42, 0x50];
const file = (bytes: number[] | string, name: string, type: string) =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type });

describe('photos are checked by their bytes when added (issue 18, item 11)', () => {
  it('takes JPEG, PNG and WebP by their first bytes', async () => {
    await expect(isImageFile(file(JPEG, 'a.jpg', 'image/jpeg'))).resolves.toBe(true);
    await expect(isImageFile(file(PNG, 'a.png', 'image/png'))).resolves.toBe(true);
    await expect(isImageFile(file(WEBP, 'a.webp', 'image/webp'))).resolves.toBe(true);
  });

  it('refuses a text file named .jpg, and an image of another type', async () => {
    await expect(isImageFile(file('just some text', 'holiday.jpg', 'image/jpeg'))).resolves.toBe(false);
    await expect(isImageFile(file('GIF89a......', 'a.gif', 'image/gif'))).resolves.toBe(false);
    await expect(isImageFile(file([], 'empty.png', 'image/png'))).resolves.toBe(false);
  });

  it('keeps the real photos of a batch and names the problem once', async () => {
    const real = file(JPEG, 'me.jpg', 'image/jpeg');
    const { accepted, error } = await screenPhotos([file('text', 'fake.jpg', 'image/jpeg'), real], 0);
    expect(accepted).toEqual([real]);
    expect(error).toBe(PHOTO_MESSAGES.notAnImage);
    expect(PHOTO_MESSAGES.notAnImage).toBe('Please upload image files only');
  });
});

describe('photos too small for a try-on are refused before any upload, with guidance', () => {
  const sizes = new Map<string, { width: number; height: number }>();
  const measure: MeasurePhoto = async (f) => sizes.get(f.name) ?? null;

  it("names the photo's size and the minimum on its shorter side (the server's words)", async () => {
    const small = file(JPEG, 'tiny.jpg', 'image/jpeg');
    const fine = file(JPEG, 'fine.jpg', 'image/jpeg');
    sizes.set('tiny.jpg', { width: 120, height: 160 });
    sizes.set('fine.jpg', { width: 384, height: 2000 });
    const { accepted, error } = await screenPhotos([small, fine], 0, measure);
    expect(accepted).toEqual([fine]);
    expect(error).toBe('This photo is too small (120x160). Use a photo at least 384 pixels on its shorter side, showing you clearly.');
  });

  it('one pixel short on the shorter side is refused; a photo the browser cannot measure is left to the server', async () => {
    sizes.set('thin.jpg', { width: 2000, height: 383 });
    const thin = file(JPEG, 'thin.jpg', 'image/jpeg');
    const unknown = file(PNG, 'unknown.png', 'image/png');
    const { accepted, error } = await screenPhotos([thin, unknown], 0, measure);
    expect(accepted).toEqual([unknown]);
    expect(error).toMatch(/^This photo is too small \(2000x383\)/);
  });
});
