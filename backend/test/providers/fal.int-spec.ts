/**
 * The fal adapter against a local server that speaks fal's queue protocol (submit, status, result,
 * cancel, signed webhooks with a JWKS), first on its own, then end to end: the real API and worker
 * (in-process queue, real PostgreSQL) with AI_PROVIDER=fal pointed at the fake, by polling and by
 * webhook; a forged webhook refused; a model's 422 failing the generation with nothing charged.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { loadConfig } from '../../src/config/app-config';
import { ProviderErrorKind, ProviderStartInput } from '../../src/modules/generations/providers/ai-provider';
import { createFalProvider, FalProvider } from '../../src/modules/generations/providers/fal.provider';
import {
  books,
  createGenerationApp,
  IMAGE_START,
  person,
  startGeneration,
  uploadPhoto,
  waitFor,
  waitForEnd,
  type DriverKind,
  type GenerationApp,
} from '../generations/generation-test-kit';
import { bearer } from '../helpers/auth';
import { expectProviderError, pollUntilDone as pollProvider, startInput } from './adapter-test-kit';
import { FakeFalServer, modelError } from './fake-fal.server';
import { FakeReply, FakeVendorServer, ReceivedRequest } from './fake-vendor-server';

/** A tiny HTTP server standing in for our webhook route: records each call and answers 202. */
class WebhookReceiver extends FakeVendorServer {
  protected async route(_req: ReceivedRequest, { send }: FakeReply): Promise<void> {
    await send(202, { received: true });
  }
}

/** Headers as Node hands them to the route: lower-case names. */
const lowerCase = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const jpeg = (width: number, height: number, colour = '#c8a27c') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#3050a0' } })
    .png()
    .toBuffer();

describe('fal adapter against a fake fal queue', () => {
  const vendor = new FakeFalServer();
  let provider: FalProvider;
  /** the pictures the model reads, as data URIs */
  let personUri: string;
  let garmentUri: string;

  const input = (overrides: Partial<ProviderStartInput> = {}) =>
    startInput({ person: { url: personUri }, garment: { url: garmentUri }, scene: undefined, ...overrides });
  const providerError = (promise: Promise<unknown>) => expectProviderError(promise, vendor.apiKey);
  const make = (options: Partial<ConstructorParameters<typeof FalProvider>[0]> = {}) =>
    new FalProvider({
      apiKey: vendor.apiKey,
      queueUrl: vendor.baseUrl,
      jwksUrl: vendor.jwksUrl,
      platformUrl: vendor.platformUrl,
      statusTimeoutMs: 10_000,
      ...options,
    });

  beforeAll(async () => {
    await vendor.start();
    // data URIs: fal accepts them in place of URLs (https://docs.fal.ai/documentation/model-apis/fal-cdn)
    personUri = `data:image/jpeg;base64,${(await jpeg(600, 800)).toString('base64')}`;
    garmentUri = `data:image/png;base64,${(await png(400, 600)).toString('base64')}`;
  });
  beforeEach(() => {
    vendor.reset();
    provider = make();
  });
  afterAll(() => vendor.stop());

  it('image (Kolors): submit to the model path, IN_QUEUE/IN_PROGRESS on the app path, then a real JPEG the fake drew', async () => {
    const { jobId } = await provider.start(input());
    const submit = vendor.lastSubmit()!;
    expect(submit.path).toBe('/fal-ai/kling/v1-5/kolors-virtual-try-on');
    expect(submit.headers.authorization).toBe(`Key ${vendor.apiKey}`);
    expect(submit.body).toEqual({ human_image_url: personUri, garment_image_url: garmentUri });
    expect(jobId).toMatch(/^fal-ai\/kling\/requests\/[0-9a-f-]{36}$/);

    const { states, final } = await pollProvider(provider, jobId);
    expect(states.slice(0, 2)).toEqual([
      { state: 'processing', detail: 'queued at the vendor' },
      { state: 'processing', detail: 'running at the vendor' },
    ]);
    expect(final).toEqual({ state: 'completed', result: { url: expect.stringMatching(/\/files\/.+\/output\.jpg$/) } });
    const res = await fetch((final as { result: { url: string } }).result.url);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('jpeg');
    // status and result went to the app id, never to the model's sub-path (the docs' rule)
    const queue = vendor.received.filter((r) => r.method === 'GET' && !r.path.startsWith('/files/'));
    expect(queue.map((r) => r.path)).toEqual([`/${jobId}/status`, `/${jobId}/status`, `/${jobId}/status`, `/${jobId}`]);
  });

  it.each([
    ['fal-ai/fashn/tryon/v1.6', 'model_image'],
    ['fal-ai/leffa/virtual-tryon', 'human_image_url'],
  ])('image (%s): the fields the fake requires are there, and it completes', async (imageModel, personField) => {
    provider = make({ imageModel });
    const { jobId } = await provider.start(input());
    expect((vendor.lastSubmit()!.body as Record<string, unknown>)[personField]).toBe(personUri);
    expect((await pollProvider(provider, jobId)).final.state).toBe('completed');
  });

  it('video (Kling image-to-video): the person photo and the prompt; a real MP4', async () => {
    vendor.nextPlan = { pollsBeforeDone: 0 };
    const { jobId } = await provider.start(input({ type: 'video' }));
    expect(vendor.lastSubmit()!.path).toBe('/fal-ai/kling-video/v2.1/standard/image-to-video');
    expect(jobId).toMatch(/^fal-ai\/kling-video\/requests\//);
    const final = await provider.status(jobId);
    expect(final).toEqual({ state: 'completed', result: { url: expect.stringMatching(/output\.mp4$/) } });
    const bytes = Buffer.from(await (await fetch((final as { result: { url: string } }).result.url)).arrayBuffer());
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('the fake enforces the documented input limits: a 200 px photo fails as the model does (422 image_too_small)', async () => {
    vendor.nextPlan = { pollsBeforeDone: 0 };
    const small = `data:image/jpeg;base64,${(await jpeg(200, 260)).toString('base64')}`;
    const { jobId } = await provider.start(input({ person: { url: small } }));
    expect(await provider.status(jobId)).toEqual({
      state: 'failed',
      reason: 'The vendor failed the request (fal answered 422 image_too_small: Image must be at least 300x300 pixels)',
    });
    // FASHN documents 2000 px on the longest edge
    provider = make({ imageModel: 'fal-ai/fashn/tryon/v1.6' });
    const big = `data:image/jpeg;base64,${(await jpeg(1500, 2100)).toString('base64')}`;
    const { jobId: bigJob } = await provider.start(input({ person: { url: big } }));
    expect(await provider.status(bigJob)).toMatchObject({ state: 'failed', reason: expect.stringContaining('image_too_large') });
    // an image URL that does not answer
    const { jobId: lost } = await provider.start(input({ person: { url: `${vendor.baseUrl}/nowhere.jpg` } }));
    expect(await provider.status(lost)).toMatchObject({ state: 'failed', reason: expect.stringContaining('file_download_error') });
  });

  it('a content policy refusal is a refused failure', async () => {
    vendor.nextPlan = {
      pollsBeforeDone: 0,
      error: modelError('human_image_url', 'content_policy_violation', 'The content was flagged by a content checker.'),
    };
    const { jobId } = await provider.start(input());
    expect(await provider.status(jobId)).toEqual({
      state: 'failed',
      refused: true,
      reason: "Refused by the vendor's content checker: The content was flagged by a content checker.",
    });
  });

  it('API errors: a wrong key, 429 with Retry-After, 5xx, an unknown request, a slow queue', async () => {
    const wrong = await providerError(make({ apiKey: 'fal-wrong' }).start(input()));
    expect(wrong.kind).toBe(ProviderErrorKind.Unauthorized);
    vendor.submitOverrides.push({ status: 429, headers: { 'Retry-After': '2' }, body: { detail: 'Too many concurrent requests' } });
    expect(await providerError(provider.start(input()))).toMatchObject({
      kind: ProviderErrorKind.RateLimited,
      options: { retryAfterMs: 2000 },
    });
    vendor.statusOverrides.push({ status: 503, body: { detail: 'No runner', error_type: 'runner_scheduling_failure' } });
    expect((await providerError(provider.status('fal-ai/kling/requests/x'))).kind).toBe(ProviderErrorKind.BadResponse);
    expect((await providerError(provider.status('fal-ai/kling/requests/never'))).kind).toBe(ProviderErrorKind.NotFound);
    vendor.statusOverrides.push({ delayMs: 3000, body: { status: 'IN_QUEUE' } });
    expect((await providerError(make({ statusTimeoutMs: 300 }).status('fal-ai/kling/requests/x'))).kind).toBe(ProviderErrorKind.Timeout);
  });

  it('cancel: a queued request is cancelled; then its result is the cancellation, and cancelling again is harmless', async () => {
    const { jobId } = await provider.start(input());
    await provider.cancel(jobId);
    const put = vendor.received.at(-1)!;
    expect([put.method, put.path]).toEqual(['PUT', `/${jobId}/cancel`]);
    expect(await provider.status(jobId)).toMatchObject({ state: 'failed' });
    await provider.cancel(jobId);
  });

  it('webhooks: the fake signs with its ED25519 key; the adapter verifies it against the JWKS and refuses a forgery', async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    const hits = receiver.received;
    try {
      const { jobId } = await provider.start(input({ webhookUrl: `${receiver.baseUrl}/api/webhooks/ai/fal` }));
      const requestId = jobId.split('/').at(-1)!;
      await vendor.finish(requestId);
      expect(vendor.deliveries).toEqual([{ url: `${receiver.baseUrl}/api/webhooks/ai/fal?fr_app=fal-ai%2Fkling`, status: 202 }]);
      const [hit] = hits;
      expect(await provider.parseWebhook(hit.headers, hit.rawBody, hit.url)).toEqual({
        jobId,
        status: { state: 'completed', result: { url: expect.stringMatching(/output\.jpg$/) } },
      });
      const stranger = generateKeyPairSync('ed25519');
      const forged = vendor.signedWebhook(hit.rawBody, { requestId, key: stranger.privateKey });
      expect(await provider.parseWebhook(lowerCase(forged.headers), hit.rawBody, hit.url)).toBeNull();
      const old = vendor.signedWebhook(hit.rawBody, { requestId, timestamp: Math.floor(Date.now() / 1000) - 600 });
      expect(await provider.parseWebhook(lowerCase(old.headers), hit.rawBody, hit.url)).toBeNull();
      // the genuine call, as sent, once more: still fine (the pipeline's poll decides what it means)
      expect(await provider.parseWebhook(hit.headers, hit.rawBody, hit.url)).not.toBeNull();
    } finally {
      await receiver.stop();
    }
  });

  it('the factory builds it from the environment: FAL_* and the documented defaults; unknown models are refused', () => {
    const env = { DATABASE_URL: 'postgres://x@127.0.0.1:5432/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
    const config = loadConfig({ ...env, AI_PROVIDER: 'fal', FAL_KEY: vendor.apiKey });
    expect(config.fal).toEqual({
      apiKey: vendor.apiKey,
      queueUrl: 'https://queue.fal.run',
      imageModel: 'fal-ai/kling/v1-5/kolors-virtual-try-on',
      videoModel: 'fal-ai/kling-video/v2.1/standard/image-to-video',
      // fal's REST host is rest.fal.ai since February 2026 (rest.alpha.fal.ai before)
      jwksUrl: 'https://rest.fal.ai/.well-known/jwks.json',
      platformUrl: 'https://api.fal.ai/v1',
      webhooks: true,
    });
    expect(createFalProvider(config).supportsWebhooks).toBe(true);
    expect(() => loadConfig({ ...env, AI_PROVIDER: 'fal' })).toThrow(/FAL_KEY is required when AI_PROVIDER=fal/);
    expect(() => loadConfig({ ...env, FAL_IMAGE_MODEL: 'fal-ai/flux/dev' })).toThrow(/FAL_IMAGE_MODEL must be one of fal-ai\/kling\/v1-5/);
    expect(() => loadConfig({ ...env, FAL_VIDEO_MODEL: 'fal-ai/leffa/virtual-tryon' })).toThrow(/FAL_VIDEO_MODEL must be one of/);
    expect(loadConfig({ ...env, FAL_PLATFORM_URL: `${vendor.platformUrl}/` }).fal.platformUrl).toBe(vendor.platformUrl);
    expect(() => loadConfig({ ...env, FAL_PLATFORM_URL: 'api.fal.ai' })).toThrow(/FAL_PLATFORM_URL must be a URL/);
  });

  describe('retention: what fal keeps of a request', () => {
    it('every submit says X-Fal-Store-IO: 0 and an hour of life for the outputs: the fake keeps no payload, and the output file expires', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0 };
      for (const p of [provider, make({ imageModel: 'fal-ai/leffa/virtual-tryon' })]) {
        const { jobId } = await p.start(input());
        const submit = vendor.lastSubmit()!;
        expect(submit.headers['x-fal-store-io']).toBe('0');
        expect(JSON.parse(submit.headers['x-fal-object-lifecycle-preference'] as string)).toEqual({ expiration_duration_seconds: 3600 });
        const requestId = jobId.split('/').at(-1)!;
        const r = vendor.requests.get(requestId)!;
        expect({ storeIo: r.storeIo, outputExpirySeconds: r.outputExpirySeconds }).toEqual({ storeIo: false, outputExpirySeconds: 3600 });
        const before = Date.now();
        const final = (await p.status(jobId)) as { state: string; result: { url: string } };
        expect(final.state).toBe('completed');
        expect(vendor.storedPayloads.has(requestId)).toBe(false);
        const expiry = vendor.fileExpiry(final.result.url)!;
        expect(expiry).toBeGreaterThanOrEqual(before + 3_590_000);
        expect(expiry).toBeLessThanOrEqual(Date.now() + 3_600_000);
      }
      // the inline photos went in the body: without the header, fal would have kept them with the request
      const bare = await fetch(`${vendor.baseUrl}/fal-ai/kling/v1-5/kolors-virtual-try-on`, {
        method: 'POST',
        headers: { Authorization: `Key ${vendor.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ human_image_url: personUri, garment_image_url: garmentUri }),
      });
      const { request_id: kept } = (await bare.json()) as { request_id: string };
      expect(vendor.storedPayloads.get(kept)?.input).toMatchObject({ human_image_url: personUri });
    });

    it('the fake refuses a lifecycle header that is not the documented JSON object', async () => {
      const send = (value: string) =>
        fetch(`${vendor.baseUrl}/fal-ai/kling/v1-5/kolors-virtual-try-on`, {
          method: 'POST',
          headers: {
            Authorization: `Key ${vendor.apiKey}`,
            'Content-Type': 'application/json',
            'X-Fal-Object-Lifecycle-Preference': value,
          },
          body: JSON.stringify({ human_image_url: personUri, garment_image_url: garmentUri }),
        });
      expect((await send('3600')).status).toBe(400);
      expect((await send('{"expiration_duration_seconds": 0}')).status).toBe(400);
      expect((await send('{"expiration_duration_seconds": null}')).status).toBe(200);
    });

    it('discard: DELETE the payloads at the Platform API; the output file is gone; unknown or repeated requests are fine', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0 };
      const { jobId } = await provider.start(input());
      const final = (await provider.status(jobId)) as { state: 'completed'; result: { url: string } };
      expect(vendor.hasFile(final.result.url)).toBe(true);

      await provider.discard(jobId);
      const requestId = jobId.split('/').at(-1)!;
      const call = vendor.received.at(-1)!;
      expect([call.method, call.path]).toEqual(['DELETE', `/v1/models/requests/${requestId}/payloads`]);
      expect(call.headers.authorization).toBe(`Key ${vendor.apiKey}`);
      expect(call.headers['idempotency-key']).toBe(`discard-${requestId}`);
      expect(vendor.requests.get(requestId)!.payloadsDeleted).toBe(true);
      expect(vendor.hasFile(final.result.url)).toBe(false);
      expect((await fetch(final.result.url)).status).toBe(404);

      await provider.discard(jobId); // again: nothing left, nothing thrown
      await provider.discard('fal-ai/kling/requests/0b3a9a1e-8a57-4f7e-9d51-1c0f6f1d2b3c'); // fal never heard of it (404)
    });

    it('discard with a key that has no admin scope: fal refuses (403), said once in the log, and nothing is thrown', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        const limited = make({ apiKey: vendor.apiOnlyKey });
        vendor.nextPlan = { pollsBeforeDone: 0 };
        const jobs = [(await limited.start(input())).jobId, (await limited.start(input())).jobId];
        for (const jobId of jobs) {
          expect((await limited.status(jobId)).state).toBe('completed');
          await limited.discard(jobId);
        }
        const said = warn.mock.calls.map((c) => String(c[0]));
        expect(said.filter((m) => /needs an admin key/.test(m))).toHaveLength(1);
        expect(said.join('\n')).not.toContain(vendor.apiOnlyKey);
        expect(jobs.every((j) => !vendor.requests.get(j.split('/').at(-1)!)!.payloadsDeleted)).toBe(true);
      } finally {
        warn.mockRestore();
      }
    });
  });

  describe('Kling video framing (aspect_ratio where the model takes it)', () => {
    const portrait = async () => ({ url: `data:image/jpeg;base64,${(await jpeg(600, 900)).toString('base64')}`, width: 600, height: 900 });

    it.each([
      [600, 900, '9:16', 'portrait'],
      [900, 600, '16:9', 'landscape'],
      [800, 800, '1:1', 'square'],
    ])('v1.6 pro: a %ix%i photo is sent %s and the fake makes a %s clip', async (width, height, ratio, shape) => {
      vendor.nextPlan = { pollsBeforeDone: 0 };
      const p = make({ videoModel: 'fal-ai/kling-video/v1.6/pro/image-to-video' });
      const photo = { url: `data:image/jpeg;base64,${(await jpeg(width, height)).toString('base64')}`, width, height };
      const { jobId } = await p.start(input({ type: 'video', person: photo }));
      expect((vendor.lastSubmit()!.body as Record<string, unknown>).aspect_ratio).toBe(ratio);
      expect((await p.status(jobId)).state).toBe('completed');
      const frame = vendor.requests.get(jobId.split('/').at(-1)!)!.videoFrame!;
      expect(frame.width > frame.height ? 'landscape' : frame.width < frame.height ? 'portrait' : 'square').toBe(shape);
    });

    it('v1.6 pro without the photo size falls back to the model default (16:9): what a portrait photo got before', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0 };
      const p = make({ videoModel: 'fal-ai/kling-video/v1.6/pro/image-to-video' });
      const { url } = await portrait();
      const { jobId } = await p.start(input({ type: 'video', person: { url } }));
      expect(vendor.lastSubmit()!.body).not.toHaveProperty('aspect_ratio');
      await p.status(jobId);
      const frame = vendor.requests.get(jobId.split('/').at(-1)!)!.videoFrame!;
      expect(frame.width).toBeGreaterThan(frame.height);
    });

    it.each([
      'fal-ai/kling-video/v2.1/standard/image-to-video',
      'fal-ai/kling-video/v2.1/pro/image-to-video',
      'fal-ai/kling-video/v1.6/standard/image-to-video',
    ])('%s takes no aspect_ratio: none is sent, and the clip is framed like the portrait photo', async (videoModel) => {
      vendor.nextPlan = { pollsBeforeDone: 0 };
      const p = make({ videoModel });
      const { jobId } = await p.start(input({ type: 'video', person: await portrait() }));
      expect(vendor.lastSubmit()!.body).not.toHaveProperty('aspect_ratio');
      expect((await p.status(jobId)).state).toBe('completed');
      const frame = vendor.requests.get(jobId.split('/').at(-1)!)!.videoFrame!;
      expect(frame.height).toBeGreaterThan(frame.width);
    });
  });

  describe("fal's webhook key set", () => {
    it('an empty key set or a failed fetch is a warning per fetch (URL and reason, no key); every call is then refused', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const receiver = new WebhookReceiver();
      await receiver.start();
      try {
        const { jobId } = await provider.start(input({ webhookUrl: `${receiver.baseUrl}/api/webhooks/ai/fal` }));
        await vendor.finish(jobId.split('/').at(-1)!);
        const [hit] = receiver.received;

        vendor.jwks = 'empty';
        expect(await provider.parseWebhook(hit.headers, hit.rawBody, hit.url)).toBeNull();
        const empty = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes(vendor.jwksUrl));
        expect(empty).toEqual([
          `fal's webhook key set ${vendor.jwksUrl}: it holds no Ed25519 key; no webhook call can be verified until it serves a key`,
        ]);

        vendor.jwks = 503;
        const unavailable = make();
        expect(await unavailable.parseWebhook(hit.headers, hit.rawBody, hit.url)).toBeNull();
        expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('it answered 503'))).toHaveLength(1);
        expect(warn.mock.calls.flat().join('\n')).not.toContain(vendor.apiKey);

        // keys again: the next fetch (a minute later at most) verifies the call, and says nothing
        vendor.jwks = 'keys';
        const count = warn.mock.calls.length;
        expect(await make().parseWebhook(hit.headers, hit.rawBody, hit.url)).not.toBeNull();
        expect(warn.mock.calls.length).toBe(count);
      } finally {
        warn.mockRestore();
        await receiver.stop();
      }
    });
  });
});

describe.each<DriverKind>(['in-process', 'bullmq'])(
  'a generation through the real API and worker with AI_PROVIDER=fal, %s queue',
  (driver) => {
    const vendor = new FakeFalServer();
    const falEnv = (extra: Record<string, string>) => ({
      AI_PROVIDER: 'fal',
      FAL_KEY: vendor.apiKey,
      FAL_QUEUE_URL: vendor.baseUrl,
      FAL_JWKS_URL: vendor.jwksUrl,
      FAL_PLATFORM_URL: vendor.platformUrl,
      ...extra,
    });
    /** the test app's APP_URL is not where it listens: the fake reaches it the way the internet would reach APP_URL */
    const routeTo = (t: GenerationApp) => (vendor.resolveUrl = (url) => url.replace(t.config.appUrl, t.baseUrl));
    const requestIdOf = async (t: GenerationApp, id: string) =>
      waitFor('the provider job', async () => {
        const [row] = await t.db.query(`SELECT provider_job_id FROM user_generations WHERE id = $1`, [id]);
        return (row.provider_job_id as string | null)?.split('/').at(-1);
      });

    beforeAll(() => vendor.start());
    afterAll(() => vendor.stop());
    beforeEach(() => vendor.reset());

    describe('by polling (FAL_WEBHOOKS=false)', () => {
      let t: GenerationApp;
      beforeAll(async () => {
        t = await createGenerationApp({ driver, env: falEnv({ FAL_WEBHOOKS: 'false', AI_POLL_INTERVAL_MS: '50' }) });
      });
      afterAll(() => t?.close());
      beforeEach(() => routeTo(t));

      it('an image and a video complete: the fake read the photo, drew the results; they are stored and charged once', async () => {
        const who = await person(t, { tier: 'glow_up', addCredits: 10 });
        const upload = await uploadPhoto(t, who);

        const image = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
        expect(image.status).toBe(202);
        const done = await waitForEnd(t, who, image.body.id);
        expect(done).toMatchObject({ status: 'completed', error: null });
        const submit = vendor.lastSubmit()!;
        expect(submit.path).toBe('/fal-ai/kling/v1-5/kolors-virtual-try-on');
        expect(submit.query.get('fal_webhook')).toBeNull();
        const file = await fetch(new URL(done.url, t.baseUrl));
        expect(file.headers.get('content-type')).toBe('image/jpeg');
        expect(await books(t.db, who.userId, image.body.id)).toMatchObject({ charged: 1, held: 0, balanced: true });

        const video = await startGeneration(t, who, { ...IMAGE_START, type: 'video', upload_ids: [upload] });
        expect(video.status).toBe(202);
        const finished = await waitForEnd(t, who, video.body.id, 30_000);
        expect(finished.status).toBe('completed');
        expect(vendor.lastSubmit()!.path).toBe('/fal-ai/kling-video/v2.1/standard/image-to-video');
        const mp4 = Buffer.from(await (await fetch(new URL(finished.url, t.baseUrl))).arrayBuffer());
        expect(mp4.toString('latin1', 4, 8)).toBe('ftyp');
        expect(await books(t.db, who.userId, video.body.id)).toMatchObject({ charged: 4, held: 0, balanced: true });
      });

      it('fal keeps nothing of a generation once our copy is stored: no payload, the output deleted after the result was read', async () => {
        const who = await person(t);
        const upload = await uploadPhoto(t, who);
        const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
        const requestId = await requestIdOf(t, started.body.id);
        const done = await waitForEnd(t, who, started.body.id);
        expect(done.status).toBe('completed');
        const r = vendor.requests.get(requestId)!;
        expect({ storeIo: r.storeIo, expiry: r.outputExpirySeconds }).toEqual({ storeIo: false, expiry: 3600 });
        await waitFor('the payloads deleted at fal', async () => r.payloadsDeleted);
        expect(vendor.storedPayloads.size).toBe(0);
        // the delete came after the result was read (our copy first), and fal's output file is gone
        const at = (match: (q: (typeof vendor.received)[number]) => boolean) => vendor.received.findIndex(match);
        const resultRead = at((q) => q.method === 'GET' && q.path === `/fal-ai/kling/requests/${requestId}`);
        const deleted = at((q) => q.method === 'DELETE' && q.path === `/v1/models/requests/${requestId}/payloads`);
        expect(resultRead).toBeGreaterThanOrEqual(0);
        expect(deleted).toBeGreaterThan(resultRead);
        expect(r.outputFiles.every((f) => !vendor.hasFile(`${vendor.baseUrl}${f}`))).toBe(true);
        // our copy is whole
        const file = await fetch(new URL(done.url, t.baseUrl));
        expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe('jpeg');
      });

      it('Kling 1.6 pro through the app: a 720x1200 portrait upload is framed 9:16 (the nearest of 16:9, 9:16, 1:1), not the default 16:9', async () => {
        const pro = await createGenerationApp({
          driver,
          env: falEnv({ FAL_WEBHOOKS: 'false', AI_POLL_INTERVAL_MS: '50', FAL_VIDEO_MODEL: 'fal-ai/kling-video/v1.6/pro/image-to-video' }),
        });
        try {
          routeTo(pro);
          const who = await person(pro, { tier: 'glow_up', addCredits: 10 });
          const upload = await uploadPhoto(pro, who, await jpeg(720, 1200));
          const video = await startGeneration(pro, who, { ...IMAGE_START, type: 'video', upload_ids: [upload] });
          const requestId = await requestIdOf(pro, video.body.id);
          expect((await waitForEnd(pro, who, video.body.id, 30_000)).status).toBe('completed');
          expect(vendor.requests.get(requestId)!.input.aspect_ratio).toBe('9:16');
          const frame = vendor.requests.get(requestId)!.videoFrame!;
          expect(frame.height).toBeGreaterThan(frame.width);
        } finally {
          await pro.close();
        }
      });

      it("a model's 422 fails the generation with nothing charged", async () => {
        const who = await person(t);
        const upload = await uploadPhoto(t, who);
        vendor.nextPlan = {
          pollsBeforeDone: 1,
          error: modelError('human_image_url', 'image_too_small', 'Image must be at least 300x300 pixels'),
        };
        const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
        const done = await waitForEnd(t, who, started.body.id);
        expect(done).toMatchObject({ status: 'failed', error: 'Generation failed', url: null });
        expect(await books(t.db, who.userId, started.body.id)).toMatchObject({
          charged: 0,
          held: 0,
          available: 3,
          balanced: true,
          holds: [{ status: 'released' }],
        });
      });
    });

    describe('by webhook (polls a minute apart)', () => {
      let t: GenerationApp;
      beforeAll(async () => {
        t = await createGenerationApp({ driver, env: falEnv({ AI_POLL_INTERVAL_MS: '60000' }) });
      });
      afterAll(() => t?.close());
      beforeEach(() => routeTo(t));

      it('a forged webhook is refused and changes nothing; the signed one finishes the generation at once', async () => {
        const who = await person(t);
        const upload = await uploadPhoto(t, who);
        const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
        const id = started.body.id as string;
        const requestId = await requestIdOf(t, id);
        const webhook = new URL(vendor.lastSubmit()!.query.get('fal_webhook')!);
        expect(`${webhook.origin}${webhook.pathname}`).toBe(`${t.config.appUrl}/api/webhooks/ai/fal`);
        const hook = `/api/webhooks/ai/fal${webhook.search}`;

        // a payload claiming success, signed with a key fal never published
        const lie = Buffer.from(
          JSON.stringify({ request_id: requestId, status: 'OK', payload: { image: { url: 'https://evil.example/x.jpg' } } }),
        );
        const forged = vendor.signedWebhook(lie, { requestId, key: generateKeyPairSync('ed25519').privateKey });
        const asked = vendor.received.length;
        const refused = await t.http.post(hook).set(forged.headers).send(lie.toString());
        expect(refused.status).toBe(401);
        // the genuine key but a stale timestamp
        const stale = vendor.signedWebhook(lie, { requestId, timestamp: Math.floor(Date.now() / 1000) - 3600 });
        expect((await t.http.post(hook).set(stale.headers).send(lie.toString())).status).toBe(401);
        await new Promise((r) => setTimeout(r, 300));
        expect((await t.http.get(`/api/generations/${id}`).set(bearer(who.accessToken))).body.status).toBe('processing');
        // nothing asked the queue because of them (only the JWKS was read)
        expect(vendor.received.slice(asked).every((r) => r.path === '/.well-known/jwks.json')).toBe(true);

        await vendor.finish(requestId);
        expect(vendor.deliveries).toEqual([{ url: expect.stringContaining('/api/webhooks/ai/fal?fr_app=fal-ai%2Fkling'), status: 202 }]);
        // the poll interval is a minute: only the webhook can have finished it this soon
        const done = await waitForEnd(t, who, id, 10_000);
        expect(done.status).toBe('completed');
        expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 1, held: 0, balanced: true });
        // fal retries a delivery it thinks failed: the same call again changes nothing
        const again = vendor.signedWebhook(await vendor.webhookBody(requestId), { requestId });
        expect((await t.http.post(hook).set(again.headers).send(again.body.toString())).status).toBe(202);
        await new Promise((r) => setTimeout(r, 200));
        expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 1, held: 0, balanced: true });
      });

      it('a video completes on its webhook too (the Kling video app id in the callback)', async () => {
        const who = await person(t, { tier: 'glow_up', addCredits: 10 });
        const upload = await uploadPhoto(t, who);
        const started = await startGeneration(t, who, { ...IMAGE_START, type: 'video', upload_ids: [upload] });
        const requestId = await requestIdOf(t, started.body.id);
        expect(new URL(vendor.lastSubmit()!.query.get('fal_webhook')!).searchParams.get('fr_app')).toBe('fal-ai/kling-video');
        await vendor.finish(requestId);
        expect(vendor.deliveries.map((d) => d.status)).toEqual([202]);
        const done = await waitForEnd(t, who, started.body.id, 15_000);
        expect(done.status).toBe('completed');
        const mp4 = Buffer.from(await (await fetch(new URL(done.url, t.baseUrl))).arrayBuffer());
        expect(mp4.toString('latin1', 4, 8)).toBe('ftyp');
        expect(await books(t.db, who.userId, started.body.id)).toMatchObject({ charged: 4, held: 0, balanced: true });
      });
    });
  },
);
