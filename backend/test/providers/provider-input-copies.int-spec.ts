/**
 * The copies of a person photo made for the vendor (`users/<user>/provider-inputs/<generation>/`,
 * when the vendor fetches our links and the photo had to be resized) are deleted however the
 * generation ends: completed, failed at the vendor, refused by its moderation, refused at the start,
 * cancelled by the person, past its deadline. The stored photo itself stays (it is the person's
 * upload). The whole application against the fake FASHN API, with a public APP_URL the fake
 * reaches, so that FASHN fetches our signed links (and so that copies are made at all).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import {
  books,
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
import { FakeFashnServer, type FakePredictionOutcome } from './fake-fashn.server';

const PUBLIC_APP_URL = 'https://tryon.example';

/** A 2400x1800 camera photo: light gradients and grain, so it weighs what a photo weighs. */
function cameraPhoto(width = 2400, height = 1800): Promise<Buffer> {
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

describe('the copies made for the vendor are deleted at every ending of a generation', () => {
  const vendor = new FakeFashnServer();
  let t: GenerationApp;
  let who: SignedIn;
  let upload: string;

  beforeAll(async () => {
    await vendor.start();
    t = await createGenerationApp({
      driver: 'in-process',
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        APP_URL: PUBLIC_APP_URL,
        AI_POLL_INTERVAL_MS: '50',
        AI_POLL_MAX_INTERVAL_MS: '100',
        // a deadline that only the deadline case reaches (it plans a prediction that never ends)
        AI_IMAGE_DEADLINE_SECONDS: '4',
      },
    });
    vendor.routeOrigin(PUBLIC_APP_URL, t.baseUrl);
    who = await person(t, { addCredits: 20 });
    // larger than FASHN's 2000 px: stored at 2048 px, sent as a 2000 px copy kept for the generation
    upload = await uploadPhoto(t, who, await cameraPhoto());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await vendor.stop();
  });

  const copiesOf = (generationId: string) =>
    path.join(t.config.storage.localDir, 'objects', 'users', who.userId, 'provider-inputs', generationId);
  const storedPhoto = () => path.join(t.config.storage.localDir, 'objects', 'users', who.userId, 'uploads', `${upload}.jpg`);
  const gone = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

  /** Starts an image generation; answers its id once FASHN has fetched the copy of the photo. */
  async function startAndFetched(): Promise<string> {
    const fetched = vendor.fetched.length;
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await waitFor('FASHN to fetch the copy of the photo', async () =>
      vendor.fetched.slice(fetched).some((url) => url.includes(`/provider-inputs/${id}/person.jpg`)),
    );
    return id;
  }

  async function expectCopiesGone(id: string): Promise<void> {
    await waitFor('the copies made for the vendor to be deleted', async () => gone(copiesOf(id)));
    expect(fs.existsSync(storedPhoto())).toBe(true);
  }

  it.each<[string, FakePredictionOutcome, string]>([
    ['completed', { end: 'completed' }, 'completed'],
    ['failed at the vendor', { end: 'failed', name: 'PipelineError', message: 'Unexpected pipeline error' }, 'failed'],
    ['refused by its moderation', { end: 'failed', name: 'ContentModerationError', message: 'Prohibited content detected' }, 'failed'],
  ])('%s', async (_name, outcome, status) => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome };
    const id = await startAndFetched();
    expect((await waitForEnd(t, who, id, 30_000)).status).toBe(status);
    await expectCopiesGone(id);
  });

  it('refused at the start (400 from /v1/run: nothing started, nothing charged)', async () => {
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    const id = started.body.id as string;
    // the run answers 400 after the copy was made and signed: the generation fails at its start
    vendor.runOverrides.push({ status: 400, body: { error: 'BadRequest', message: 'Invalid inputs' } });
    const done = await waitForEnd(t, who, id, 30_000);
    expect(done.status).toBe('failed');
    // FASHN was sent the link of the copy made for it
    const run = vendor.lastRun()!.body as { inputs: { model_image: string } };
    expect(run.inputs.model_image).toContain(`/provider-inputs/${id}/person.jpg`);
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 0, held: 0, balanced: true });
    await expectCopiesGone(id);
  });

  it('cancelled by the person while FASHN works on it', async () => {
    vendor.nextPlan = { pollsBeforeDone: 100_000, outcome: { end: 'completed' } };
    const id = await startAndFetched();
    await waitFor('the prediction', async () => {
      const [row] = await t.db.query(`SELECT provider_job_id FROM user_generations WHERE id = $1`, [id]);
      return row.provider_job_id as string | null;
    });
    const cancelled = await t.http.post(`/api/generations/${id}/cancel`).set(bearer(who.accessToken));
    expect(cancelled.status).toBe(200);
    expect((await waitForEnd(t, who, id)).status).toBe('failed');
    await expectCopiesGone(id);
  });

  it('past its deadline (FASHN never finishes)', async () => {
    vendor.nextPlan = { pollsBeforeDone: 100_000, outcome: { end: 'completed' } };
    const id = await startAndFetched();
    const done = await waitForEnd(t, who, id, 60_000);
    expect(done.status).toBe('failed');
    await expectCopiesGone(id);
  }, 90_000);
});
