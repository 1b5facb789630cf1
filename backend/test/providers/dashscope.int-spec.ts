import sharp from 'sharp';
import { loadConfig } from '../../src/config/app-config';
import { NEGATIVE_PROMPT } from '../../src/modules/catalog';
import { ProviderErrorKind } from '../../src/modules/generations/providers/ai-provider';
import { createDashScopeProvider, DashScopeProvider } from '../../src/modules/generations/providers/dashscope.provider';
import { expectProviderError, inputJpeg, pollUntilDone as pollProvider, publishStartInputs, startInput as input } from './adapter-test-kit';
import { FakeDashScopeServer } from './fake-dashscope.server';

/**
 * The DashScope adapter against a local server that speaks Model Studio's asynchronous task
 * protocol: what it sends (endpoint, headers, documented body) and how it reads every answer.
 */
describe('DashScope adapter against a fake Model Studio', () => {
  const vendor = new FakeDashScopeServer();
  let provider: DashScopeProvider;

  const providerError = (promise: Promise<unknown>) => expectProviderError(promise, vendor.apiKey);
  const pollUntilDone = (jobId: string) => pollProvider(provider, jobId);

  beforeAll(async () => {
    await vendor.start();
    await publishStartInputs(vendor);
  });
  beforeEach(() => {
    vendor.reset();
    // Limits far above a stalled machine's pauses; the timeout tests make their own short ones.
    provider = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, startTimeoutMs: 10_000, statusTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await vendor.stop();
  });

  it('image: creates an async image-editing task with the documented body, polls PENDING/RUNNING, then answers the first result URL', async () => {
    vendor.nextPlan = { pollsBeforeDone: 3, outcome: { end: 'SUCCEEDED' } };
    const { jobId } = await provider.start(input());

    const submit = vendor.lastSubmit()!;
    expect(submit.path).toBe('/api/v1/services/aigc/image2image/image-synthesis');
    expect(submit.headers['x-dashscope-async']).toBe('enable');
    expect(submit.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(submit.headers['content-type']).toMatch(/^application\/json/);
    expect(submit.body).toEqual({
      model: 'wan2.5-i2i-preview',
      input: {
        prompt: expect.stringContaining('show the woman in a red linen summer dress on a sunny beach'),
        images: [
          'https://files.example/signed/person.jpg',
          'https://files.example/signed/garment.png',
          'https://files.example/signed/scene.jpg',
        ],
        // what Wan is told to avoid: nudity, see-through clothing, minors
        negative_prompt: NEGATIVE_PROMPT,
      },
      // 2953*4096 is above the documented 1280*1280 area: the largest allowed size at the same aspect ratio;
      // prompt_extend off: the vendor's prompt rewriting would drop our safety clause
      parameters: { size: '1086*1507', n: 1, watermark: false, prompt_extend: false },
    });
    expect((submit.body as { input: { prompt: string } }).input.prompt).toMatch(
      /image 1 is the person, image 2 is the outfit, image 3 is the scene/i,
    );
    expect(jobId).toBe([...vendor.tasks.keys()].at(-1));

    const { states, final } = await pollUntilDone(jobId);
    expect(states.slice(0, 3)).toEqual([
      { state: 'processing', detail: 'queued at the vendor' },
      { state: 'processing', detail: 'running at the vendor' },
      { state: 'processing', detail: 'running at the vendor' },
    ]);
    // the result link is as long as Model Studio's signed OSS links (a few hundred characters)
    expect(final).toEqual({ state: 'completed', result: { url: vendor.tasks.get(jobId)!.resultUrl } });
    expect((final as { result: { url: string } }).result.url.length).toBeGreaterThan(200);
    const polls = vendor.received.filter((r) => r.method === 'GET');
    expect(polls.map((r) => r.path)).toEqual(Array(4).fill(`/api/v1/tasks/${jobId}`));
    expect(polls.every((r) => r.headers.authorization === `Bearer ${vendor.apiKey}` && r.headers['x-dashscope-async'] === undefined)).toBe(
      true,
    );
  });

  it('image without a scene sends two images and says which is which', async () => {
    await provider.start(input({ scene: undefined }));
    const body = vendor.lastSubmit()!.body as { input: { images: string[]; prompt: string } };
    expect(body.input.images).toEqual(['https://files.example/signed/person.jpg', 'https://files.example/signed/garment.png']);
    expect(body.input.prompt).not.toMatch(/image 3/i);
  });

  it('video: creates an image-to-video task from the person photo (first frame) and answers output.video_url', async () => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'SUCCEEDED' } };
    const { jobId } = await provider.start(input({ type: 'video' }));
    const submit = vendor.lastSubmit()!;
    expect(submit.path).toBe('/api/v1/services/aigc/video-generation/video-synthesis');
    expect(submit.headers['x-dashscope-async']).toBe('enable');
    expect(submit.body).toEqual({
      model: 'wan2.6-i2v-flash',
      input: {
        prompt: 'show the woman in a red linen summer dress on a sunny beach',
        negative_prompt: NEGATIVE_PROMPT,
        img_url: 'https://files.example/signed/person.jpg',
      },
      // audio: Wan 2.6 adds a generated soundtrack (twice the price) unless told not to
      parameters: { resolution: '1080P', duration: 5, prompt_extend: false, audio: false },
    });
    expect(vendor.tasks.get(jobId)!.audio).toBe(false);
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({ state: 'completed', result: { url: vendor.tasks.get(jobId)!.resultUrl } });
    expect(vendor.tasks.get(jobId)!.resultUrl).toMatch(/\.mp4\?Expires=/);
  });

  it('aitryon (China region try-on model): person and garment fields, no prompt, output.image_url', async () => {
    vendor.region = 'china';
    provider = new DashScopeProvider({
      apiKey: vendor.apiKey,
      baseUrl: vendor.baseUrl,
      imageModel: 'aitryon-plus',
      statusTimeoutMs: 10_000,
    });
    vendor.nextPlan = { pollsBeforeDone: 0, outcome: { end: 'SUCCEEDED' } };
    const { jobId } = await provider.start(input());
    expect(vendor.lastSubmit()!.body).toEqual({
      model: 'aitryon-plus',
      input: { person_image_url: 'https://files.example/signed/person.jpg', top_garment_url: 'https://files.example/signed/garment.png' },
      parameters: { resolution: -1, restore_face: true },
    });
    expect(await provider.status(jobId)).toEqual({ state: 'completed', result: { url: vendor.tasks.get(jobId)!.resultUrl } });
  });

  it('the factory builds it from the environment: DASHSCOPE_* and the documented defaults', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://x@127.0.0.1:5432/x',
      FILES_SIGNING_SECRET: 'x'.repeat(40),
      AUTH_JWT_SECRET: 'y'.repeat(40),
      AI_PROVIDER: 'dashscope',
      DASHSCOPE_API_KEY: vendor.apiKey,
      DASHSCOPE_BASE_URL: `${vendor.baseUrl}/`,
    });
    expect(config.dashscope).toEqual({
      apiKey: vendor.apiKey,
      baseUrl: vendor.baseUrl,
      imageModel: 'wan2.5-i2i-preview',
      videoModel: 'wan2.6-i2v-flash',
      videoAudio: false,
    });
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1:5432/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
    expect(() => loadConfig({ ...base, AI_PROVIDER: 'dashscope' })).toThrow(/DASHSCOPE_API_KEY is required when AI_PROVIDER=dashscope/);
    expect(loadConfig({ ...base, DASHSCOPE_BASE_URL: 'https://dashscope.aliyuncs.com' }).dashscope?.baseUrl).toBe(
      'https://dashscope.aliyuncs.com',
    );
    expect(() => loadConfig({ ...base, DASHSCOPE_BASE_URL: 'dashscope.aliyuncs.com' })).toThrow(/DASHSCOPE_BASE_URL/);
    const fromConfig = createDashScopeProvider(config);
    expect(fromConfig.supportsWebhooks).toBe(false);
    const { jobId } = await fromConfig.start(input());
    expect(vendor.tasks.has(jobId)).toBe(true);
  });

  describe('model settings, per region', () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1:5432/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
    const BEIJING = 'https://dashscope.aliyuncs.com';

    it('start-up refuses a model the adapter cannot call, listing the ones it can', () => {
      expect(() => loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'wan2.6-image' })).toThrow(
        /DASHSCOPE_IMAGE_MODEL must be one of wan2\.5-i2i-preview, aitryon, aitryon-plus/,
      );
      expect(() => loadConfig({ ...base, DASHSCOPE_VIDEO_MODEL: 'wan2.7-i2v' })).toThrow(
        /DASHSCOPE_VIDEO_MODEL must be one of wan2\.6-i2v-flash, wan2\.6-i2v, wan2\.5-i2v-preview/,
      );
      expect(loadConfig({ ...base, DASHSCOPE_VIDEO_MODEL: 'wan2.2-i2v-flash' }).dashscope.videoModel).toBe('wan2.2-i2v-flash');
    });

    it('aitryon* only with the Beijing endpoint (shared or workspace); Singapore, Virginia and the default are refused', () => {
      const refused =
        /DASHSCOPE_IMAGE_MODEL aitryon-plus is offered only in the China \(Beijing\) region: set DASHSCOPE_BASE_URL=https:\/\/dashscope\.aliyuncs\.com/;
      expect(() => loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'aitryon-plus' })).toThrow(refused);
      expect(() =>
        loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'aitryon-plus', DASHSCOPE_BASE_URL: 'https://dashscope-intl.aliyuncs.com' }),
      ).toThrow(refused);
      expect(() =>
        loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'aitryon', DASHSCOPE_BASE_URL: 'https://dashscope-us.aliyuncs.com' }),
      ).toThrow(/only in the China \(Beijing\) region/);
      expect(loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'aitryon-plus', DASHSCOPE_BASE_URL: BEIJING }).dashscope.imageModel).toBe(
        'aitryon-plus',
      );
      const workspace = 'https://ws-1a2b3c.cn-beijing.maas.aliyuncs.com';
      expect(loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'aitryon', DASHSCOPE_BASE_URL: workspace }).dashscope.imageModel).toBe('aitryon');
      // Wan image editing is offered in both
      expect(loadConfig({ ...base, DASHSCOPE_IMAGE_MODEL: 'wan2.5-i2i-preview', DASHSCOPE_BASE_URL: BEIJING }).dashscope.imageModel).toBe(
        'wan2.5-i2i-preview',
      );
    });

    it('the Singapore endpoint has no aitryon: the fake answers as Model Studio does, and the start is refused for good', async () => {
      const tryon = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, imageModel: 'aitryon-plus' });
      const tasks = vendor.tasks.size;
      const error = await providerError(tryon.start(input()));
      expect(error).toMatchObject({ kind: ProviderErrorKind.Rejected, options: { status: 400, vendorCode: 'InvalidParameter' } });
      expect(error.message).toContain('Model not exist.');
      expect(vendor.tasks.size).toBe(tasks);
    });

    it.each([
      ['wan2.6-i2v-flash', '1080P'],
      ['wan2.6-i2v', '1080P'],
      ['wan2.5-i2v-preview', '1080P'],
      ['wan2.2-i2v-plus', '1080P'],
      ['wan2.2-i2v-flash', '720P'],
      ['wan2.1-i2v-plus', '720P'],
      ['wan2.1-i2v-turbo', '720P'],
    ])(
      'video model %s is sent %s for the product size, and the fake (holding each model to its tiers) takes it',
      async (videoModel, tier) => {
        const p = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, videoModel });
        const { jobId } = await p.start(input({ type: 'video' }));
        expect((vendor.lastSubmit()!.body as { parameters: { resolution: string } }).parameters.resolution).toBe(tier);
        expect(vendor.tasks.get(jobId)!.model).toBe(videoModel);
      },
    );

    it('the fake refuses a tier the model does not have (what the adapter no longer sends)', async () => {
      const res = await fetch(`${vendor.baseUrl}/api/v1/services/aigc/video-generation/video-synthesis`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${vendor.apiKey}`, 'X-DashScope-Async': 'enable', 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: 'wan2.2-i2v-flash',
          input: { prompt: 'p', img_url: 'https://files.example/signed/person.jpg' },
          parameters: { resolution: '1080P', duration: 5 },
        }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'InvalidParameter', message: expect.stringContaining('480P, 720P') });
    });
  });

  it('a task that FAILED is a failed generation with the vendor code and message, not a refusal', async () => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'FAILED', code: 'InternalError.Algo', message: 'Algorithm process error.' } };
    const { jobId } = await provider.start(input());
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({ state: 'failed', reason: 'The vendor failed the task (InternalError.Algo: Algorithm process error.)' });
  });

  it('DataInspectionFailed on the task (output moderation) is a refused failure', async () => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'DataInspectionFailed' } };
    const { jobId } = await provider.start(input());
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({
      state: 'failed',
      refused: true,
      reason: "Refused by the vendor's content moderation: Output data may contain inappropriate content.",
    });
  });

  it('DataInspectionFailed at submit (input moderation) throws Rejected, refused, not retryable', async () => {
    vendor.submitOverrides.push({
      status: 400,
      body: { request_id: 'r1', code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' },
    });
    const error = await providerError(provider.start(input()));
    expect(error.kind).toBe(ProviderErrorKind.Rejected);
    expect(error.options).toMatchObject({ status: 400, vendorCode: 'DataInspectionFailed', refused: true });
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('Input data may contain inappropriate content.');
  });

  it('an invalid parameter (400 InvalidParameter) throws Rejected, not refused', async () => {
    // the fake checks the documented size range, as the vendor does: an unusable size would be refused like this
    vendor.submitOverrides.push({
      status: 400,
      body: { request_id: 'r0', code: 'InvalidParameter', message: 'parameters.size is invalid' },
    });
    const error = await providerError(provider.start(input()));
    expect(error.kind).toBe(ProviderErrorKind.Rejected);
    expect(error.options.vendorCode).toBe('InvalidParameter');
    expect(error.options.refused).toBeUndefined();
  });

  it('429 Throttling with Retry-After throws RateLimited carrying the delay; retryable', async () => {
    vendor.submitOverrides.push({
      status: 429,
      headers: { 'Retry-After': '7' },
      body: { request_id: 'r2', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' },
    });
    const error = await providerError(provider.start(input()));
    expect(error.kind).toBe(ProviderErrorKind.RateLimited);
    expect(error.options).toMatchObject({ status: 429, vendorCode: 'Throttling.RateQuota', retryAfterMs: 7000 });
    expect(error.retryable).toBe(true);

    vendor.statusOverrides.push({ status: 429, body: { request_id: 'r3', code: 'Throttling', message: 'too many' } });
    const pollError = await providerError(provider.status('any-task'));
    expect(pollError.kind).toBe(ProviderErrorKind.RateLimited);
    expect(pollError.options.retryAfterMs).toBeUndefined();
  });

  it('a wrong key (401 InvalidApiKey) throws Unauthorized without echoing the key', async () => {
    const wrong = new DashScopeProvider({ apiKey: 'sk-wrong-key-000000', baseUrl: vendor.baseUrl });
    const error = await providerError(wrong.start(input()));
    expect(error.kind).toBe(ProviderErrorKind.Unauthorized);
    expect(error.options).toMatchObject({ status: 401, vendorCode: 'InvalidApiKey' });
    expect(error.retryable).toBe(false);
    // the fake echoes the presented key in its message, as some vendors do: it must not reach our logs
    expect(error.message).not.toContain('sk-wrong-key-000000');
    expect(error.message).toContain('***');
  });

  it('5xx throws BadResponse (retryable), with or without a JSON body', async () => {
    vendor.submitOverrides.push({
      status: 500,
      body: { request_id: 'r4', code: 'InternalError', message: 'An internal error has occured, please try again later.' },
    });
    const submitError = await providerError(provider.start(input()));
    expect(submitError.kind).toBe(ProviderErrorKind.BadResponse);
    expect(submitError.options).toMatchObject({ status: 500, vendorCode: 'InternalError' });
    expect(submitError.retryable).toBe(true);

    vendor.statusOverrides.push({ status: 503, raw: '<html>Service Unavailable</html>', headers: { 'Content-Type': 'text/html' } });
    const pollError = await providerError(provider.status('any-task'));
    expect(pollError.kind).toBe(ProviderErrorKind.BadResponse);
    expect(pollError.options.status).toBe(503);
  });

  it('a slow status answer (longer than the 15 s timeout, 300 ms here) throws Timeout; retryable', async () => {
    provider = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, statusTimeoutMs: 300 });
    vendor.statusOverrides.push({ delayMs: 3000, body: { request_id: 'r5', output: { task_id: 't', task_status: 'RUNNING' } } });
    const started = Date.now();
    const error = await providerError(provider.status('slow-task'));
    expect(error.kind).toBe(ProviderErrorKind.Timeout);
    expect(error.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(2500); // cut by the limit, not by the answer at 3 s
  });

  it("a slow submit is cut by the caller's signal (the pipeline's 30 s start timeout)", async () => {
    provider = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, startTimeoutMs: 10_000 });
    vendor.submitOverrides.push({ delayMs: 3000, body: { request_id: 'r6', output: { task_id: 'late', task_status: 'PENDING' } } });
    const started = Date.now();
    const error = await providerError(provider.start(input({ signal: AbortSignal.timeout(200) })));
    expect(error.kind).toBe(ProviderErrorKind.Timeout);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('malformed JSON or an unexpected shape throws BadResponse, never crashes', async () => {
    vendor.submitOverrides.push({ raw: '{"output": {"task_id": ' });
    expect((await providerError(provider.start(input()))).kind).toBe(ProviderErrorKind.BadResponse);

    vendor.submitOverrides.push({ body: { request_id: 'r7', output: { task_status: 'PENDING' } } });
    expect((await providerError(provider.start(input()))).kind).toBe(ProviderErrorKind.BadResponse);

    vendor.statusOverrides.push({ raw: 'not json at all' });
    expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);

    vendor.statusOverrides.push({ body: { request_id: 'r8', output: { task_id: 'x', task_status: 'EXPLODED' } } });
    expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);

    vendor.statusOverrides.push({ body: { request_id: 'r9', output: { task_id: 'x', task_status: 'SUCCEEDED', results: [] } } });
    expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);

    vendor.statusOverrides.push({ body: [1, 2, 3] });
    expect((await providerError(provider.status('x'))).kind).toBe(ProviderErrorKind.BadResponse);
  });

  it('an expired or unknown task (task_status UNKNOWN) throws NotFound; not retryable', async () => {
    vendor.nextPlan = { pollsBeforeDone: 5, outcome: { end: 'SUCCEEDED' } };
    const { jobId } = await provider.start(input());
    expect((await provider.status(jobId)).state).toBe('processing');
    vendor.expire(jobId);
    const error = await providerError(provider.status(jobId));
    expect(error.kind).toBe(ProviderErrorKind.NotFound);
    expect(error.options.vendorCode).toBe('UNKNOWN');
    expect(error.retryable).toBe(false);

    vendor.statusOverrides.push({ status: 404, body: { request_id: 'r10', code: 'NotFound', message: 'Not found' } });
    expect((await providerError(provider.status('gone'))).kind).toBe(ProviderErrorKind.NotFound);
  });

  it('cancel: a queued task is cancelled through the task cancel endpoint and then reads as failed; a running one cannot be', async () => {
    const { jobId } = await provider.start(input());
    await provider.cancel(jobId);
    const cancelCall = vendor.received.at(-1)!;
    expect(cancelCall).toMatchObject({ method: 'POST', path: `/api/v1/tasks/${jobId}/cancel` });
    expect(cancelCall.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
    expect(await provider.status(jobId)).toEqual({ state: 'failed', reason: 'The task was cancelled at the vendor' });

    const running = await provider.start(input());
    await provider.status(running.jobId);
    const error = await providerError(provider.cancel(running.jobId));
    expect(error.kind).toBe(ProviderErrorKind.Rejected);
    expect(error.options.vendorCode).toBe('UnsupportedOperation');
  });

  it('a task cancelled at the vendor (CANCELED) is a failed generation', async () => {
    vendor.nextPlan = { pollsBeforeDone: 1, outcome: { end: 'CANCELED' } };
    const { jobId } = await provider.start(input());
    const { final } = await pollUntilDone(jobId);
    expect(final).toEqual({ state: 'failed', reason: 'The task was cancelled at the vendor' });
  });

  it('an unreachable endpoint throws Network; retryable', async () => {
    const closed = new FakeDashScopeServer();
    await closed.start();
    const url = closed.baseUrl;
    await closed.stop();
    const offline = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: url, statusTimeoutMs: 2000 });
    const error = await providerError(offline.status('x'));
    expect(error.kind).toBe(ProviderErrorKind.Network);
    expect(error.retryable).toBe(true);
  });

  describe('input images, held to the documented limits', () => {
    const dataUri = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;

    it('its input spec per model: Wan image editing 384..2000 px, Wan first frame 360..2000 px, both base64; aitryon links only', () => {
      expect(provider.inputSpec('image')).toEqual({ minSide: 384, maxSide: 2000, acceptsDataUri: true });
      expect(provider.inputSpec('video')).toEqual({ minSide: 360, maxSide: 2000, acceptsDataUri: true });
      const tryon = new DashScopeProvider({ apiKey: vendor.apiKey, imageModel: 'aitryon-plus' });
      expect(tryon.inputSpec('image')).toEqual({ minSide: 150, maxSide: 2000, acceptsDataUri: false });
    });

    it('a PNG with an alpha channel is refused by Wan (InvalidParameter.DataInspection): Rejected, and not a moderation refusal', async () => {
      const png = await sharp({ create: { width: 768, height: 1024, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer();
      vendor.publish('https://files.example/signed/garment-alpha.png', png, 'image/png');
      const tasksBefore = vendor.tasks.size;
      const error = await providerError(provider.start(input({ garment: { url: 'https://files.example/signed/garment-alpha.png' } })));
      expect(error.kind).toBe(ProviderErrorKind.Rejected);
      expect(error.options).toMatchObject({ status: 400, vendorCode: 'InvalidParameter.DataInspection' });
      expect(error.options.refused).toBeUndefined();
      expect(vendor.tasks.size).toBe(tasksBefore);
    });

    it('a first frame over 2000 px is refused (InvalidParameter); the same picture fitted to 2000 px starts', async () => {
      const big = await inputJpeg(1536, 2048);
      vendor.publish('https://files.example/signed/big.jpg', big);
      const error = await providerError(provider.start(input({ type: 'video', person: { url: 'https://files.example/signed/big.jpg' } })));
      expect(error.options).toMatchObject({ status: 400, vendorCode: 'InvalidParameter' });
      expect(error.message).toMatch(/\[360, 2000\]/);

      const fitted = await sharp(big).resize(1500, 2000).jpeg().toBuffer();
      const { jobId } = await provider.start(input({ type: 'video', person: { url: dataUri(fitted) } }));
      expect(vendor.tasks.has(jobId)).toBe(true);
      expect(vendor.images.at(-1)).toMatchObject({ field: 'img_url', via: 'data-uri', format: 'jpeg', width: 1500, height: 2000 });
    });

    it('links it cannot download (a private address, a missing file) are refused; base64 is taken by Wan, not by aitryon', async () => {
      const unreachable = await providerError(provider.start(input({ person: { url: 'http://127.0.0.1:3000/api/files/x.jpg' } })));
      expect(unreachable.options).toMatchObject({ status: 400, vendorCode: 'InvalidParameter.DataInspection' });
      expect(vendor.fetched).not.toContain('http://127.0.0.1:3000/api/files/x.jpg');
      const missing = await providerError(provider.start(input({ person: { url: 'https://files.example/signed/nothing.jpg' } })));
      expect(missing.options.vendorCode).toBe('InvalidParameter.DataInspection');

      const person = dataUri(await inputJpeg(800, 1000));
      await provider.start(input({ person: { url: person } }));
      expect(vendor.images.filter((i) => i.via === 'data-uri').map((i) => i.field)).toEqual(['images[0]']);

      vendor.region = 'china';
      const tryon = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, imageModel: 'aitryon-plus' });
      const error = await providerError(tryon.start(input({ person: { url: person } })));
      expect(error.options).toMatchObject({ status: 400, vendorCode: 'InvalidURL' });
    });

    it('DASHSCOPE_VIDEO_AUDIO=true asks for the soundtrack; models before Wan 2.5 are sent no audio parameter', async () => {
      const base = { DATABASE_URL: 'postgres://x@127.0.0.1:5432/x', FILES_SIGNING_SECRET: 'x'.repeat(40), AUTH_JWT_SECRET: 'y'.repeat(40) };
      const config = loadConfig({ ...base, AI_PROVIDER: 'dashscope', DASHSCOPE_API_KEY: vendor.apiKey, DASHSCOPE_VIDEO_AUDIO: 'true' });
      expect(config.dashscope.videoAudio).toBe(true);
      const loud = createDashScopeProvider(config, { baseUrl: vendor.baseUrl });
      const { jobId } = await loud.start(input({ type: 'video' }));
      expect((vendor.lastSubmit()!.body as { parameters: Record<string, unknown> }).parameters.audio).toBe(true);
      expect(vendor.tasks.get(jobId)!.audio).toBe(true);

      const old = new DashScopeProvider({ apiKey: vendor.apiKey, baseUrl: vendor.baseUrl, videoModel: 'wan2.1-i2v-turbo' });
      await old.start(input({ type: 'video' }));
      expect(vendor.lastSubmit()!.body).toMatchObject({ parameters: expect.not.objectContaining({ audio: expect.anything() }) });
      expect(() => loadConfig({ ...base, DASHSCOPE_VIDEO_AUDIO: 'loud' })).toThrow(/DASHSCOPE_VIDEO_AUDIO/);
    });
  });
});
