import sharp from 'sharp';
import { loadConfig } from '../../src/config/app-config';
import { AI_PROVIDER, ProviderErrorKind, ProviderStartInput } from '../../src/modules/generations/providers/ai-provider';
import { createFashnProvider, FashnProvider, fashnWebhookToken } from '../../src/modules/generations/providers/fashn.provider';
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
import { bearer } from '../helpers/auth';
import { expectProviderError, inputJpeg, pollUntilDone as pollProvider, publishStartInputs, startInput } from './adapter-test-kit';
import { FakeFashnServer } from './fake-fashn.server';
import { FakeReply, FakeVendorServer, ReceivedRequest } from './fake-vendor-server';

const WEBHOOK_SECRET = 'fashn-webhook-secret-for-tests-0123456789';

/** A tiny HTTP server standing in for our webhook route: records each call and answers 200. */
class WebhookReceiver extends FakeVendorServer {
  get url(): string {
    return `${this.baseUrl}/api/webhooks/fashn`;
  }

  /** each call as our route sees it: the path and query it arrived on, the headers, the raw body */
  get calls(): { url: string; headers: ReceivedRequest['headers']; body: Buffer }[] {
    return this.received.map((r) => ({ url: r.url, headers: r.headers, body: r.rawBody }));
  }

  protected async route(_req: ReceivedRequest, { send }: FakeReply): Promise<void> {
    await send(200, undefined, { 'Content-Type': 'text/plain' }, 'ok');
  }
}

/**
 * The FASHN adapter against a local server that speaks the FASHN API (/v1/run, /v1/status/{id},
 * webhooks): what it sends and how it reads every answer, and the webhook authenticity scheme.
 */
describe('FASHN adapter against a fake FASHN API', () => {
  const vendor = new FakeFashnServer();
  const receiver = new WebhookReceiver();
  let provider: FashnProvider;

  const input = (overrides: Partial<ProviderStartInput> = {}) => startInput({ generationId: 'gen-42', ...overrides });
  const providerError = (promise: Promise<unknown>) => expectProviderError(promise, vendor.apiKey);
  const pollUntilDone = (jobId: string) => pollProvider(provider, jobId);

  beforeAll(async () => {
    await vendor.start();
    await publishStartInputs(vendor);
    await receiver.start();
  });
  beforeEach(() => {
    vendor.reset();
    receiver.reset();
    // Limits far above a stalled machine's pauses; the timeout test makes its own short one.
    provider = new FashnProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, startTimeoutMs: 10_000, statusTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await vendor.stop();
    await receiver.stop();
  });

  it('image: POST /v1/run with tryon-v1.6 and the documented inputs, then starting/in_queue/processing, then the result as base64', async () => {
    const { jobId } = await provider.start(input());
    const run = vendor.lastRun()!;
    expect(run.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(run.headers['content-type']).toMatch(/^application\/json/);
    expect([...run.query.keys()]).toEqual([]); // no webhook without a secret
    expect(run.body).toEqual({
      model_name: 'tryon-v1.6',
      inputs: {
        model_image: 'https://files.example/signed/person.jpg',
        garment_image: 'https://files.example/signed/garment.png',
        category: 'auto',
        mode: 'quality',
        num_samples: 1,
        // explicit: blocks explicit content, lets swimwear and lingerie through
        moderation_level: 'permissive',
        // the result comes back in the status payload, never kept on FASHN's CDN (72 h otherwise)
        return_base64: true,
        output_format: 'jpeg',
      },
    });
    expect(provider.supportsWebhooks).toBe(false);

    const { states, final } = await pollUntilDone(jobId);
    expect(states.slice(0, 3)).toEqual([
      { state: 'processing', detail: 'starting at the vendor' },
      { state: 'processing', detail: 'queued at the vendor' },
      { state: 'processing', detail: 'running at the vendor' },
    ]);
    expect(final).toEqual({ state: 'completed', result: { buffer: expect.any(Buffer), contentType: 'image/jpeg' } });
    const picture = (final as { result: { buffer: Buffer } }).result.buffer;
    expect(await sharp(picture).metadata()).toMatchObject({ format: 'jpeg', width: 864, height: 1296 });
    expect(vendor.received.filter((r) => r.method === 'GET').every((r) => r.path === `/v1/status/${jobId}`)).toBe(true);
    // nothing of it is on FASHN's CDN
    expect((await fetch(`${vendor.baseUrl}/cdn/${jobId}/output_0.png`)).status).toBe(404);
  });

  it('video: the documented image-to-video model animates the person photo, 5 s at the largest resolution', async () => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'completed' } };
    const { jobId } = await provider.start(input({ type: 'video' }));
    expect(vendor.lastRun()!.body).toEqual({
      model_name: 'image-to-video',
      inputs: { image: 'https://files.example/signed/person.jpg', duration: 5, resolution: '1080p' },
    });
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({ state: 'completed', result: { url: `${vendor.baseUrl}/cdn/${jobId}/output_0.mp4` } });
  });

  it('tryon-max takes product_image and the closest documented framing', async () => {
    provider = new FashnProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, imageModel: 'tryon-max' });
    await provider.start(input());
    expect(vendor.lastRun()!.body).toEqual({
      model_name: 'tryon-max',
      inputs: {
        model_image: 'https://files.example/signed/person.jpg',
        product_image: 'https://files.example/signed/garment.png',
        aspect_ratio: '3:4',
        resolution: '4k',
        num_images: 1,
        moderation_level: 'permissive',
        return_base64: true,
        output_format: 'jpeg',
      },
    });
    expect(provider.webhookBodyLimitBytes).toBeGreaterThan(20 * 1024 * 1024);
  });

  it('image to video has no return_base64 (its output is an MP4 on the CDN): none is sent', async () => {
    await provider.start(input({ type: 'video' }));
    expect(vendor.lastRun()!.body).toMatchObject({ inputs: expect.not.objectContaining({ return_base64: expect.anything() }) });
  });

  it('the fake holds return_base64 and output_format to their documented types', async () => {
    const send = (extra: Record<string, unknown>) =>
      fetch(`${vendor.baseUrl}/v1/run`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${vendor.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model_name: 'tryon-v1.6',
          inputs: {
            model_image: 'https://files.example/signed/person.jpg',
            garment_image: 'https://files.example/signed/garment.png',
            moderation_level: 'permissive',
            ...extra,
          },
        }),
      });
    expect((await send({ return_base64: 'yes' })).status).toBe(400);
    expect((await send({ output_format: 'webp' })).status).toBe(400);
    const cdn = await send({});
    expect(cdn.status).toBe(200);
    // without return_base64 the output is a CDN link, kept there 72 h
    const { id } = (await cdn.json()) as { id: string };
    vendor.predictions.get(id)!.plan = { pollsBeforeDone: 0, outcome: { end: 'completed' } };
    expect(await provider.status(id)).toEqual({ state: 'completed', result: { url: `${vendor.baseUrl}/cdn/${id}/output_0.png` } });
  });

  it('the factory builds it from the environment: FASHN_* and the documented defaults', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://x@127.0.0.1:5432/x',
      FILES_SIGNING_SECRET: 'x'.repeat(40),
      AUTH_JWT_SECRET: 'y'.repeat(40),
      AI_PROVIDER: 'fashn',
      FASHN_API_KEY: vendor.apiKey,
      FASHN_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    expect(config.fashn).toEqual({
      apiKey: vendor.apiKey,
      baseUrl: 'https://api.fashn.ai',
      imageModel: 'tryon-v1.6',
      videoModel: 'image-to-video',
      webhookSecret: WEBHOOK_SECRET,
      moderationLevel: 'permissive',
    });
    expect(createFashnProvider(config).supportsWebhooks).toBe(true);
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgres://x@h/x',
        FILES_SIGNING_SECRET: 'x'.repeat(40),
        AUTH_JWT_SECRET: 'y'.repeat(40),
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: '',
      }),
    ).toThrow(/FASHN_API_KEY is required when AI_PROVIDER=fashn/);
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgres://x@h/x',
        FILES_SIGNING_SECRET: 'x'.repeat(40),
        AUTH_JWT_SECRET: 'y'.repeat(40),
        FASHN_WEBHOOK_SECRET: 'short',
      }),
    ).toThrow(/FASHN_WEBHOOK_SECRET must be at least 32 characters/);
  });

  it('start-up refuses a model the adapter cannot call with the body it builds, listing the ones it can', () => {
    const base = { DATABASE_URL: 'postgres://x@h/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
    // product-to-model would be sent a try-on body (it makes up a person from a product photo)
    expect(() => loadConfig({ ...base, FASHN_IMAGE_MODEL: 'product-to-model' })).toThrow(
      /FASHN_IMAGE_MODEL must be one of tryon-v1\.6, tryon-max/,
    );
    expect(() => loadConfig({ ...base, FASHN_IMAGE_MODEL: 'tryon-v1.5' })).toThrow(/FASHN_IMAGE_MODEL must be one of/);
    expect(() => loadConfig({ ...base, FASHN_VIDEO_MODEL: 'tryon-v1.6' })).toThrow(/FASHN_VIDEO_MODEL must be one of image-to-video/);
    expect(loadConfig({ ...base, FASHN_IMAGE_MODEL: 'tryon-max' }).fashn.imageModel).toBe('tryon-max');
  });

  describe('runtime failures (status "failed" with error.name)', () => {
    it.each([
      ['ContentModerationError', 'Prohibited content detected in the model image', true],
      ['NSFWError', 'NSFW content detected in the garment image', true],
      ['ImageLoadError', "Error loading model image: The URL's Content-Type is not an image", false],
      ['PoseError', 'Unable to detect body pose in the model image', false],
      ['PipelineError', 'Unexpected pipeline error', false],
    ])('%s -> failed%s', async (name, message, refused) => {
      vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'failed', name, message } };
      const { jobId } = await provider.start(input());
      const { final } = await pollUntilDone(jobId);
      if (refused) {
        expect(final).toEqual({ state: 'failed', refused: true, reason: `Refused by the vendor's content moderation: ${message}` });
      } else {
        expect(final).toEqual({ state: 'failed', reason: `The vendor failed the prediction (${name}: ${message})` });
      }
    });

    it('a prediction cancelled at the vendor is a failed generation', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'canceled' } };
      const { jobId } = await provider.start(input());
      expect(await provider.status(jobId)).toEqual({ state: 'failed', reason: 'The prediction was cancelled at the vendor' });
    });
  });

  describe('API-level errors', () => {
    it('400 BadRequest throws Rejected (not retryable); the fake checks the documented required inputs', async () => {
      provider = new FashnProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, imageModel: 'no-such-model' });
      const error = await providerError(provider.start(input()));
      expect(error.kind).toBe(ProviderErrorKind.Rejected);
      expect(error.options).toMatchObject({ status: 400, vendorCode: 'BadRequest' });
      expect(error.retryable).toBe(false);
    });

    it('401 UnauthorizedAccess throws Unauthorized', async () => {
      const wrong = new FashnProvider({ apiKey: 'fa-wrong', baseUrl: vendor.baseUrl });
      const error = await providerError(wrong.start(input()));
      expect(error.kind).toBe(ProviderErrorKind.Unauthorized);
      expect(error.options).toMatchObject({ status: 401, vendorCode: 'UnauthorizedAccess' });
    });

    it('429 RateLimitExceeded with Retry-After throws RateLimited with the delay; OutOfCredits is not retryable', async () => {
      vendor.runOverrides.push({
        status: 429,
        headers: { 'Retry-After': '3' },
        body: { error: 'RateLimitExceeded', message: 'Too many requests' },
      });
      const limited = await providerError(provider.start(input()));
      expect(limited.kind).toBe(ProviderErrorKind.RateLimited);
      expect(limited.options).toMatchObject({ status: 429, vendorCode: 'RateLimitExceeded', retryAfterMs: 3000 });
      expect(limited.retryable).toBe(true);

      vendor.runOverrides.push({ status: 429, body: { error: 'ConcurrencyLimitExceeded', message: 'Too many concurrent predictions' } });
      expect((await providerError(provider.start(input()))).kind).toBe(ProviderErrorKind.RateLimited);

      vendor.runOverrides.push({ status: 429, body: { error: 'OutOfCredits', message: 'No API credits remaining' } });
      const broke = await providerError(provider.start(input()));
      expect(broke.kind).toBe(ProviderErrorKind.Rejected);
      expect(broke.retryable).toBe(false);
    });

    it('500 throws BadResponse (retryable)', async () => {
      vendor.runOverrides.push({ status: 500, body: { error: 'InternalServerError', message: 'Internal server error' } });
      const error = await providerError(provider.start(input()));
      expect(error.kind).toBe(ProviderErrorKind.BadResponse);
      expect(error.retryable).toBe(true);
      vendor.statusOverrides.push({ status: 502, raw: 'Bad Gateway', headers: { 'Content-Type': 'text/plain' } });
      expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);
    });

    it('an unknown or no longer tracked prediction (404) throws NotFound', async () => {
      const error = await providerError(provider.status('never-heard-of-it'));
      expect(error.kind).toBe(ProviderErrorKind.NotFound);
      expect(error.options).toMatchObject({ status: 404, vendorCode: 'NotFound' });
      expect(error.retryable).toBe(false);
    });

    it('slow answers throw Timeout: the status timeout (300 ms here) and the caller signal on start', async () => {
      const quick = new FashnProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, statusTimeoutMs: 300 });
      vendor.statusOverrides.push({ delayMs: 3000, body: { id: 'x', status: 'processing', output: null, error: null } });
      const started = Date.now();
      expect((await providerError(quick.status('x'))).kind).toBe(ProviderErrorKind.Timeout);
      expect(Date.now() - started).toBeLessThan(2500); // cut by the limit, not by the answer at 3 s

      vendor.runOverrides.push({ delayMs: 3000, body: { id: 'late', error: null } });
      const error = await providerError(provider.start(input({ signal: AbortSignal.timeout(150) })));
      expect(error.kind).toBe(ProviderErrorKind.Timeout);
      expect(error.retryable).toBe(true);
    });

    it('malformed JSON and unexpected shapes throw BadResponse', async () => {
      vendor.runOverrides.push({ raw: '{"id": "abc"' });
      expect((await providerError(provider.start(input()))).kind).toBe(ProviderErrorKind.BadResponse);
      vendor.runOverrides.push({ body: { something: 'else' } });
      expect((await providerError(provider.start(input()))).kind).toBe(ProviderErrorKind.BadResponse);
      vendor.statusOverrides.push({ raw: '<<<' });
      expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);
      vendor.statusOverrides.push({ body: { id: 'x', status: 'weird' } });
      expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);
      vendor.statusOverrides.push({ body: { id: 'x', status: 'completed', output: [], error: null } });
      expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);
    });

    it('a run answered with an error and no id throws Rejected with the vendor message', async () => {
      vendor.runOverrides.push({ body: { id: null, error: 'Garment image could not be classified' } });
      const error = await providerError(provider.start(input()));
      expect(error.kind).toBe(ProviderErrorKind.Rejected);
      expect(error.message).toContain('Garment image could not be classified');
    });
  });

  describe('inputs, held to the documented limits', () => {
    const dataUri = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;

    it('its input spec: at most 2000 px (FASHN advises it), base64 accepted', () => {
      expect(provider.inputSpec('image')).toEqual({ minSide: 360, maxSide: 2000, acceptsDataUri: true });
      expect(provider.inputSpec('video')).toEqual(provider.inputSpec('image'));
    });

    it('moderation_level comes from FASHN_MODERATION_LEVEL (default permissive); none is refused; video has none', async () => {
      const base = { DATABASE_URL: 'postgres://x@h/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
      const strict = loadConfig({ ...base, AI_PROVIDER: 'fashn', FASHN_API_KEY: vendor.apiKey, FASHN_MODERATION_LEVEL: 'conservative' });
      const { jobId } = await createFashnProvider(strict, { baseUrl: vendor.baseUrl }).start(input());
      expect(vendor.predictions.get(jobId)!.moderationLevel).toBe('conservative');
      expect(() => loadConfig({ ...base, FASHN_MODERATION_LEVEL: 'none' })).toThrow(
        /FASHN_MODERATION_LEVEL.*none would let nudity through/,
      );

      await provider.start(input({ type: 'video' }));
      expect(vendor.lastRun()!.body).toMatchObject({ inputs: expect.not.objectContaining({ moderation_level: expect.anything() }) });
    });

    it('the fake refuses a try-on without moderation_level or with an unknown one (400 BadRequest)', async () => {
      vendor.runOverrides.length = 0;
      const send = (inputs: Record<string, unknown>) =>
        fetch(`${vendor.baseUrl}/v1/run`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${vendor.apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model_name: 'tryon-v1.6', inputs }),
        });
      const images = { model_image: 'https://files.example/signed/person.jpg', garment_image: 'https://files.example/signed/garment.png' };
      const missing = await send(images);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: 'BadRequest', message: expect.stringMatching(/moderation_level/) });
      const wrong = await send({ ...images, moderation_level: 'strict' });
      expect(wrong.status).toBe(400);
      expect((await send({ ...images, moderation_level: 'permissive' })).status).toBe(200);
    });

    it('a picture over 2000 px fails the prediction (InputValidationError); base64 without its prefix cannot be loaded; a data URI JPEG can', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'completed' } };
      const big = await inputJpeg(1536, 2048);
      const tooBig = await provider.start(input({ person: { url: dataUri(big) } }));
      expect(await provider.status(tooBig.jobId)).toEqual({
        state: 'failed',
        reason: expect.stringMatching(/^The vendor failed the prediction \(InputValidationError: .*2000 px/),
      });

      const bare = await provider.start(input({ person: { url: big.toString('base64') } }));
      expect(await provider.status(bare.jobId)).toMatchObject({ state: 'failed', reason: expect.stringMatching(/ImageLoadError/) });

      const fine = await provider.start(input({ person: { url: dataUri(await sharp(big).resize(1500, 2000).jpeg().toBuffer()) } }));
      expect(await provider.status(fine.jobId)).toEqual({
        state: 'completed',
        result: { buffer: expect.any(Buffer), contentType: 'image/jpeg' },
      });
      expect(vendor.images.at(-2)).toMatchObject({ field: 'model_image', via: 'data-uri', width: 1500, height: 2000 });
      expect(vendor.images.at(-1)).toMatchObject({ field: 'garment_image', via: 'url' });
    });
  });

  describe('webhooks (FASHN_WEBHOOK_SECRET set)', () => {
    beforeEach(() => {
      provider = new FashnProvider({
        apiKey: vendor.apiKey,
        baseUrl: vendor.baseUrl,
        webhookSecret: WEBHOOK_SECRET,
        statusTimeoutMs: 10_000,
      });
    });

    it('sends webhook_url (with the per-generation token) as the documented query parameter; the delivered call parses to the final status', async () => {
      expect(provider.supportsWebhooks).toBe(true);
      const { jobId } = await provider.start(input({ webhookUrl: `${receiver.url}?source=fashn` }));

      const sent = new URL(vendor.lastRun()!.query.get('webhook_url')!);
      expect(`${sent.origin}${sent.pathname}`).toBe(receiver.url);
      expect(sent.searchParams.get('source')).toBe('fashn');
      expect(sent.searchParams.get('fr_generation')).toBe('gen-42');
      expect(sent.searchParams.get('fr_token')).toBe(fashnWebhookToken(WEBHOOK_SECRET, 'gen-42'));
      expect(vendor.lastRun()!.body).not.toHaveProperty('webhook_url');

      expect(await vendor.deliverWebhook(jobId)).toBe(200);
      expect(receiver.calls).toHaveLength(1);
      const call = receiver.calls[0];
      expect(provider.parseWebhook(call.headers, call.body, call.url)).toEqual({
        jobId,
        generationId: 'gen-42',
        status: { state: 'completed', result: { buffer: expect.any(Buffer), contentType: 'image/jpeg' } },
      });
      expect(provider.webhookUrlIsGenuine(call.url)).toBe(true);
      expect(provider.webhookUrlIsGenuine(call.url.replace(/fr_token=[^&]+/, 'fr_token=forged'))).toBe(false);
      // the same call read from a parsed query object (Express req.query)
      const query = Object.fromEntries(new URL(call.url, 'http://x').searchParams);
      expect(provider.parseWebhook(call.headers, call.body, query)?.jobId).toBe(jobId);
    });

    it('a failed prediction delivered by webhook reads as failed (refused for moderation)', async () => {
      vendor.nextPlan = {
        pollsBeforeDone: 0,
        outcome: { end: 'failed', name: 'ContentModerationError', message: 'Prohibited content detected' },
      };
      const { jobId } = await provider.start(input({ webhookUrl: receiver.url }));
      await vendor.deliverWebhook(jobId);
      const call = receiver.calls[0];
      expect(provider.parseWebhook(call.headers, call.body, call.url)).toEqual({
        jobId,
        generationId: 'gen-42',
        status: { state: 'failed', refused: true, reason: "Refused by the vendor's content moderation: Prohibited content detected" },
      });
    });

    it('forged webhooks are refused: no token, a wrong token, a token of another generation, another secret, no URL', async () => {
      const { jobId } = await provider.start(input({ webhookUrl: receiver.url }));
      const payload = Buffer.from(JSON.stringify({ id: jobId, status: 'completed', output: ['https://evil.example/x.png'], error: null }));
      const headers = { 'content-type': 'application/json' };
      const at = (q: string) => `/api/webhooks/fashn${q}`;

      expect(provider.parseWebhook(headers, payload, at(''))).toBeNull();
      expect(provider.parseWebhook(headers, payload, at('?fr_generation=gen-42'))).toBeNull();
      expect(
        provider.parseWebhook(headers, payload, at('?fr_generation=gen-42&fr_token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')),
      ).toBeNull();
      const otherToken = fashnWebhookToken(WEBHOOK_SECRET, 'gen-other');
      expect(provider.parseWebhook(headers, payload, at(`?fr_generation=gen-42&fr_token=${otherToken}`))).toBeNull();
      const otherSecret = fashnWebhookToken('another-secret-of-at-least-32-characters!!', 'gen-42');
      expect(provider.parseWebhook(headers, payload, at(`?fr_generation=gen-42&fr_token=${otherSecret}`))).toBeNull();
      expect(provider.parseWebhook(headers, payload)).toBeNull();
      // repeated parameters (Express gives arrays) are refused rather than guessed
      const token = fashnWebhookToken(WEBHOOK_SECRET, 'gen-42');
      expect(provider.parseWebhook(headers, payload, { fr_generation: ['gen-42', 'gen-42'], fr_token: token })).toBeNull();

      // a forged call actually sent to the receiver is refused too
      await fetch(`${receiver.url}?fr_generation=gen-42&fr_token=forged`, { method: 'POST', body: payload, headers });
      const forged = receiver.calls.at(-1)!;
      expect(provider.parseWebhook(forged.headers, forged.body, forged.url)).toBeNull();

      // the genuine token with a body that is not a FASHN payload
      expect(provider.parseWebhook(headers, Buffer.from('not json'), at(`?fr_generation=gen-42&fr_token=${token}`))).toBeNull();
      expect(
        provider.parseWebhook(headers, Buffer.from('{"status":"completed"}'), at(`?fr_generation=gen-42&fr_token=${token}`)),
      ).toBeNull();
    });

    it('without a webhook URL from the pipeline it sends none and polling still works', async () => {
      vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'completed' } };
      const { jobId } = await provider.start(input());
      expect(vendor.lastRun()!.query.get('webhook_url')).toBeNull();
      expect((await provider.status(jobId)).state).toBe('completed');
    });
  });
});

/**
 * The whole application with AI_PROVIDER=fashn and webhooks, Try-On Max at 4K: FASHN's call carries
 * the result as base64 (several MB), which the webhook route reads for a call whose URL token is
 * genuine; a forged call is refused by its size before its body is read, and every other route keeps
 * the API's 1 MB limit.
 */
describe('FASHN through the real API and worker: base64 results by webhook', () => {
  const vendor = new FakeFashnServer();
  let t: GenerationApp;

  beforeAll(async () => {
    await vendor.start();
    t = await createGenerationApp({
      driver: 'in-process',
      env: {
        AI_PROVIDER: 'fashn',
        FASHN_API_KEY: vendor.apiKey,
        FASHN_BASE_URL: vendor.baseUrl,
        FASHN_WEBHOOK_SECRET: WEBHOOK_SECRET,
        FASHN_IMAGE_MODEL: 'tryon-max',
        // the first status check a minute away: only the webhook can finish a generation sooner
        AI_POLL_INTERVAL_MS: '60000',
        AI_POLL_MAX_INTERVAL_MS: '60000',
      },
    });
    // the test app's APP_URL is not where it listens: the fake reaches it as the internet would reach APP_URL
    vendor.resolveUrl = (url) => url.replace(t.config.appUrl, t.baseUrl);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await vendor.stop();
  });

  it('a webhook of several MB (a 4K JPEG as base64) is accepted and completes the generation; a forged one of the same size is refused', async () => {
    vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'completed' } };
    const who = await person(t);
    const upload = await uploadPhoto(t, who);
    const started = await startGeneration(t, who, { ...IMAGE_START, upload_ids: [upload] });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    const predictionId = await waitFor('the prediction', async () => {
      const [row] = await t.db.query(`SELECT provider_job_id FROM user_generations WHERE id = $1`, [id]);
      return row.provider_job_id as string | null;
    });
    expect(vendor.predictions.get(predictionId)).toMatchObject({ returnBase64: true, outputFormat: 'jpeg' });

    const body = JSON.stringify(await vendor.finalPayload(predictionId));
    expect(body.length).toBeGreaterThan(3 * 1024 * 1024); // several MB, over the API's 1 MB JSON limit
    const limit = (t.app.get(AI_PROVIDER) as FashnProvider).webhookBodyLimitBytes;
    expect(body.length).toBeLessThan(limit);

    // the same body on a URL without the genuine token: 413 from the 1 MB limit, nothing read, nothing changed
    const webhookUrl = vendor.predictions.get(predictionId)!.webhookUrl!;
    const forgedUrl = webhookUrl.replace(/fr_token=[^&]+/, 'fr_token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(await vendor.deliverWebhook(predictionId, { url: forgedUrl, body })).toBe(413);
    expect((await t.http.get(`/api/generations/${id}`).set(bearer(who.accessToken))).body.status).toBe('processing');

    // the genuine call: read whole, verified, and it makes the worker ask FASHN at once (the timed check is a minute away)
    const checks = () => vendor.received.filter((r) => r.method === 'GET' && r.path === `/v1/status/${predictionId}`).length;
    expect(checks()).toBe(0);
    expect(await vendor.deliverWebhook(predictionId)).toBe(202);
    await waitFor('the status check the webhook asked for', async () => checks() > 0, 45_000);
    // a 4K result takes a while to watermark and store on a loaded machine
    const done = await waitForEnd(t, who, id, 120_000);
    expect(done).toMatchObject({ status: 'completed', error: null });
    const file = await fetch(new URL(done.url, t.baseUrl));
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(await books(t.db, who.userId, id)).toMatchObject({ charged: 1, held: 0, balanced: true });
    // nothing of it is on FASHN's CDN
    expect((await fetch(`${vendor.baseUrl}/cdn/${predictionId}/output_0.png`)).status).toBe(404);
  }, 240_000);

  it('every other route keeps the 1 MB JSON limit, and a small forged call is still refused by its token', async () => {
    const big = JSON.stringify({ email: 'a@b.example', password: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.http.post('/api/auth/sign-in').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
    const forged = await t.http
      .post('/api/webhooks/ai/fashn?fr_generation=x&fr_token=y')
      .set('Content-Type', 'application/json')
      .send({ id: 'p', status: 'completed', output: ['https://evil.example/x.png'], error: null });
    expect(forged.status).toBe(401);
  });
});
