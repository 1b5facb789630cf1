/**
 * A scene's reference photo, uploaded by an admin in the console, reaches the one vendor input that
 * takes a scene: DashScope's Wan image editing (image 3, with the prompt), in place of the scene's
 * drawn artwork. FASHN's try-on takes no scene: it receives the person and the garment only.
 * The whole application (in-process queue, real PostgreSQL) against the fake vendors, which load
 * every image as the vendor would. The catalogue edit happens in a database of the spec's own.
 */
import sharp from 'sharp';
import {
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitForEnd,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer, signUp, uniqueEmail } from '../helpers/auth';
import { ownDatabase } from '../helpers/own-database';
import { FakeDashScopeServer } from './fake-dashscope.server';
import { FakeFashnServer } from './fake-fashn.server';

/** A reference photo of a given size: a harbour at dusk, as far as a fake can tell. */
const referencePhoto = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2a4d6e' } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><rect y="${height / 2}" width="${width}" height="${height / 2}" fill="#c89b5a"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();

describe("a scene's reference photo and the vendors", () => {
  const ownDb = ownDatabase('scene_reference');
  const dashscope = new FakeDashScopeServer();
  const fashn = new FakeFashnServer();
  const adminEmail = uniqueEmail('scene-admin');

  beforeAll(async () => {
    await ownDb.create();
    await dashscope.start();
    await fashn.start();
  });
  afterAll(async () => {
    await dashscope.stop();
    await fashn.stop();
    await ownDb.drop();
  });

  async function withApp(env: Record<string, string>, work: (t: GenerationApp) => Promise<void>): Promise<void> {
    const t = await createGenerationApp({ driver: 'in-process', env: { ...env, ADMIN_EMAILS: adminEmail } });
    try {
      await work(t);
    } finally {
      await t.close();
    }
  }

  async function generateImage(t: GenerationApp): Promise<void> {
    const who = await person(t, { tier: 'glow_up', addCredits: 5 });
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(started.status).toBe(202);
    expect(await waitForEnd(t, who, started.body.id, 60_000)).toMatchObject({ status: 'completed', error: null });
  }

  it('DashScope (Wan image editing) receives the artwork as image 3, then the reference photo once an admin uploads one', async () => {
    await withApp({ AI_PROVIDER: 'dashscope', DASHSCOPE_API_KEY: dashscope.apiKey, DASHSCOPE_BASE_URL: dashscope.baseUrl }, async (t) => {
      dashscope.reset();
      await generateImage(t);
      // the drawn artwork (768x1024)
      expect(dashscope.images.find((i) => i.field === 'images[2]')).toMatchObject({ width: 768, height: 1024 });

      const admin = await signUp(t.http, { email: adminEmail });
      const res = await t.http
        .put(`/api/admin/scenes/${IMAGE_START.scene_id}/garment`)
        .set(bearer(admin.accessToken))
        .attach('file', await referencePhoto(1200, 900), 'harbour.jpg');
      expect(res.status).toBe(200);
      expect(res.body.has_reference_photo).toBe(true);

      dashscope.reset();
      await generateImage(t);
      const scene = dashscope.images.find((i) => i.field === 'images[2]');
      expect(scene).toMatchObject({ via: 'data-uri', format: 'jpeg', width: 1200, height: 900, hasAlpha: false });
    });
  }, 120_000);

  it('FASHN takes no scene: the person and the garment only', async () => {
    await withApp({ AI_PROVIDER: 'fashn', FASHN_API_KEY: fashn.apiKey, FASHN_BASE_URL: fashn.baseUrl }, async (t) => {
      fashn.reset();
      await generateImage(t);
      expect(fashn.images.map((i) => i.field)).toEqual(['model_image', 'garment_image']);
    });
  }, 120_000);
});
