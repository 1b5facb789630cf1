import fc from 'fast-check';
import { ProviderError, ProviderErrorKind } from './ai-provider';
import {
  DASHSCOPE_VIDEO_MODELS,
  dashScopeImageModelProblem,
  dashScopeRegion,
  dashScopeVideoModelProblem,
  fitImageEditSize,
  IMAGE_EDIT_SIZE_LIMITS,
  imageModelFamily,
  parseSize,
  videoResolutionFor,
  videoResolutionTier,
} from './dashscope.config';
import { createDashScopeProvider, DashScopeProvider, parseRetryAfter, taskToStatus } from './dashscope.provider';

const task = (output: Record<string, unknown>) => ({ request_id: 'r', output: { task_id: 't', ...output } });

describe('DashScope request rules', () => {
  it("fits the product's 2953*4096 into wan2.5-i2i-preview's documented range, keeping the aspect ratio", () => {
    expect(fitImageEditSize('2953*4096')).toBe('1086*1507');
    expect(fitImageEditSize('1024*1024')).toBe('1024*1024'); // already allowed: unchanged
    expect(fitImageEditSize('300*300')).toBe('768*768'); // too small: scaled up to the minimum area
    expect(fitImageEditSize('10000*100')).toBe('2000*500'); // 100:1 clamped to 4:1, same area (1 MP is allowed)
    expect(fitImageEditSize('not a size')).toBeUndefined();
    expect(parseSize('2953x4096')).toEqual({ width: 2953, height: 4096 });
    expect(parseSize('0*10')).toBeNull();
  });

  it('every fitted size is inside the documented limits and keeps the requested aspect ratio (when allowed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 20000 }), fc.integer({ min: 16, max: 20000 }), (w, h) => {
        const fitted = parseSize(fitImageEditSize(`${w}*${h}`)!)!;
        const area = fitted.width * fitted.height;
        const ratio = fitted.width / fitted.height;
        expect(area).toBeGreaterThanOrEqual(IMAGE_EDIT_SIZE_LIMITS.minPixels);
        expect(area).toBeLessThanOrEqual(IMAGE_EDIT_SIZE_LIMITS.maxPixels);
        expect(ratio).toBeGreaterThanOrEqual(IMAGE_EDIT_SIZE_LIMITS.minRatio - 0.01);
        expect(ratio).toBeLessThanOrEqual(IMAGE_EDIT_SIZE_LIMITS.maxRatio + 0.01);
        const wanted = Math.min(4, Math.max(1 / 4, w / h));
        expect(Math.abs(Math.log(ratio / wanted))).toBeLessThan(0.01);
      }),
      { numRuns: 500 },
    );
  });

  it('chooses the try-on protocol for aitryon models only, and the video tier closest to the requested size', () => {
    expect(imageModelFamily('aitryon')).toBe('tryon');
    expect(imageModelFamily('aitryon-plus')).toBe('tryon');
    expect(imageModelFamily('wan2.5-i2i-preview')).toBe('image-edit');
    expect(videoResolutionTier('2953*4096')).toBe('1080P');
    expect(videoResolutionTier('720*1280')).toBe('720P');
    expect(videoResolutionTier('480*640')).toBe('480P');
  });

  it('the region of a base URL: shared and workspace endpoints; any other host (a proxy, a fake) has none', () => {
    expect(dashScopeRegion('https://dashscope.aliyuncs.com')).toBe('china');
    expect(dashScopeRegion('https://ws-9f8e.cn-beijing.maas.aliyuncs.com/')).toBe('china');
    expect(dashScopeRegion('https://dashscope-intl.aliyuncs.com')).toBe('international');
    expect(dashScopeRegion('https://ws-9f8e.ap-southeast-1.maas.aliyuncs.com')).toBe('international');
    expect(dashScopeRegion('https://dashscope-us.aliyuncs.com')).toBe('us');
    expect(dashScopeRegion('http://127.0.0.1:4000')).toBeUndefined();
    expect(dashScopeRegion('https://dashscope.aliyuncs.com.evil.example')).toBeUndefined();
    expect(dashScopeRegion('not a url')).toBeUndefined();
  });

  it('model settings: known models only; aitryon* only in Beijing, with a message that says how', () => {
    expect(dashScopeImageModelProblem('wan2.5-i2i-preview', 'https://dashscope-intl.aliyuncs.com')).toBeUndefined();
    expect(dashScopeImageModelProblem('aitryon-plus', 'https://dashscope.aliyuncs.com')).toBeUndefined();
    expect(dashScopeImageModelProblem('aitryon-plus', 'https://dashscope-intl.aliyuncs.com')).toMatch(
      /offered only in the China \(Beijing\) region: set DASHSCOPE_BASE_URL=https:\/\/dashscope\.aliyuncs\.com/,
    );
    expect(dashScopeImageModelProblem('aitryon', 'http://127.0.0.1:4000')).toMatch(/only in the China \(Beijing\) region/);
    expect(dashScopeImageModelProblem('wanx2.1-imageedit', 'https://dashscope.aliyuncs.com')).toBe(
      'must be one of wan2.5-i2i-preview, aitryon, aitryon-plus',
    );
    expect(dashScopeVideoModelProblem('wan2.6-i2v-flash')).toBeUndefined();
    expect(dashScopeVideoModelProblem('wan2.7-i2v')).toMatch(/^must be one of wan2\.6-i2v-flash/);
  });

  it('each video model is sent the largest tier it documents up to the requested one, else its smallest', () => {
    expect(videoResolutionFor('wan2.6-i2v-flash', '2953*4096')).toBe('1080P');
    expect(videoResolutionFor('wan2.6-i2v-flash', '480*640')).toBe('720P'); // no 480P: its smallest
    expect(videoResolutionFor('wan2.2-i2v-flash', '2953*4096')).toBe('720P');
    expect(videoResolutionFor('wan2.2-i2v-plus', '720*1280')).toBe('480P'); // 480P or 1080P: not above 720P
    expect(videoResolutionFor('wan2.1-i2v-plus', '480*640')).toBe('720P');
    expect(videoResolutionFor('unknown-model', '720*1280')).toBe('720P');
    for (const [model, { resolutions }] of Object.entries(DASHSCOPE_VIDEO_MODELS)) {
      for (const size of ['2953*4096', '720*1280', '480*640', 'nonsense']) expect(resolutions).toContain(videoResolutionFor(model, size));
    }
  });

  it('the video request carries the tier of the configured model', () => {
    const p = new DashScopeProvider({ apiKey: 'k', videoModel: 'wan2.2-i2v-flash' });
    const { body } = p.buildStartRequest({
      generationId: 'g',
      type: 'video',
      prompt: 'p',
      size: '2953*4096',
      person: { url: 'https://f/p.jpg' },
      garment: { url: 'https://f/g.png' },
      templateId: 't',
      sceneId: 's',
    });
    expect(body.parameters).toMatchObject({ resolution: '720P', duration: 5 });
  });
});

describe('DashScope task status mapping', () => {
  it('PENDING and RUNNING are processing; SUCCEEDED answers the first result URL of any documented field', () => {
    expect(taskToStatus(task({ task_status: 'PENDING' }))).toEqual({ state: 'processing', detail: 'queued at the vendor' });
    expect(taskToStatus(task({ task_status: 'RUNNING' }))).toEqual({ state: 'processing', detail: 'running at the vendor' });
    expect(taskToStatus(task({ task_status: 'SUCCEEDED', results: [{ url: 'https://a/1.png' }, { url: 'https://a/2.png' }] }))).toEqual({
      state: 'completed',
      result: { url: 'https://a/1.png' },
    });
    expect(taskToStatus(task({ task_status: 'SUCCEEDED', image_url: 'https://a/tryon.jpg' }))).toEqual({
      state: 'completed',
      result: { url: 'https://a/tryon.jpg' },
    });
    expect(taskToStatus(task({ task_status: 'SUCCEEDED', video_url: 'https://a/v.mp4' }))).toEqual({
      state: 'completed',
      result: { url: 'https://a/v.mp4' },
    });
  });

  it('a succeeded task whose only sub-task failed moderation is a refusal', () => {
    expect(
      taskToStatus(
        task({
          task_status: 'SUCCEEDED',
          results: [{ code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' }],
        }),
      ),
    ).toEqual({
      state: 'failed',
      refused: true,
      reason: "Refused by the vendor's content moderation: Output data may contain inappropriate content.",
    });
  });

  it('FAILED maps the code; UNKNOWN throws NotFound; anything else throws BadResponse', () => {
    expect(taskToStatus(task({ task_status: 'FAILED', code: 'data_inspection_failed', message: 'x' }))).toMatchObject({
      state: 'failed',
      refused: true,
    });
    expect(taskToStatus(task({ task_status: 'FAILED' }))).toEqual({ state: 'failed', reason: 'The vendor failed the task' });
    expect(() => taskToStatus(task({ task_status: 'UNKNOWN' }))).toThrow(expect.objectContaining({ kind: ProviderErrorKind.NotFound }));
    for (const body of [
      null,
      'text',
      {},
      { output: null },
      task({ task_status: 'DONE' }),
      task({ task_status: 'SUCCEEDED', results: [{ url: 'ftp://x' }] }),
    ]) {
      expect(() => taskToStatus(body)).toThrow(ProviderError);
      expect(() => taskToStatus(body)).toThrow(expect.objectContaining({ kind: ProviderErrorKind.BadResponse }));
    }
  });

  it('redacts and truncates vendor messages', () => {
    const status = taskToStatus(task({ task_status: 'FAILED', code: 'X', message: `key sk-secret leaked ${'a'.repeat(500)}` }), (t) =>
      t.split('sk-secret').join('***'),
    );
    expect(status).toMatchObject({ state: 'failed' });
    const reason = (status as { reason: string }).reason;
    expect(reason).not.toContain('sk-secret');
    expect(reason.length).toBeLessThan(400);
  });
});

describe('DashScope provider construction', () => {
  it('refuses to exist without a key, with a message naming the variable', () => {
    expect(() => new DashScopeProvider({ apiKey: '' })).toThrow(/DASHSCOPE_API_KEY/);
    expect(() =>
      createDashScopeProvider({ dashscope: { baseUrl: 'https://x', imageModel: 'm', videoModel: 'v', videoAudio: false } }),
    ).toThrow(/DASHSCOPE_API_KEY is required when AI_PROVIDER=dashscope/);
    const p = createDashScopeProvider({
      dashscope: { apiKey: 'k', baseUrl: 'https://x', imageModel: 'm', videoModel: 'v', videoAudio: false },
    });
    expect(p.name).toBe('dashscope');
    expect(p.supportsWebhooks).toBe(false);
    expect('parseWebhook' in p).toBe(false);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
  });
});
