import { createHash, generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { NEGATIVE_PROMPT } from '../../catalog';
import { ProviderError, ProviderErrorKind, ProviderStartInput } from './ai-provider';
import { FAL_DEFAULTS, falAppId, falSettings, nearestAspectRatio } from './fal.config';
import { createFalProvider, FalProvider, outputToStatus } from './fal.provider';

const KEY = 'fal-unit-key:0123456789abcdef';
const QUEUE = 'https://queue.fal.test';
const JWKS = 'https://rest.fal.test/.well-known/jwks.json';

const input = (overrides: Partial<ProviderStartInput> = {}): ProviderStartInput => ({
  generationId: 'gen-7',
  type: 'image',
  prompt: 'show the woman in a dress',
  size: '2953*4096',
  person: { url: 'https://f/p.jpg' },
  garment: { url: 'https://f/g.png' },
  templateId: 't',
  sceneId: 's',
  ...overrides,
});

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };

/** fetch replaced by `answer`, every call recorded. */
function stubFetch(answer: (call: Call) => Answer): Call[] {
  const calls: Call[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    const call: Call = {
      method: init?.method ?? 'GET',
      url: String(url),
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const a = answer(call);
    return new Response(a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body), {
      status: a.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...a.headers },
    });
  });
  return calls;
}

const provider = (options: Partial<ConstructorParameters<typeof FalProvider>[0]> = {}) =>
  new FalProvider({ apiKey: KEY, queueUrl: QUEUE, jwksUrl: JWKS, ...options });

afterEach(() => jest.restoreAllMocks());

describe('fal request building, per model', () => {
  it('Kolors try-on (the default): human_image_url and garment_image_url, nothing else', () => {
    const { model, body } = provider().buildInput(input());
    expect(model.id).toBe('fal-ai/kling/v1-5/kolors-virtual-try-on');
    expect(body).toEqual({ human_image_url: 'https://f/p.jpg', garment_image_url: 'https://f/g.png' });
  });

  it('FASHN on fal: model_image and garment_image with the documented options', () => {
    const { body } = provider({ imageModel: 'fal-ai/fashn/tryon/v1.6' }).buildInput(input());
    expect(body).toEqual({
      model_image: 'https://f/p.jpg',
      garment_image: 'https://f/g.png',
      category: 'auto',
      mode: 'quality',
      num_samples: 1,
      moderation_level: 'permissive',
      output_format: 'jpeg',
    });
  });

  it('Leffa: the full-body garment type and its safety checker on', () => {
    const { body } = provider({ imageModel: 'fal-ai/leffa/virtual-tryon' }).buildInput(input());
    expect(body).toEqual({
      human_image_url: 'https://f/p.jpg',
      garment_image_url: 'https://f/g.png',
      garment_type: 'dresses',
      enable_safety_checker: true,
      output_format: 'jpeg',
    });
  });

  it('video: Kling image-to-video animates the person photo with our prompt, the negative prompt and 5 s', () => {
    const { model, body } = provider().buildInput(input({ type: 'video' }));
    expect(model.id).toBe(FAL_DEFAULTS.videoModel);
    expect(body).toEqual({
      image_url: 'https://f/p.jpg',
      prompt: 'show the woman in a dress',
      negative_prompt: NEGATIVE_PROMPT,
      duration: '5',
    });
  });

  it('Kling 1.6 pro takes aspect_ratio: the value nearest the person photo; the other Kling models and unknown sizes get none', () => {
    const pro = provider({ videoModel: 'fal-ai/kling-video/v1.6/pro/image-to-video' });
    const sized = (width: number, height: number) => input({ type: 'video', person: { url: 'https://f/p.jpg', width, height } });
    expect(pro.buildInput(sized(1536, 2048)).body.aspect_ratio).toBe('9:16');
    expect(pro.buildInput(sized(2048, 1152)).body.aspect_ratio).toBe('16:9');
    expect(pro.buildInput(sized(1000, 1000)).body.aspect_ratio).toBe('1:1');
    expect(pro.buildInput(input({ type: 'video' })).body).not.toHaveProperty('aspect_ratio');
    for (const videoModel of [
      'fal-ai/kling-video/v1.6/standard/image-to-video',
      'fal-ai/kling-video/v2.1/standard/image-to-video',
      'fal-ai/kling-video/v2.1/pro/image-to-video',
    ]) {
      expect(provider({ videoModel }).buildInput(sized(1536, 2048)).body).not.toHaveProperty('aspect_ratio');
    }
    // try-on models frame nothing
    expect(provider().buildInput(input({ person: { url: 'https://f/p.jpg', width: 600, height: 900 } })).body).not.toHaveProperty(
      'aspect_ratio',
    );
  });

  it('nearestAspectRatio compares ratios on a log scale: 4:5 is nearer 1:1 than 9:16, 3:5 nearer 9:16', () => {
    const kling = ['16:9', '9:16', '1:1'];
    expect(nearestAspectRatio(800, 1000, kling)).toBe('1:1');
    expect(nearestAspectRatio(600, 1000, kling)).toBe('9:16');
    expect(nearestAspectRatio(1000, 600, kling)).toBe('16:9');
    expect(nearestAspectRatio(1, 1, kling)).toBe('1:1');
  });

  it('a data URI input is passed through unchanged', () => {
    const uri = 'data:image/jpeg;base64,/9j/4AAQ';
    expect(provider().buildInput(input({ person: { url: uri } })).body.human_image_url).toBe(uri);
  });

  it('inputSpec: the configured model’s documented sizes, data URIs accepted', () => {
    expect(provider().inputSpec('image')).toEqual({ minSide: 300, maxSide: 2048, acceptsDataUri: true });
    expect(provider({ imageModel: 'fal-ai/fashn/tryon/v1.6' }).inputSpec('image')).toEqual({
      minSide: 300,
      maxSide: 2000,
      acceptsDataUri: true,
    });
    expect(provider({ imageModel: 'fal-ai/leffa/virtual-tryon' }).inputSpec('image')).toMatchObject({ maxSide: 1024 });
    expect(provider().inputSpec('video')).toEqual({ minSide: 300, maxSide: 2048, acceptsDataUri: true });
  });

  it('refuses a model it does not know, or one of the wrong kind', () => {
    expect(() => provider({ imageModel: 'fal-ai/flux/dev' })).toThrow(/fal image model fal-ai\/flux\/dev is not one this adapter knows/);
    expect(() => provider({ videoModel: 'fal-ai/leffa/virtual-tryon' })).toThrow(/fal video model/);
    expect(() => new FalProvider({ apiKey: '' })).toThrow(/FAL_KEY/);
  });

  it('the app id drops the sub-path; settings read FAL_* with the documented defaults', () => {
    expect(falAppId('fal-ai/kling/v1-5/kolors-virtual-try-on')).toBe('fal-ai/kling');
    expect(falAppId('fal-ai/kling-video/v2.1/standard/image-to-video')).toBe('fal-ai/kling-video');
    expect(falAppId('fal-ai/leffa/virtual-tryon')).toBe('fal-ai/leffa');
    expect(falSettings({ FAL_KEY: 'k', FAL_QUEUE_URL: 'http://127.0.0.1:9/' })).toEqual({
      apiKey: 'k',
      queueUrl: 'http://127.0.0.1:9',
      imageModel: FAL_DEFAULTS.imageModel,
      videoModel: FAL_DEFAULTS.videoModel,
      jwksUrl: 'https://rest.fal.ai/.well-known/jwks.json',
      platformUrl: 'https://api.fal.ai/v1',
      webhooks: true,
    });
    expect(falSettings({ FAL_PLATFORM_URL: 'http://127.0.0.1:9/v1/' }).platformUrl).toBe('http://127.0.0.1:9/v1');
    expect(() => createFalProvider({ fal: falSettings({}) })).toThrow(/FAL_KEY is required when AI_PROVIDER=fal/);
    expect(createFalProvider({ fal: falSettings({ FAL_KEY: 'k', FAL_WEBHOOKS: false }) }).supportsWebhooks).toBe(false);
  });

  it('start: POST {queue}/{model id}?fal_webhook=<our URL + app id> with `Key` auth; the job id is the request path under the app', async () => {
    const calls = stubFetch(() => ({ body: { request_id: 'req-1', status_url: 'x' } }));
    const { jobId } = await provider().start(input({ webhookUrl: 'https://app.example/api/webhooks/ai/fal' }));
    expect(jobId).toBe('fal-ai/kling/requests/req-1');
    const [call] = calls;
    expect(call.method).toBe('POST');
    const url = new URL(call.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${QUEUE}/fal-ai/kling/v1-5/kolors-virtual-try-on`);
    expect(url.searchParams.get('fal_webhook')).toBe('https://app.example/api/webhooks/ai/fal?fr_app=fal-ai%2Fkling');
    expect(call.headers.Authorization).toBe(`Key ${KEY}`);
    // fal stores no payload of the request, and its output files expire after an hour
    expect(call.headers['X-Fal-Store-IO']).toBe('0');
    expect(JSON.parse(call.headers['X-Fal-Object-Lifecycle-Preference'])).toEqual({ expiration_duration_seconds: 3600 });
    expect(call.body).toEqual({ human_image_url: 'https://f/p.jpg', garment_image_url: 'https://f/g.png' });
  });

  it('start without webhooks (FAL_WEBHOOKS=false or no pipeline URL) sends no fal_webhook', async () => {
    const calls = stubFetch(() => ({ body: { request_id: 'req-2' } }));
    await provider({ webhooks: false }).start(input({ webhookUrl: 'https://app.example/hook' }));
    await provider().start(input());
    expect(calls.map((c) => new URL(c.url).search)).toEqual(['', '']);
  });

  it('a submit answer without a usable request_id is a BadResponse', async () => {
    stubFetch(() => ({ body: { request_id: '../../etc' } }));
    await expect(provider().start(input())).rejects.toMatchObject({ kind: ProviderErrorKind.BadResponse });
  });
});

describe('fal status mapping', () => {
  const job = 'fal-ai/kling/requests/req-1';
  const base = `${QUEUE}/fal-ai/kling/requests/req-1`;

  it('IN_QUEUE and IN_PROGRESS are processing; the status route has no sub-path', async () => {
    const answers = [{ status: 'IN_QUEUE', queue_position: 3 }, { status: 'IN_PROGRESS' }];
    const calls = stubFetch(() => ({ status: 202, body: answers.shift() }));
    const p = provider();
    expect(await p.status(job)).toEqual({ state: 'processing', detail: 'queued at the vendor' });
    expect(await p.status(job)).toEqual({ state: 'processing', detail: 'running at the vendor' });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${base}/status`],
      ['GET', `${base}/status`],
    ]);
  });

  it('COMPLETED reads the result route: image, images[0] or video URL', async () => {
    for (const [output, url] of [
      [{ image: { url: 'https://cdn/a.jpg' } }, 'https://cdn/a.jpg'],
      [{ images: [{ url: 'https://cdn/b.jpg' }, { url: 'https://cdn/c.jpg' }] }, 'https://cdn/b.jpg'],
      [{ video: { url: 'https://cdn/v.mp4' } }, 'https://cdn/v.mp4'],
    ] as const) {
      const calls = stubFetch((c) => ({ body: c.url.endsWith('/status') ? { status: 'COMPLETED' } : output }));
      expect(await provider().status(job)).toEqual({ state: 'completed', result: { url } });
      expect(calls.map((c) => c.url)).toEqual([`${base}/status`, base]);
      jest.restoreAllMocks();
    }
  });

  it('a flagged result (has_nsfw_concepts) is a refusal; a data URI output is the bytes', () => {
    expect(outputToStatus({ image: { url: 'https://cdn/a.jpg' }, has_nsfw_concepts: true })).toMatchObject({
      state: 'failed',
      refused: true,
    });
    expect(outputToStatus({ images: [{ url: 'https://cdn/a.jpg' }], has_nsfw_concepts: [false, true] })).toMatchObject({ refused: true });
    expect(outputToStatus({ image: { url: 'data:image/png;base64,iVBORw==' } })).toEqual({
      state: 'completed',
      result: { buffer: Buffer.from('iVBORw==', 'base64'), contentType: 'image/png' },
    });
    for (const bad of [null, {}, { image: { url: 'ftp://x' } }, { images: [] }]) {
      expect(() => outputToStatus(bad)).toThrow(expect.objectContaining({ kind: ProviderErrorKind.BadResponse }));
    }
  });

  it("a completed request's model error is a failed generation: 422 validation, content policy (refused), a request error", async () => {
    const results: Answer[] = [
      {
        status: 422,
        body: {
          detail: [{ loc: ['body', 'human_image_url'], msg: 'Field required', type: 'missing', input: 'https://signed/secret-photo' }],
        },
      },
      {
        status: 422,
        body: {
          detail: [{ loc: ['body', 'image_url'], msg: 'The content was flagged by a content checker.', type: 'content_policy_violation' }],
        },
      },
      {
        status: 504,
        body: { detail: 'Request timed out', error_type: 'request_timeout' },
        headers: { 'X-Fal-Error-Type': 'request_timeout' },
      },
      { status: 400, body: { detail: 'Request was cancelled', error_type: 'client_cancelled' } },
    ];
    stubFetch((c) => (c.url.endsWith('/status') ? { body: { status: 'COMPLETED' } } : results.shift()!));
    const p = provider();
    const validation = await p.status(job);
    expect(validation).toEqual({ state: 'failed', reason: 'The vendor failed the request (fal answered 422 missing: Field required)' });
    expect(JSON.stringify(validation)).not.toContain('secret-photo');
    expect(await p.status(job)).toEqual({
      state: 'failed',
      refused: true,
      reason: "Refused by the vendor's content checker: The content was flagged by a content checker.",
    });
    expect(await p.status(job)).toEqual({
      state: 'failed',
      reason: 'The vendor failed the request (fal answered 504 request_timeout: Request timed out)',
    });
    expect(await p.status(job)).toMatchObject({ state: 'failed' });
  });

  it('a gateway error at the result route (no fal error body) is retryable; unknown statuses and job ids are not', async () => {
    stubFetch((c) => (c.url.endsWith('/status') ? { body: { status: 'COMPLETED' } } : { status: 502, body: 'Bad Gateway' }));
    const gateway = await provider()
      .status(job)
      .catch((e: unknown) => e);
    expect(gateway).toMatchObject({ kind: ProviderErrorKind.BadResponse, retryable: true });
    jest.restoreAllMocks();
    stubFetch(() => ({ body: { status: 'DONE' } }));
    await expect(provider().status(job)).rejects.toMatchObject({ kind: ProviderErrorKind.BadResponse });
    await expect(provider().status('req-1')).rejects.toMatchObject({ kind: ProviderErrorKind.NotFound });
  });

  it('cancel: PUT {queue}/{app}/requests/{id}/cancel; an already completed request (400) is fine', async () => {
    const answers: Answer[] = [
      { status: 202, body: { status: 'CANCELLATION_REQUESTED' } },
      { status: 400, body: { status: 'ALREADY_COMPLETED' } },
    ];
    const calls = stubFetch(() => answers.shift()!);
    await provider().cancel(job);
    await provider().cancel(job);
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['PUT', `${base}/cancel`],
      ['PUT', `${base}/cancel`],
    ]);
  });
});

describe('fal discard (the request forgotten at fal once our copy is stored)', () => {
  const JOB = 'fal-ai/kling/requests/0b3a9a1e-8a57-4f7e-9d51-1c0f6f1d2b3c';
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  it('DELETE {platform}/models/requests/{id}/payloads with the key and an idempotency key; an empty 2xx is fine', async () => {
    const calls = stubFetch(() =>
      calls.length > 1
        ? { status: 200 }
        : { body: { cdn_delete_results: [{ link: 'https://v3.fal.media/files/x.jpg', exception: null }] } },
    );
    await provider({ platformUrl: 'https://api.fal.test/v1/' }).discard(JOB);
    expect(calls).toEqual([
      expect.objectContaining({
        method: 'DELETE',
        url: 'https://api.fal.test/v1/models/requests/0b3a9a1e-8a57-4f7e-9d51-1c0f6f1d2b3c/payloads',
        headers: expect.objectContaining({
          Authorization: `Key ${KEY}`,
          'Idempotency-Key': 'discard-0b3a9a1e-8a57-4f7e-9d51-1c0f6f1d2b3c',
        }),
      }),
    ]);
    await expect(provider().discard(JOB)).resolves.toBeUndefined(); // answered 200 without a body
    expect(calls).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('a request fal no longer knows (404) is fine; a job id this adapter never made is not sent', async () => {
    const calls = stubFetch(() => ({ status: 404, body: { detail: 'Request not found' } }));
    await expect(provider().discard(JOB)).resolves.toBeUndefined();
    await provider().discard('not a fal job');
    expect(calls).toHaveLength(1);
  });

  it('a key without admin scope (401/403) is said once per process, without the key; nothing is thrown', async () => {
    stubFetch(() => ({ status: 403, body: { detail: 'Admin API key required' } }));
    const p = provider();
    await p.discard(JOB);
    await p.discard(JOB);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/needs an admin key.*X-Fal-Store-IO: 0.*expire after 3600 s/);
    expect(String(warn.mock.calls[0][0])).not.toContain(KEY);
  });

  it('a 5xx or an unreachable Platform API is logged and thrown (the pipeline ignores it)', async () => {
    stubFetch(() => ({ status: 503, body: { detail: 'unavailable' } }));
    await expect(provider().discard(JOB)).rejects.toMatchObject({ kind: ProviderErrorKind.BadResponse });
    expect(String(warn.mock.calls[0][0])).toMatch(/did not delete the payloads of request 0b3a9a1e/);
  });
});

describe('fal error mapping', () => {
  const submitWith = async (answer: Answer): Promise<ProviderError> => {
    stubFetch(() => answer);
    const error = await provider()
      .start(input())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    jest.restoreAllMocks();
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).not.toContain(KEY);
    return error as ProviderError;
  };

  it('401/403 Unauthorized, 404 (no such app) Rejected, 422 Rejected, 429 RateLimited with Retry-After, 5xx BadResponse', async () => {
    expect(await submitWith({ status: 401, body: { detail: `Invalid key ${KEY}` } })).toMatchObject({
      kind: ProviderErrorKind.Unauthorized,
    });
    expect(await submitWith({ status: 403, body: { detail: 'User is locked. Reason: Exhausted balance.' } })).toMatchObject({
      kind: ProviderErrorKind.Unauthorized,
    });
    expect(await submitWith({ status: 404, body: { detail: "Application 'x' not found" } })).toMatchObject({
      kind: ProviderErrorKind.Rejected,
      retryable: false,
    });
    const invalid = await submitWith({
      status: 422,
      body: { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] },
    });
    expect(invalid).toMatchObject({ kind: ProviderErrorKind.Rejected, options: { status: 422, vendorCode: 'dict_type' } });
    const limited = await submitWith({ status: 429, body: { detail: 'Too many concurrent requests' }, headers: { 'Retry-After': '4' } });
    expect(limited).toMatchObject({ kind: ProviderErrorKind.RateLimited, retryable: true, options: { retryAfterMs: 4000 } });
    expect(await submitWith({ status: 503, body: { detail: 'No runner', error_type: 'runner_scheduling_failure' } })).toMatchObject({
      kind: ProviderErrorKind.BadResponse,
      retryable: true,
    });
    const refused = await submitWith({ status: 422, body: { detail: [{ msg: 'flagged', type: 'content_policy_violation' }] } });
    expect(refused).toMatchObject({ kind: ProviderErrorKind.Rejected, options: { refused: true } });
  });

  it('links and data URIs the vendor quotes (ours point at a photo) are not kept', async () => {
    const quoted = await submitWith({
      status: 422,
      body: {
        detail: [
          { msg: 'Could not load https://files.example/signed/p.jpg?sig=abc or data:image/jpeg;base64,/9j/4AAQ', type: 'image_load_error' },
        ],
      },
    });
    expect(quoted.message).toBe('fal answered 422 image_load_error: Could not load <link> or <data URI>');
  });

  it('a status query of an unknown request (404) is NotFound; a network failure is Network', async () => {
    stubFetch(() => ({ status: 404, body: { detail: 'Request not found' } }));
    await expect(provider().status('fal-ai/kling/requests/gone')).rejects.toMatchObject({ kind: ProviderErrorKind.NotFound });
    jest.restoreAllMocks();
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    await expect(provider().status('fal-ai/kling/requests/x')).rejects.toMatchObject({ kind: ProviderErrorKind.Network });
  });
});

describe('fal webhook verification (ED25519, keys from the JWKS URL)', () => {
  const falKey = generateKeyPairSync('ed25519');
  const otherKey = generateKeyPairSync('ed25519');
  const jwk = (k: KeyObject) => ({ ...k.export({ format: 'jwk' }), kid: 'k1', alg: 'EdDSA', use: 'sig' });
  const NOW = 1_800_000_000_000;
  const HOOK = '/api/webhooks/ai/fal?fr_app=fal-ai%2Fkling';

  const payload = (requestId = 'req-9') =>
    Buffer.from(
      JSON.stringify({
        request_id: requestId,
        gateway_request_id: requestId,
        status: 'OK',
        payload: { image: { url: 'https://cdn/r.jpg' } },
      }),
    );

  function call(body: Buffer, options: { key?: KeyObject; timestamp?: number; requestId?: string; userId?: string } = {}) {
    const requestId = options.requestId ?? 'req-9';
    const timestamp = String(options.timestamp ?? NOW / 1000);
    const userId = options.userId ?? 'user-1';
    const message = [requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
    return {
      'x-fal-webhook-request-id': requestId,
      'x-fal-webhook-user-id': userId,
      'x-fal-webhook-timestamp': timestamp,
      'x-fal-webhook-signature': sign(null, Buffer.from(message), options.key ?? falKey.privateKey).toString('hex'),
    };
  }

  let clock = NOW;
  let published: object[] = [];
  let jwksCalls: Call[] = [];
  beforeEach(() => {
    clock = NOW;
    published = [jwk(falKey.publicKey)];
    jwksCalls = stubFetch((c) => {
      expect(c.url).toBe(JWKS);
      return { body: { keys: published } };
    });
  });
  const hooked = () => provider({ now: () => clock });

  it('accepts a genuine call and reads its job id and status; the keys are fetched once and cached', async () => {
    const p = hooked();
    const body = payload();
    expect(await p.parseWebhook(call(body), body, HOOK)).toEqual({
      jobId: 'fal-ai/kling/requests/req-9',
      status: { state: 'completed', result: { url: 'https://cdn/r.jpg' } },
    });
    const video = payload('req-10');
    expect(
      (await p.parseWebhook(call(video, { requestId: 'req-10' }), video, '/api/webhooks/ai/fal?fr_app=fal-ai%2Fkling-video'))?.jobId,
    ).toBe('fal-ai/kling-video/requests/req-10');
    expect(jwksCalls).toHaveLength(1);
  });

  it('an ERROR delivery reads as failed (refused for the content checker)', async () => {
    const body = Buffer.from(
      JSON.stringify({
        request_id: 'req-9',
        status: 'ERROR',
        error: 'Invalid status code: 422',
        payload: { detail: [{ loc: ['body', 'human_image_url'], msg: 'flagged', type: 'content_policy_violation' }] },
      }),
    );
    expect(await hooked().parseWebhook(call(body), body, HOOK)).toEqual({
      jobId: 'fal-ai/kling/requests/req-9',
      status: { state: 'failed', refused: true, reason: "Refused by the vendor's content checker: flagged" },
    });
  });

  it('refuses forged calls: a changed body, another key, a changed header, missing headers', async () => {
    const p = hooked();
    const body = payload();
    const headers = call(body);
    const tampered = Buffer.from(body.toString().replace('https://cdn/r.jpg', 'https://evil/x.jpg'));
    expect(await p.parseWebhook(headers, tampered, HOOK)).toBeNull();
    expect(await p.parseWebhook(call(body, { key: otherKey.privateKey }), body, HOOK)).toBeNull();
    expect(await p.parseWebhook({ ...headers, 'x-fal-webhook-user-id': 'user-2' }, body, HOOK)).toBeNull();
    expect(await p.parseWebhook({ ...headers, 'x-fal-webhook-signature': 'ab'.repeat(64) }, body, HOOK)).toBeNull();
    expect(await p.parseWebhook({ ...headers, 'x-fal-webhook-signature': undefined }, body, HOOK)).toBeNull();
    expect(await p.parseWebhook({ ...headers, 'x-fal-webhook-request-id': ['req-9', 'req-9'] }, body, HOOK)).toBeNull();
  });

  it('refuses timestamps more than 5 minutes away, either way', async () => {
    const p = hooked();
    const body = payload();
    expect(await p.parseWebhook(call(body, { timestamp: NOW / 1000 - 299 }), body, HOOK)).not.toBeNull();
    expect(await p.parseWebhook(call(body, { timestamp: NOW / 1000 - 301 }), body, HOOK)).toBeNull();
    expect(await p.parseWebhook(call(body, { timestamp: NOW / 1000 + 301 }), body, HOOK)).toBeNull();
  });

  it('refuses an app id that is not a configured model’s, a request id that is not the signed one, a body that is not JSON', async () => {
    const p = hooked();
    const body = payload();
    expect(await p.parseWebhook(call(body), body, '/api/webhooks/ai/fal?fr_app=fal-ai%2Fflux')).toBeNull();
    expect(await p.parseWebhook(call(body), body, '/api/webhooks/ai/fal')).toBeNull();
    expect(await p.parseWebhook(call(body), body)).toBeNull();
    const other = payload('req-other');
    expect(await p.parseWebhook(call(other), other, HOOK)).toBeNull();
    const text = Buffer.from('not json');
    expect(await p.parseWebhook(call(text), text, HOOK)).toBeNull();
  });

  it('an unknown key refetches the keys at most once a minute; a rotated key is then accepted', async () => {
    const p = hooked();
    const body = payload();
    expect(await p.parseWebhook(call(body), body, HOOK)).not.toBeNull();
    expect(await p.parseWebhook(call(body, { key: otherKey.privateKey }), body, HOOK)).toBeNull();
    expect(jwksCalls).toHaveLength(1); // within the cooldown: no refetch

    published = [jwk(falKey.publicKey), jwk(otherKey.publicKey)];
    clock += 61_000;
    expect(await p.parseWebhook(call(body, { key: otherKey.privateKey, timestamp: clock / 1000 }), body, HOOK)).not.toBeNull();
    expect(jwksCalls).toHaveLength(2);
  });

  it('without webhooks, or when the keys cannot be fetched, every call is refused', async () => {
    const body = payload();
    expect(await hooked().parseWebhook(call(body), body, HOOK)).not.toBeNull();
    expect(await provider({ webhooks: false, now: () => clock }).parseWebhook(call(body), body, HOOK)).toBeNull();
    jest.restoreAllMocks();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('fetch failed'));
    expect(await hooked().parseWebhook(call(body), body, HOOK)).toBeNull();
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      `fal's webhook key set ${JWKS}: it could not be reached; no webhook call can be verified until it serves a key`,
    ]);
  });

  it('an empty key set, an error status or a body that is not JSON: one warning per fetch; the keys fetched before stay in use', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const p = hooked();
    const body = payload();
    expect(await p.parseWebhook(call(body), body, HOOK)).not.toBeNull(); // the genuine key, cached
    expect(warn).not.toHaveBeenCalled();

    // fal rotates to a key we have not seen, but the set it serves is empty: refused, said once, the old key kept
    published = [];
    clock += 61_000;
    const rotated = () => call(body, { key: otherKey.privateKey, timestamp: clock / 1000 });
    expect(await p.parseWebhook(rotated(), body, HOOK)).toBeNull();
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      `fal's webhook key set ${JWKS}: it holds no Ed25519 key; the 1 key(s) fetched before stay in use`,
    ]);
    expect(await p.parseWebhook(call(body, { timestamp: clock / 1000 }), body, HOOK)).not.toBeNull();

    jest.restoreAllMocks();
    const again = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    stubFetch(() => ({ status: 502, body: 'Bad Gateway' }));
    clock += 61_000;
    expect(await p.parseWebhook(rotated(), body, HOOK)).toBeNull();
    jest.restoreAllMocks();
    const third = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    stubFetch(() => ({ status: 200, body: '<html>' }));
    clock += 61_000;
    expect(await p.parseWebhook(rotated(), body, HOOK)).toBeNull();
    expect(again.mock.calls.map((c) => c[0])).toEqual([
      `fal's webhook key set ${JWKS}: it answered 502; the 1 key(s) fetched before stay in use`,
    ]);
    expect(third.mock.calls.map((c) => c[0])).toEqual([
      `fal's webhook key set ${JWKS}: its answer is not JSON; the 1 key(s) fetched before stay in use`,
    ]);
  });
});
