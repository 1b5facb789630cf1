import { ProviderErrorKind, ProviderStartInput } from './ai-provider';
import { fashnWebhookBodyLimit } from './fashn.config';
import {
  createFashnProvider,
  FashnProvider,
  fashnWebhookToken,
  predictionToStatus,
  tryonMaxFraming,
  videoResolution,
} from './fashn.provider';

const SECRET = 'unit-test-webhook-secret-0123456789abcdef';

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

describe('FASHN status mapping', () => {
  it('starting, in_queue and processing are processing; completed answers the first output', () => {
    expect(predictionToStatus({ id: 'a', status: 'starting' })).toEqual({ state: 'processing', detail: 'starting at the vendor' });
    expect(predictionToStatus({ id: 'a', status: 'in_queue' })).toEqual({ state: 'processing', detail: 'queued at the vendor' });
    expect(predictionToStatus({ id: 'a', status: 'processing' })).toEqual({ state: 'processing', detail: 'running at the vendor' });
    expect(predictionToStatus({ id: 'a', status: 'completed', output: ['https://cdn/1.png', 'https://cdn/2.png'], error: null })).toEqual({
      state: 'completed',
      result: { url: 'https://cdn/1.png' },
    });
  });

  it('a base64 output (return_base64) becomes the bytes themselves', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const status = predictionToStatus({ id: 'a', status: 'completed', output: [`data:image/png;base64,${png.toString('base64')}`] });
    expect(status).toEqual({ state: 'completed', result: { buffer: png, contentType: 'image/png' } });
  });

  it('moderation errors are refusals; other runtime errors, cancel and vendor time-out are plain failures', () => {
    expect(predictionToStatus({ id: 'a', status: 'failed', error: { name: 'ContentModerationError', message: 'm' } })).toEqual({
      state: 'failed',
      refused: true,
      reason: "Refused by the vendor's content moderation: m",
    });
    expect(predictionToStatus({ id: 'a', status: 'failed', error: { name: 'PhotoTypeError', message: 'not a photo' } })).toEqual({
      state: 'failed',
      reason: 'The vendor failed the prediction (PhotoTypeError: not a photo)',
    });
    expect(predictionToStatus({ id: 'a', status: 'failed', error: null })).toEqual({
      state: 'failed',
      reason: 'The vendor failed the prediction',
    });
    expect(predictionToStatus({ id: 'a', status: 'canceled' })).toMatchObject({ state: 'failed' });
    expect(predictionToStatus({ id: 'a', status: 'time_out' })).toMatchObject({ state: 'failed' });
  });

  it('anything else is a BadResponse', () => {
    for (const body of [
      null,
      [],
      'x',
      { status: 'done' },
      { status: 'completed', output: null },
      { status: 'completed', output: ['ftp://x'] },
    ]) {
      expect(() => predictionToStatus(body)).toThrow(expect.objectContaining({ kind: ProviderErrorKind.BadResponse }));
    }
  });
});

describe('FASHN request building', () => {
  it('Try-On Max framing: the documented ratio nearest the requested size and the tier of its long side', () => {
    expect(tryonMaxFraming('2953*4096')).toEqual({ aspect_ratio: '3:4', resolution: '4k' });
    expect(tryonMaxFraming('1920*1080')).toEqual({ aspect_ratio: '16:9', resolution: '2k' });
    expect(tryonMaxFraming('800*800')).toEqual({ aspect_ratio: '1:1', resolution: '1k' });
    expect(tryonMaxFraming('nonsense')).toEqual({});
    expect(videoResolution('2953*4096')).toBe('1080p');
    expect(videoResolution('720*1280')).toBe('720p');
    expect(videoResolution('nonsense')).toBe('1080p');
  });

  it('every try-on asks for its result as base64 JPEG (return_base64: nothing kept on the CDN); the video cannot', () => {
    for (const imageModel of ['tryon-v1.6', 'tryon-max']) {
      expect(new FashnProvider({ apiKey: 'k', imageModel }).buildRunBody(input()).inputs).toMatchObject({
        return_base64: true,
        output_format: 'jpeg',
      });
    }
    expect(new FashnProvider({ apiKey: 'k' }).buildRunBody(input({ type: 'video' })).inputs).not.toHaveProperty('return_base64');
  });

  it('its webhook body limit fits a base64 JPEG of the largest output, with margin: v1.6 864x1296, Try-On Max 4K', () => {
    const v16 = new FashnProvider({ apiKey: 'k' }).webhookBodyLimitBytes;
    const max = new FashnProvider({ apiKey: 'k', imageModel: 'tryon-max' }).webhookBodyLimitBytes;
    // a byte per pixel as base64 (4/3) is under the limit; the limit stays far from unbounded
    expect(v16).toBeGreaterThan(((864 * 1296 * 4) / 3) | 0);
    expect(v16).toBeLessThan(4 * 1024 * 1024);
    expect(max).toBeGreaterThan(((4096 * 4096 * 4) / 3) | 0);
    expect(max).toBeLessThan(32 * 1024 * 1024);
    expect(fashnWebhookBodyLimit('tryon-max')).toBe(max);
  });

  it('webhookUrlIsGenuine: only a URL with the genuine token of its generation (and never without a secret)', () => {
    const p = new FashnProvider({ apiKey: 'k', webhookSecret: SECRET });
    const token = fashnWebhookToken(SECRET, 'gen-7');
    expect(p.webhookUrlIsGenuine(`/api/webhooks/ai/fashn?fr_generation=gen-7&fr_token=${token}`)).toBe(true);
    expect(p.webhookUrlIsGenuine(`/api/webhooks/ai/fashn?fr_generation=gen-8&fr_token=${token}`)).toBe(false);
    expect(p.webhookUrlIsGenuine('/api/webhooks/ai/fashn?fr_generation=gen-7')).toBe(false);
    expect(p.webhookUrlIsGenuine('/api/webhooks/ai/fashn')).toBe(false);
    expect(new FashnProvider({ apiKey: 'k' }).webhookUrlIsGenuine(`/x?fr_generation=gen-7&fr_token=${token}`)).toBe(false);
  });

  it('webhooks only with a secret and a pipeline URL; the URL keeps its own query and gains the token', () => {
    const off = new FashnProvider({ apiKey: 'k' });
    expect(off.supportsWebhooks).toBe(false);
    expect(off.webhookUrlFor(input({ webhookUrl: 'https://app.example/api/webhooks/fashn' }))).toBeUndefined();
    expect(off.parseWebhook({}, Buffer.from('{}'), '/x?fr_generation=gen-7&fr_token=x')).toBeNull();

    const on = new FashnProvider({ apiKey: 'k', webhookSecret: SECRET });
    expect(on.webhookUrlFor(input())).toBeUndefined();
    const url = new URL(on.webhookUrlFor(input({ webhookUrl: 'https://app.example/api/webhooks/fashn?provider=fashn' }))!);
    expect(url.searchParams.get('provider')).toBe('fashn');
    expect(url.searchParams.get('fr_generation')).toBe('gen-7');
    expect(url.searchParams.get('fr_token')).toBe(fashnWebhookToken(SECRET, 'gen-7'));
  });

  it('the token is per generation and per secret, and not the secret itself', () => {
    const a = fashnWebhookToken(SECRET, 'gen-1');
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fashnWebhookToken(SECRET, 'gen-1')).toBe(a);
    expect(fashnWebhookToken(SECRET, 'gen-2')).not.toBe(a);
    expect(fashnWebhookToken(`${SECRET}x`, 'gen-1')).not.toBe(a);
    expect(a).not.toContain(SECRET);
  });

  it('parseWebhook accepts the genuine token and reads the payload', () => {
    const p = new FashnProvider({ apiKey: 'k', webhookSecret: SECRET });
    const body = Buffer.from(JSON.stringify({ id: 'pred-1', status: 'completed', output: ['https://cdn/o.png'], error: null }));
    const query = new URLSearchParams({ fr_generation: 'gen-7', fr_token: fashnWebhookToken(SECRET, 'gen-7') });
    expect(p.parseWebhook({}, body, query)).toEqual({
      jobId: 'pred-1',
      generationId: 'gen-7',
      status: { state: 'completed', result: { url: 'https://cdn/o.png' } },
    });
    query.set('fr_token', fashnWebhookToken(SECRET, 'gen-7').slice(0, -1) + 'A');
    expect(p.parseWebhook({}, body, query)).toBeNull();
  });

  it('the factory needs FASHN_API_KEY', () => {
    expect(() =>
      createFashnProvider({
        fashn: { baseUrl: 'https://api.fashn.ai', imageModel: 'tryon-v1.6', videoModel: 'image-to-video', moderationLevel: 'permissive' },
      }),
    ).toThrow(/FASHN_API_KEY is required when AI_PROVIDER=fashn/);
    expect(() => new FashnProvider({ apiKey: '' })).toThrow(/FASHN_API_KEY/);
    const p = createFashnProvider({
      fashn: {
        apiKey: 'k',
        baseUrl: 'https://api.fashn.ai',
        imageModel: 'tryon-v1.6',
        videoModel: 'image-to-video',
        moderationLevel: 'permissive',
      },
    });
    expect(p.name).toBe('fashn');
    expect('cancel' in p).toBe(false);
  });
});
