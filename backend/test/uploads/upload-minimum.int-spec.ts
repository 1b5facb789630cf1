/**
 * A photo whose shorter side is under the product's minimum (384 px: the largest any vendor asks
 * for, `@fitting-room/shared/photo-rules`) is refused at upload, whatever renders: the message names
 * the photo's size and the minimum, and the refusal changes nothing (no row, no file, no allowance
 * used, no credit). A vendor with a larger minimum would raise it.
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

describe('the smallest photo accepted', () => {
  it.each([
    // the local renderer needs no size, but a try-on does: the product's minimum holds
    ['preview', { AI_PROVIDER: 'preview' }, 384],
    // FASHN's own minimum is 360 px: the product's is larger
    ['fashn', { AI_PROVIDER: 'fashn', FASHN_API_KEY: 'fa-not-called' }, 384],
    // Wan image editing takes 384 px a side at least (its first-frame video 360)
    ['dashscope', { AI_PROVIDER: 'dashscope', DASHSCOPE_API_KEY: 'sk-not-called' }, 384],
  ])('%s: a 300x300 photo is refused with its size and the minimum, and nothing is stored', async (_name, env, minimum) => {
    const t = await createGenerationApp({ driver: 'in-process', env });
    try {
      const who = await person(t);
      const usageBefore = (await t.http.get('/api/uploads/usage').set(bearer(who.accessToken)).expect(200)).body;

      const refused = await upload(t, who, await square(300));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: `This photo is too small (300x300). Use a photo at least ${minimum} pixels on its shorter side, showing you clearly.`,
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

  it("a 120x160 photo (the tester's) is refused before any credit is held; a long thin one by its shorter side", async () => {
    const t = await createGenerationApp({ driver: 'in-process', env: { AI_PROVIDER: 'preview' } });
    try {
      const who = await person(t);
      const [before] = await t.db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
        who.userId,
      ]);
      const small = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#c8a27a' } })
        .jpeg()
        .toBuffer();
      const refused = await upload(t, who, small);
      expect(refused.body).toEqual({
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: 'This photo is too small (120x160). Use a photo at least 384 pixels on its shorter side, showing you clearly.',
      });
      const thin = await sharp({ create: { width: 383, height: 2000, channels: 3, background: '#c8a27a' } })
        .jpeg()
        .toBuffer();
      expect((await upload(t, who, thin)).body.message).toMatch(/^This photo is too small \(383x2000\)/);
      expect(await uploadRows(t, who.userId)).toBe(0);
      const [after] = await t.db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
        who.userId,
      ]);
      expect(after).toEqual(before);
      expect((await t.db.query(`SELECT count(*)::int AS n FROM user_generations WHERE user_id = $1`, [who.userId]))[0].n).toBe(0);
    } finally {
      await t.close();
    }
  });
});
