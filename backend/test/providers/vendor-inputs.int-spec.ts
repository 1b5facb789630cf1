/**
 * What a real vendor receives, end to end: the whole application (AI_PROVIDER=dashscope, fashn or
 * fal) against the local fake vendors, which load every input image as the vendor would and hold it to
 * the vendor's documented limits (sides, formats, alpha, required fields). A 4000x3000 photo is
 * stored at 2048 px and reaches the vendor as an opaque JPEG within the model's limits (at most
 * 2000 px for Wan and FASHN; fal's Kling takes the stored 2048 px copy as is); with a private
 * APP_URL the images travel inline (data URIs) and nothing is fetched from us, with a public one the
 * vendor fetches our signed links, and the copies made for it are gone once the generation ends.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import {
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitFor,
  waitForEnd,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';
import { FakeDashScopeServer } from './fake-dashscope.server';
import { FakeFalServer } from './fake-fal.server';
import { FakeFashnServer } from './fake-fashn.server';
import type { FakeVendorServer, ReceivedImage } from './fake-vendor-server';

// `Math` as a module constant: under Jest (a vm context) each lookup of a global in a hot loop
// costs about 30 times the arithmetic (docs/performance.md, "Tests and globals"); in Node it changes nothing.
const Math = globalThis.Math;

const PUBLIC_APP_URL = 'https://tryon.example';

/** A 4000x3000 camera photo: smooth light and some grain, so it weighs what a photo weighs (about 2 MB). */
async function cameraPhoto(width = 4000, height = 3000): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const grain = ((i * 2654435761) >>> 27) & 15;
      pixels[i++] = 120 + Math.round((x / width) * 80) + grain;
      pixels[i++] = 90 + Math.round((y / height) * 60) + grain;
      pixels[i++] = 80 + grain;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the input images a vendor receives', () => {
  const dashscope = new FakeDashScopeServer();
  const fashn = new FakeFashnServer();
  const fal = new FakeFalServer();
  let photo: Buffer;

  beforeAll(async () => {
    await dashscope.start();
    await fashn.start();
    await fal.start();
    photo = await cameraPhoto();
  });
  afterAll(async () => {
    await dashscope.stop();
    await fashn.stop();
    await fal.stop();
  });

  const VENDORS = {
    dashscope: {
      fake: dashscope,
      env: () => ({ AI_PROVIDER: 'dashscope', DASHSCOPE_API_KEY: dashscope.apiKey, DASHSCOPE_BASE_URL: dashscope.baseUrl }),
    },
    fashn: { fake: fashn, env: () => ({ AI_PROVIDER: 'fashn', FASHN_API_KEY: fashn.apiKey, FASHN_BASE_URL: fashn.baseUrl }) },
    // the worker polls fal's queue (webhooks are fal.int-spec's)
    fal: {
      fake: fal,
      env: () => ({
        AI_PROVIDER: 'fal',
        FAL_KEY: fal.apiKey,
        FAL_QUEUE_URL: fal.baseUrl,
        FAL_JWKS_URL: fal.jwksUrl,
        FAL_WEBHOOKS: 'false',
      }),
    },
  } as const;

  async function appFor(vendor: keyof typeof VENDORS, appUrl?: string, extra: Record<string, string> = {}): Promise<GenerationApp> {
    const t = await createGenerationApp({
      driver: 'in-process',
      env: { ...VENDORS[vendor].env(), ...(appUrl ? { APP_URL: appUrl } : {}), AI_POLL_INTERVAL_MS: '50', ...extra },
    });
    // the vendor's internet: our public host leads to this app
    if (appUrl) VENDORS[vendor].fake.routeOrigin(appUrl, t.baseUrl);
    return t;
  }

  const storedPhotoPath = (t: GenerationApp, who: SignedIn, uploadId: string) =>
    path.join(t.config.storage.localDir, 'objects', 'users', who.userId, 'uploads', `${uploadId}.jpg`);

  /** Uploads the 4000x3000 photo: answers its id and the stored copy's bytes (at most 2048 px, never touched again). */
  async function uploadCameraPhoto(t: GenerationApp, who: SignedIn): Promise<{ id: string; stored: Buffer }> {
    const id = await uploadPhoto(t, who, photo);
    const res = await t.http.get(`/api/uploads/${id}`).set(bearer(who.accessToken)).expect(200);
    expect(res.body).toMatchObject({ width: 2048, height: 1536 });
    const stored = fs.readFileSync(storedPhotoPath(t, who, id));
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
    return { id, stored };
  }

  async function generate(t: GenerationApp, who: SignedIn, uploadId: string, type: 'image' | 'video') {
    const started = await startGeneration(t, who, { ...IMAGE_START, type, upload_ids: [uploadId] });
    expect(started.status).toBe(202);
    const done = await waitForEnd(t, who, started.body.id, 60_000);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    return done as { id: string; status: string };
  }

  /** Every image the fake received is an opaque JPEG with each side within [min, max]. */
  function expectOpaqueJpegs(images: ReceivedImage[], minSide: number, maxSide = 2000): void {
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect({ field: image.field, format: image.format, hasAlpha: image.hasAlpha }).toEqual({
        field: image.field,
        format: 'jpeg',
        hasAlpha: false,
      });
      expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(maxSide);
      expect(Math.min(image.width, image.height)).toBeGreaterThanOrEqual(minSide);
    }
  }

  describe('with a private APP_URL (a laptop): inline data URIs, nothing fetched from us', () => {
    it('DashScope: an image (Wan image editing) and a silent video (Wan first frame) from a 4000x3000 photo', async () => {
      dashscope.reset();
      const t = await appFor('dashscope'); // the tests' APP_URL, http://127.0.0.1:3000
      try {
        const who = await person(t, { tier: 'glow_up', addCredits: 10 });
        const { id, stored } = await uploadCameraPhoto(t, who);

        await generate(t, who, id, 'image');
        const edit = dashscope.images.filter((i) => i.field.startsWith('images['));
        expect(edit.map((i) => [i.field, i.via])).toEqual([
          ['images[0]', 'data-uri'],
          ['images[1]', 'data-uri'],
          ['images[2]', 'data-uri'],
        ]);
        expect(edit[0]).toMatchObject({ width: 2000, height: 1500 }); // the person photo
        expectOpaqueJpegs(edit, 384);

        await generate(t, who, id, 'video');
        const frame = dashscope.images.filter((i) => i.field === 'img_url');
        expect(frame).toEqual([expect.objectContaining({ via: 'data-uri', format: 'jpeg', width: 2000, height: 1500, hasAlpha: false })]);
        const videoTask = [...dashscope.tasks.values()].find((task) => task.kind === 'image-to-video')!;
        expect(videoTask.audio).toBe(false);

        expect(dashscope.fetched).toEqual([]);
        expect(sha256(fs.readFileSync(storedPhotoPath(t, who, id)))).toBe(sha256(stored));
      } finally {
        await t.close();
      }
    }, 120_000);

    it('FASHN: a try-on and an image-to-video from a 4000x3000 photo', async () => {
      fashn.reset();
      const t = await appFor('fashn');
      try {
        const who = await person(t, { tier: 'glow_up', addCredits: 10 });
        const { id, stored } = await uploadCameraPhoto(t, who);

        await generate(t, who, id, 'image');
        const tryon = fashn.images.filter((i) => i.field === 'model_image' || i.field === 'garment_image');
        expect(tryon.map((i) => [i.field, i.via])).toEqual([
          ['model_image', 'data-uri'],
          ['garment_image', 'data-uri'],
        ]);
        expect(tryon[0]).toMatchObject({ width: 2000, height: 1500 });
        expectOpaqueJpegs(tryon, 360);
        const run = fashn.received.find((r) => r.path === '/v1/run')!;
        expect((run.body as { inputs: { moderation_level: string } }).inputs.moderation_level).toBe('permissive');

        await generate(t, who, id, 'video');
        const still = fashn.images.filter((i) => i.field === 'image');
        expect(still).toEqual([expect.objectContaining({ via: 'data-uri', format: 'jpeg', width: 2000, height: 1500, hasAlpha: false })]);

        expect(fashn.fetched).toEqual([]);
        expect(sha256(fs.readFileSync(storedPhotoPath(t, who, id)))).toBe(sha256(stored));
      } finally {
        await t.close();
      }
    }, 120_000);
    it('fal.ai: a Kling Kolors try-on and a Kling image-to-video from a 4000x3000 photo', async () => {
      fal.reset();
      const t = await appFor('fal');
      try {
        const who = await person(t, { tier: 'glow_up', addCredits: 10 });
        const { id, stored } = await uploadCameraPhoto(t, who);

        await generate(t, who, id, 'image');
        expect(fal.lastSubmit()!.path).toBe('/fal-ai/kling/v1-5/kolors-virtual-try-on');
        const tryon = fal.images.filter((i) => i.field === 'human_image_url' || i.field === 'garment_image_url');
        expect(tryon.map((i) => [i.field, i.via])).toEqual([
          ['human_image_url', 'data-uri'],
          ['garment_image_url', 'data-uri'],
        ]);
        // Kling takes up to 2048 px: the stored copy goes as is
        expect(tryon[0]).toMatchObject({ width: 2048, height: 1536, bytes: stored.length });
        expectOpaqueJpegs(tryon, 300, 2048);

        await generate(t, who, id, 'video');
        expect(fal.lastSubmit()!.path).toBe('/fal-ai/kling-video/v2.1/standard/image-to-video');
        const frame = fal.images.filter((i) => i.field === 'image_url');
        expect(frame).toEqual([expect.objectContaining({ via: 'data-uri', format: 'jpeg', width: 2048, height: 1536, hasAlpha: false })]);

        expect(fal.fetched).toEqual([]);
        expect(sha256(fs.readFileSync(storedPhotoPath(t, who, id)))).toBe(sha256(stored));
      } finally {
        await t.close();
      }
    }, 120_000);
  });

  describe('with a public APP_URL: the vendor fetches our signed links', () => {
    it.each(['dashscope', 'fashn', 'fal'] as const)(
      '%s: fetches a 2000 px copy of the photo, which is deleted when the generation ends',
      async (name) => {
        const fake: FakeVendorServer = VENDORS[name].fake;
        fake.reset();
        // on fal, the FASHN model (at most 2000 px on the longest edge)
        const t = await appFor(name, PUBLIC_APP_URL, name === 'fal' ? { FAL_IMAGE_MODEL: 'fal-ai/fashn/tryon/v1.6' } : {});
        try {
          const who = await person(t, { tier: 'glow_up', addCredits: 10 });
          const { id, stored } = await uploadCameraPhoto(t, who);
          const done = await generate(t, who, id, 'image');

          expect(fake.images.length).toBeGreaterThanOrEqual(2);
          expect(fake.images.every((i) => i.via === 'url')).toBe(true);
          expectOpaqueJpegs(fake.images, 360);
          expect(fake.images[0]).toMatchObject({ width: 2000, height: 1500 });
          expect(fake.fetched.length).toBe(fake.images.length);
          expect(fake.fetched.every((url) => url.startsWith(`${PUBLIC_APP_URL}/api/files/`))).toBe(true);
          // the person photo went as a derived copy kept for this generation; the artwork as shared catalogue copies
          expect(fake.fetched[0]).toContain(`/users/${who.userId}/provider-inputs/${done.id}/person.jpg`);
          expect(fake.fetched.slice(1).every((url) => url.includes('/catalog/artwork/'))).toBe(true);

          const copies = path.join(t.config.storage.localDir, 'objects', 'users', who.userId, 'provider-inputs', done.id);
          await waitFor(
            'the copies made for the vendor to be deleted',
            async () => !fs.existsSync(copies) || fs.readdirSync(copies).length === 0,
          );
          expect(sha256(fs.readFileSync(storedPhotoPath(t, who, id)))).toBe(sha256(stored));
        } finally {
          await t.close();
        }
      },
      120_000,
    );
  });
});
