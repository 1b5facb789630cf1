import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import sharp from 'sharp';
import { CUSTOM_POSE, findScene, findTemplate } from '../../catalog';
import { stillToVideo } from '../rendering/ffmpeg';
import { renderPreviewImage } from '../rendering/preview-render';
import {
  AiProvider,
  ProviderError,
  ProviderErrorKind,
  ProviderInputSpec,
  ProviderStartInput,
  ProviderStartResult,
  ProviderStatus,
} from './ai-provider';
import type { StoragePort } from '../../../storage';

/** The job as `start` wrote it, in storage. */
interface PreviewJob {
  generationId: string;
  type: 'image' | 'video';
  personKey: string;
  templateId: string;
  sceneId: string;
  /** epoch ms: not rendered before (AI_PREVIEW_DELAY_MS) */
  readyAt: number;
  createdAt: number;
}

export interface PreviewProviderOptions {
  /** how long a job takes at least, to behave like a vendor (AI_PREVIEW_DELAY_MS) */
  delayMs: number;
  /** the catalogue's SVG artwork of a template, scene or the custom pose */
  artworkSvg: (id: string) => string | undefined;
  /** how long one process may hold a job before another takes it over (it died while rendering) */
  leaseMs?: number;
  now?: () => number;
}

/** `pv_<user id>_<uuid>`: the user id says where the job's files are (under the user's prefix). */
const JOB_ID =
  /^pv_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const USER_KEY = /^users\/([0-9a-f-]{36})\//;

/**
 * AI_PROVIDER=preview (the default): no network, no AI. It renders the user's first photo with the
 * outfit's and the scene's artwork at the output size, labelled "Preview — not AI" (a short MP4 of
 * it for a video), and behaves like an asynchronous vendor: `start` answers a job id at once and
 * renders in the background, `status` answers processing until the result exists.
 *
 * Its state lives in STORAGE, not in memory, so that any process can answer `status` (API and
 * workers, several of them): `users/<user>/preview-jobs/<id>.job.json` (the job), `.lease.json`
 * (a process is rendering it, until a time), `.jpg`/`.mp4` (the result) and `.failed.json`. A job
 * whose renderer died (its lease expired) is rendered by the next process that asks its status;
 * rendering twice is harmless (same input, same output). Nothing leaves the user's prefix, so
 * deleting an account deletes these files too.
 */
export class PreviewProvider implements AiProvider {
  readonly name = 'preview' as const;
  readonly supportsWebhooks = false;
  readonly generatesWithAi = false;
  /**
   * It draws whatever photo the upload accepted and reads it from our storage, never from a URL:
   * no minimum, and the stored copy (at most 2048 px) always fits, so it is given as is.
   */
  static readonly INPUT_SPEC: ProviderInputSpec = { minSide: 1, maxSide: 4096, acceptsDataUri: false };
  private readonly logger = new Logger('PreviewProvider');
  /** jobs this process is rendering now */
  private readonly rendering = new Map<string, Promise<void>>();
  private readonly leaseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly storage: StoragePort,
    private readonly options: PreviewProviderOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  inputSpec(): ProviderInputSpec {
    return PreviewProvider.INPUT_SPEC;
  }

  async start(input: ProviderStartInput): Promise<ProviderStartResult> {
    input.signal?.throwIfAborted();
    const userId = USER_KEY.exec(input.person.storageKey ?? '')?.[1];
    if (!userId) throw new ProviderError(ProviderErrorKind.Rejected, 'The preview provider needs the photo from our storage');
    if (!findTemplate(input.templateId)) throw new ProviderError(ProviderErrorKind.Rejected, `Unknown template: ${input.templateId}`);
    const jobId = `pv_${userId}_${randomUUID()}`;
    const job: PreviewJob = {
      generationId: input.generationId,
      type: input.type,
      personKey: input.person.storageKey!,
      templateId: input.templateId,
      sceneId: input.sceneId,
      readyAt: this.now() + this.options.delayMs,
      createdAt: this.now(),
    };
    await this.storage.put(this.key(jobId, 'job.json'), Buffer.from(JSON.stringify(job)), { contentType: 'application/json' });
    const timer = setTimeout(() => this.renderInBackground(jobId, job), this.options.delayMs);
    timer.unref();
    return { jobId };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<ProviderStatus> {
    signal?.throwIfAborted();
    const ext = await this.resultExtension(jobId);
    if (ext) {
      const object = await this.storage.get(this.key(jobId, ext));
      return { state: 'completed', result: { buffer: object.body, contentType: object.contentType } };
    }
    const failed = await this.readJson<{ reason: string }>(jobId, 'failed.json');
    if (failed) return { state: 'failed', reason: failed.reason };
    const job = await this.readJson<PreviewJob>(jobId, 'job.json');
    if (!job) throw new ProviderError(ProviderErrorKind.NotFound, 'The preview job does not exist (it expired or was deleted)');
    if (this.now() < job.readyAt) return { state: 'processing', detail: 'waiting (AI_PREVIEW_DELAY_MS)' };
    if (this.rendering.has(jobId)) return { state: 'processing', detail: 'rendering' };
    const lease = await this.readJson<{ until: number }>(jobId, 'lease.json');
    if (lease && lease.until > this.now()) return { state: 'processing', detail: 'rendering elsewhere' };
    // nobody renders it (the process that started it died, or its timer has not fired yet): do it here
    this.renderInBackground(jobId, job);
    return { state: 'processing', detail: 'rendering' };
  }

  async cancel(jobId: string): Promise<void> {
    if (!JOB_ID.test(jobId)) return;
    await this.storage.put(this.key(jobId, 'failed.json'), Buffer.from(JSON.stringify({ reason: 'Cancelled' })), {
      contentType: 'application/json',
    });
  }

  /** Our copy of the result is stored: forget the job and its files. */
  async discard(jobId: string): Promise<void> {
    if (!JOB_ID.test(jobId)) return;
    await this.storage.deletePrefix(this.key(jobId, ''));
  }

  /** Waits for the renders this process runs (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.rendering.values()]);
  }

  private renderInBackground(jobId: string, job: PreviewJob): void {
    if (this.rendering.has(jobId)) return;
    const run = this.render(jobId, job)
      .catch(async (error: unknown) => {
        this.logger.warn(`Preview ${jobId} failed: ${error instanceof Error ? error.message : String(error)}`);
        await this.storage
          .put(this.key(jobId, 'failed.json'), Buffer.from(JSON.stringify({ reason: 'Generation failed' })), {
            contentType: 'application/json',
          })
          .catch(() => undefined);
      })
      // the job may have been discarded while it rendered (the generation or the account deleted):
      // then whatever this render wrote since goes too, so no photo of a deleted person is left behind
      .then(() => this.sweepIfDiscarded(jobId))
      .catch(() => undefined)
      .finally(() => this.rendering.delete(jobId));
    this.rendering.set(jobId, run);
  }

  private async sweepIfDiscarded(jobId: string): Promise<void> {
    if (await this.storage.exists(this.key(jobId, 'job.json'))) return;
    await this.storage.deletePrefix(this.key(jobId, ''));
  }

  private async render(jobId: string, job: PreviewJob): Promise<void> {
    if (await this.resultExtension(jobId)) return;
    if (await this.readJson(jobId, 'failed.json')) return; // cancelled
    if (!(await this.storage.exists(this.key(jobId, 'job.json')))) return; // discarded
    await this.storage.put(this.key(jobId, 'lease.json'), Buffer.from(JSON.stringify({ until: this.now() + this.leaseMs })), {
      contentType: 'application/json',
    });
    const template = findTemplate(job.templateId);
    const scene = job.sceneId === CUSTOM_POSE.id ? CUSTOM_POSE : findScene(job.sceneId);
    const outfitSvg = this.options.artworkSvg(job.templateId);
    const sceneSvg = this.options.artworkSvg(scene?.id ?? CUSTOM_POSE.id);
    if (!template || !outfitSvg || !sceneSvg) throw new Error(`no artwork for ${job.templateId} / ${job.sceneId}`);
    let photo: Buffer;
    try {
      photo = (await this.storage.get(job.personKey)).body;
    } catch {
      await this.storage.put(
        this.key(jobId, 'failed.json'),
        Buffer.from(JSON.stringify({ reason: 'Generation failed: the photo was deleted' })),
        {
          contentType: 'application/json',
        },
      );
      return;
    }
    const image = await renderPreviewImage({ photo, outfitSvg, sceneSvg, caption: [template.name, scene?.name ?? 'Custom pose'] });
    if (job.type === 'video') {
      const still = await sharp(image).resize(720, 1000, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
      await this.storage.put(this.key(jobId, 'mp4'), await stillToVideo(still), { contentType: 'video/mp4' });
    } else {
      await this.storage.put(this.key(jobId, 'jpg'), image, { contentType: 'image/jpeg' });
    }
    await this.storage.delete(this.key(jobId, 'lease.json'));
  }

  private async resultExtension(jobId: string): Promise<'jpg' | 'mp4' | null> {
    for (const ext of ['jpg', 'mp4'] as const) if (await this.storage.exists(this.key(jobId, ext))) return ext;
    return null;
  }

  private async readJson<T>(jobId: string, suffix: string): Promise<T | null> {
    const key = this.key(jobId, suffix);
    if (!(await this.storage.exists(key))) return null;
    try {
      return JSON.parse((await this.storage.get(key)).body.toString('utf8')) as T;
    } catch {
      return null;
    }
  }

  /** `users/<user>/preview-jobs/<uuid>.<suffix>`; `suffix` '' gives the prefix of all its files. */
  private key(jobId: string, suffix: string): string {
    const m = JOB_ID.exec(jobId);
    if (!m) throw new ProviderError(ProviderErrorKind.NotFound, 'Unknown preview job');
    return `users/${m[1]}/preview-jobs/${m[2]}${suffix ? `.${suffix}` : ''}`;
  }
}
