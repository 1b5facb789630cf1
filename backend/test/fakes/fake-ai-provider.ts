import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import sharp from 'sharp';
import {
  ProviderError,
  ProviderErrorKind,
  type AiProvider,
  type AiProviderName,
  type ProviderInputSpec,
  type ProviderStartInput,
  type ProviderStartResult,
  type ProviderStatus,
} from '../../src/modules/generations/providers/ai-provider';
import { stillToVideo } from '../../src/modules/generations/rendering/ffmpeg';

/**
 * What the fake vendor does with the next jobs (set per test):
 * - succeed: `processing` for `polls` status checks, then completed (a real JPEG, or MP4 for a video)
 * - fail: the vendor's task fails (`reason`) after `polls` checks
 * - refuse: content moderation refuses, at start (a Rejected error) or at the first status check
 * - never: processing forever
 * - startError: start throws a ProviderError of `kind`
 */
export type FakeBehaviour =
  | { kind: 'succeed'; polls?: number }
  | { kind: 'fail'; polls?: number; reason?: string }
  | { kind: 'refuse'; at: 'start' | 'status'; reason?: string }
  | { kind: 'never' }
  | { kind: 'startError'; error: ProviderErrorKind; retryAfterMs?: number };

interface FakeJob {
  id: string;
  input: ProviderStartInput;
  behaviour: FakeBehaviour;
  statusCalls: number;
  cancelled: boolean;
}

export const FAKE_WEBHOOK_SECRET = 'fake-vendor-webhook-secret';

let cachedJpeg: Promise<Buffer> | undefined;
let cachedMp4: Promise<Buffer> | undefined;

/**
 * A picture of its own for each generation (shapes placed from the id's bytes), so that results
 * can be told apart by their pictures, as real ones can.
 */
export function distinctResultJpeg(seed: string): Promise<Buffer> {
  const bytes = createHmac('sha256', 'fake-result').update(seed).digest();
  const shapes = Array.from({ length: 6 }, (_, i) => {
    const [x, y, r, c] = [bytes[i * 4] * 2.3, bytes[i * 4 + 1] * 3.1, 40 + (bytes[i * 4 + 2] % 120), bytes[i * 4 + 3]];
    return `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r}" fill="hsl(${(c * 360) / 255},70%,${30 + (c % 40)}%)"/>`;
  });
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="hsl(${(bytes[30] * 360) / 255},40%,80%)"/>${shapes.join('')}</svg>`,
    ),
  )
    .jpeg()
    .toBuffer();
}

/** A vendor-looking result: a 600x800 JPEG with a gradient. */
export function fakeResultJpeg(): Promise<Buffer> {
  cachedJpeg ??= sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><defs><linearGradient id="g" x2="0" y2="1"><stop offset="0" stop-color="#f4a261"/><stop offset="1" stop-color="#2a9d8f"/></linearGradient></defs><rect width="600" height="800" fill="url(#g)"/><circle cx="300" cy="300" r="120" fill="#264653"/></svg>',
    ),
  )
    .jpeg()
    .toBuffer();
  return cachedJpeg;
}

export function fakeResultMp4(): Promise<Buffer> {
  cachedMp4 ??= fakeResultJpeg().then((jpeg) => stillToVideo(jpeg, { width: 240, height: 320, seconds: 0.5 }));
  return cachedMp4;
}

/**
 * A test double of the AI provider port, in memory: counts every start, status and cancel, and
 * behaves as the test says. With `webhooks`, it signs webhook calls with HMAC-SHA256 over the raw
 * body in `x-fake-signature`, and `webhookCall()` builds one.
 */
export class FakeAiProvider implements AiProvider {
  readonly name: AiProviderName;
  readonly supportsWebhooks: boolean;
  /** a stand-in for an AI vendor: its results are labelled AI-generated */
  readonly generatesWithAi = true;
  behaviour: FakeBehaviour = { kind: 'succeed', polls: 1 };
  /** delay of each start, in ms (a slow vendor) */
  startDelayMs = 0;
  /** what an image job answers; by default the same gradient for every job */
  resultImage: (input: ProviderStartInput) => Promise<Buffer> = () => fakeResultJpeg();
  readonly jobs = new Map<string, FakeJob>();
  readonly starts: ProviderStartInput[] = [];
  readonly cancels: string[] = [];
  statusCalls = 0;
  /** what it accepts as input images (the preview's generous spec unless a test says otherwise) */
  spec: ProviderInputSpec = { minSide: 1, maxSide: 4096, acceptsDataUri: false };

  constructor(options: { name?: string; webhooks?: boolean } = {}) {
    this.name = (options.name ?? 'preview') as AiProviderName;
    this.supportsWebhooks = options.webhooks ?? false;
  }

  inputSpec(): ProviderInputSpec {
    return this.spec;
  }

  startsFor(generationId: string): number {
    return this.starts.filter((s) => s.generationId === generationId).length;
  }

  jobOf(generationId: string): FakeJob | undefined {
    return [...this.jobs.values()].find((j) => j.input.generationId === generationId);
  }

  async start(input: ProviderStartInput): Promise<ProviderStartResult> {
    this.starts.push(input);
    if (this.startDelayMs > 0) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, this.startDelayMs);
        input.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new ProviderError(ProviderErrorKind.Timeout, 'fake vendor: aborted'));
        });
      });
    }
    const behaviour = this.behaviour;
    if (behaviour.kind === 'refuse' && behaviour.at === 'start') {
      throw new ProviderError(ProviderErrorKind.Rejected, behaviour.reason ?? 'Refused by the content moderation of the vendor', {
        refused: true,
      });
    }
    if (behaviour.kind === 'startError') {
      throw new ProviderError(behaviour.error, `fake vendor: ${behaviour.error}`, { retryAfterMs: behaviour.retryAfterMs });
    }
    const id = `fake-${randomUUID()}`;
    this.jobs.set(id, { id, input, behaviour, statusCalls: 0, cancelled: false });
    return { jobId: id };
  }

  async status(jobId: string): Promise<ProviderStatus> {
    this.statusCalls++;
    const job = this.jobs.get(jobId);
    if (!job) throw new ProviderError(ProviderErrorKind.NotFound, 'fake vendor: unknown task');
    job.statusCalls++;
    if (job.cancelled) return { state: 'failed', reason: 'Cancelled at the vendor' };
    return this.statusOf(job);
  }

  async cancel(jobId: string): Promise<void> {
    this.cancels.push(jobId);
    const job = this.jobs.get(jobId);
    if (job) job.cancelled = true;
  }

  parseWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): { jobId: string; status: ProviderStatus } | null {
    const given = headers['x-fake-signature'];
    if (typeof given !== 'string') return null;
    const expected = createHmac('sha256', FAKE_WEBHOOK_SECRET).update(rawBody).digest('hex');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) return null;
    const body = JSON.parse(rawBody.toString('utf8')) as { id: string; status: 'completed' | 'failed' | 'processing' };
    const status: ProviderStatus =
      body.status === 'failed'
        ? { state: 'failed', reason: 'failed' }
        : body.status === 'completed'
          ? { state: 'completed', result: { url: 'http://unused.invalid/' } }
          : { state: 'processing' };
    return { jobId: body.id, status };
  }

  /** The vendor finishes the job now: its next status is `completed` (or `failed`). */
  finish(jobId: string, outcome: 'completed' | 'failed' = 'completed'): void {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no fake job ${jobId}`);
    job.behaviour = outcome === 'completed' ? { kind: 'succeed', polls: 0 } : { kind: 'fail', polls: 0 };
  }

  /** A signed webhook call of the fake vendor (what it would POST to webhookUrl). */
  webhookCall(
    jobId: string,
    status: 'completed' | 'failed' | 'processing',
    secret = FAKE_WEBHOOK_SECRET,
  ): { body: string; headers: Record<string, string> } {
    const body = JSON.stringify({ id: jobId, status });
    return {
      body,
      headers: { 'content-type': 'application/json', 'x-fake-signature': createHmac('sha256', secret).update(body).digest('hex') },
    };
  }

  private async statusOf(job: FakeJob): Promise<ProviderStatus> {
    const b = job.behaviour;
    switch (b.kind) {
      case 'never':
        return { state: 'processing' };
      case 'refuse':
        return { state: 'failed', refused: true, reason: b.reason ?? 'Refused by the content moderation of the vendor' };
      case 'fail':
        return job.statusCalls > (b.polls ?? 0)
          ? { state: 'failed', reason: b.reason ?? 'The vendor failed the task' }
          : { state: 'processing' };
      case 'succeed':
        if (job.statusCalls <= (b.polls ?? 1)) return { state: 'processing' };
        return {
          state: 'completed',
          result:
            job.input.type === 'video'
              ? { buffer: await fakeResultMp4(), contentType: 'video/mp4' }
              : { buffer: await this.resultImage(job.input), contentType: 'image/jpeg' },
        };
      default:
        return { state: 'processing' };
    }
  }
}
