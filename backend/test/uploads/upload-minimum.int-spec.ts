/**
 * A photo smaller than the configured vendor accepts is refused at upload, with a message naming
 * the minimum (the largest minSide of the vendor's input specs), and the refusal changes nothing: no
 * row, no file, no allowance used. The preview renderer takes any size.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { createGenerationApp, person, type GenerationApp } from '../generations/generation-test-kit';
import { bearer, type SignedIn } from '../helpers/auth';

const square = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#c8a27a' } })
    .jpeg()
    .toBuffer();

function upload(t: GenerationApp, who: SignedIn, bytes: Buffer) {
  return t.http
    .post('/api/uploads')
    .set(bearer(who.accessToken))
    .field('confirm_own_photos', 'true')
    .attach('files', bytes, { filename: 'me.jpg', contentType: 'image/jpeg' });
}

async function uploadRows(t: GenerationApp, userId: string): Promise<number> {
  const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM uploads WHERE user_id = $1`, [userId]);
  return count as number;
}

function storedFiles(t: GenerationApp, userId: string): string[] {
  const dir = path.join(t.config.storage.localDir, 'objects', 'users', userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
}

describe('the smallest photo the configured vendor accepts', () => {
  it.each([
    // FASHN documents no minimum: ours is 360 px
    ['fashn', { AI_PROVIDER: 'fashn', FASHN_API_KEY: 'fa-not-called' }, 360],
    // Wan image editing takes 384 px a side at least (its first-frame video 360)
    ['dashscope', { AI_PROVIDER: 'dashscope', DASHSCOPE_API_KEY: 'sk-not-called' }, 384],
  ])('%s: a 300x300 photo is refused with the minimum, and nothing is stored', async (_name, env, minimum) => {
    const t = await createGenerationApp({ driver: 'in-process', env });
    try {
      const who = await person(t);
      const usageBefore = (await t.http.get('/api/uploads/usage').set(bearer(who.accessToken)).expect(200)).body;

      const refused = await upload(t, who, await square(300));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: `Please upload a photo at least ${minimum} pixels on each side`,
      });
      expect(await uploadRows(t, who.userId)).toBe(0);
      expect(storedFiles(t, who.userId)).toEqual([]);
      expect((await t.http.get('/api/uploads/usage').set(bearer(who.accessToken)).expect(200)).body).toEqual(usageBefore);

      // one pixel short on one side is still refused; the minimum itself is accepted
      expect(
        (
          await upload(
            t,
            who,
            await sharp(await square(minimum))
              .resize(minimum, minimum - 1)
              .jpeg()
              .toBuffer(),
          )
        ).status,
      ).toBe(400);
      const accepted = await upload(t, who, await square(minimum));
      expect(accepted.status).toBe(201);
      expect(accepted.body.uploads[0]).toMatchObject({ width: minimum, height: minimum });
      expect(await uploadRows(t, who.userId)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('the preview renderer (the default) takes a 300x300 photo', async () => {
    const t = await createGenerationApp({ driver: 'in-process', env: { AI_PROVIDER: 'preview' } });
    try {
      const who = await person(t);
      expect((await upload(t, who, await square(300))).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
