import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkGate } from '../../common/concurrency';
import { deadline } from '../../common/concurrency/deadline';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { isWatermarked } from '../catalog';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GenerationPipeline } from './generation-pipeline';
import { GENERATION_MESSAGES } from './generation-progress';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { PhotoMissingError, ProviderInputsService } from './provider-inputs.service';
import { AI_PROVIDER, ProviderError, ProviderErrorKind, type AiProvider, type ProviderStatus } from './providers/ai-provider';
import { MAX_RESULT_BYTES, processResult, ResultRejectedError } from './rendering/result-processing';
import type { AppConfig } from '../../config/app-config';

/** How many times a start is tried in all when the vendor answers 429, 5xx or cannot be reached. */
export const MAX_START_ATTEMPTS = 3;
/**
 * Results held in memory at once per process (downloading, waiting for the image work, processed):
 * up to QUEUE_GENERATIONS_CONCURRENCY steps may run together, and a video may weigh 300 MB.
 */
export const RESULTS_IN_MEMORY = 8;
/** Connection errors that prove the request never reached the vendor. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a failed start may be tried again: only when the vendor cannot have started anything
 * (a 429; a 5xx, which FASHN and DashScope answer without a job id; a connection that never
 * reached it). A timeout or a malformed success may hide a started job: trying again could run two.
 */
export function startMayBeRetried(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  if (error.kind === ProviderErrorKind.RateLimited) return true;
  if (error.kind === ProviderErrorKind.BadResponse) return (error.options.status ?? 0) >= 500;
  if (error.kind === ProviderErrorKind.Network) {
    const cause = error.options.cause as { cause?: { code?: string }; code?: string } | undefined;
    return NOT_SENT.has(cause?.cause?.code ?? cause?.code ?? '');
  }
  return false;
}

/**
 * Exponential backoff with jitter: base, 2 x base, 4 x base ... (each within +-20 %), capped; a
 * vendor's Retry-After wins when it asks for longer.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, retryAfterMs?: number, random = Math.random): number {
  const exponential = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exponential * (0.8 + 0.4 * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

export class StepTimeoutError extends Error {
  constructor(what: string) {
    super(`${what} timed out`);
    this.name = 'StepTimeoutError';
  }
}

/**
 * Runs `call` with an AbortSignal that fires after `ms`, and gives up at that time even if the
 * call ignores its signal (it is then left to finish on its own).
 */
export async function withTimeout<T>(ms: number, what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const limit = deadline(ms); // counts the vendor's silence, not a stall of this process
  const timeout = limit.reached.then(() => {
    controller.abort(new StepTimeoutError(what));
    throw new StepTimeoutError(what);
  });
  try {
    return await Promise.race([call(controller.signal), timeout]);
  } finally {
    limit.cancel();
  }
}

function isTimeout(error: unknown): boolean {
  if (error instanceof StepTimeoutError) return true;
  if (error instanceof ProviderError) return error.kind === ProviderErrorKind.Timeout;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The queue side of a generation (docs/architecture.md "Data flow of one generation", step 3-4).
 *
 * Jobs: GenerationSubmit (call the provider's start, 30 s timeout, record its job id), then
 * GenerationPoll step 1, 2, ... every AI_POLL_INTERVAL_MS, at most AI_MAX_POLLS steps (a webhook
 * adds an immediate step), then the result is fetched, stored, the hold captured. GenerationSweep
 * (every AI_SWEEP_INTERVAL_MS, and once when a consumer boots) resumes generations whose jobs were
 * lost. Every job is queued, and every cancel sent to the provider, through GenerationPipeline.
 *
 * Idempotency rules, all enforced by conditional UPDATEs in PostgreSQL (generations.repository.ts):
 * - The provider's start is called only by the job that set `submit_started_at` on a row that had
 *   neither it nor a provider job id. A retried, duplicated or resumed submit finds the marker set
 *   and does not call start again.
 * - A row with the marker but no provider job id is a start in doubt (the process died during the
 *   call, or before it could record the answer). It is never started again: once the start's
 *   timeout has passed (at once at an in-process boot, where nothing else can be running), the
 *   sweep fails it with "Failed to start generation" and releases its hold. The vendor may have
 *   done the work; the user is not charged for it. A 429 is the one start error known to start
 *   nothing: the marker is cleared and the start tried again later (at most 3 times).
 * - Poll step n runs only if it claims `polls = n` from a smaller value, or if this same queue job
 *   claimed it before (its retry, or BullMQ re-running it after a crash). So each step runs once,
 *   duplicate chains die at their next step, and a crashed step is taken over by its own retry or
 *   by the sweep (which adds step polls+1).
 * - Completion and failure happen once, under a row lock (generation-outcomes.service.ts); the
 *   credits' capture and release resolve a hold exactly once whatever calls them.
 */
@Injectable()
export class GenerationWorkerService implements OnApplicationBootstrap {
  private readonly logger = new Logger('GenerationWorker');
  private readonly ai: NonNullable<AppConfig['ai']>;
  /**
   * Results are decoded, marked and re-encoded IMAGE_WORK_CONCURRENCY at a time (the other poll
   * jobs wait their turn, never refused): twenty at once on two cores made 18 results a second
   * where two at a time made 26.
   */
  private readonly resultWork: WorkGate;
  /** RESULTS_IN_MEMORY results fetched and stored at once; the other steps that finish wait their turn */
  private readonly resultsHeld = new WorkGate(RESULTS_IN_MEMORY, Number.POSITIVE_INFINITY);

  constructor(
    private readonly repo: GenerationsRepository,
    private readonly queue: MessageQueueService,
    private readonly pipeline: GenerationPipeline,
    private readonly outcomes: GenerationOutcomesService,
    private readonly inputs: ProviderInputsService,
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.ai = config.ai;
    this.resultWork = new WorkGate(config.uploads.imageWorkConcurrency, Number.POSITIVE_INFINITY);
  }

  /** A consumer that starts schedules the sweep and resumes what a crash left behind. */
  private get retryBaseMs(): number {
    return this.ai.retryBaseMs;
  }

  /**
   * The longest wait between two tries of a vendor call (8 poll intervals, at most a minute: 24 s
   * by default). A start whose Retry-After asks for longer fails at once and releases its credits;
   * a status check waits at most this long. The sweep counts a step as lost only after it.
   */
  private get longestWaitMs(): number {
    return Math.min(60_000, Math.max(this.ai.pollIntervalMs, this.retryBaseMs) * 8);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.pipeline.scheduleSweep(this.ai.sweepIntervalMs);
    const resumed = await this.resume(true).catch((error) => {
      this.logger.error(`Could not resume running generations: ${message(error)}`);
      return 0;
    });
    if (resumed > 0) this.logger.log(`Resumed ${resumed} running generation(s)`);
  }

  @OnJob(JobName.GenerationSweep)
  async handleSweep(): Promise<void> {
    const resumed = await this.resume(false);
    if (resumed > 0) this.logger.warn(`Sweep resumed ${resumed} stalled generation(s)`);
  }

  /**
   * Puts running generations back on the queue. At an in-process boot every running generation
   * is orphaned (the queue lived in the dead process); otherwise only those untouched for longer
   * than any step can take. Adding a step that is still queued does nothing (its job id is taken),
   * and a step that ran meanwhile refuses to run twice (claims), so resuming too much is harmless.
   */
  async resume(atBoot: boolean): Promise<number> {
    const everything = atBoot && this.queue.kind === 'in-process';
    const stepMs = this.ai.requestTimeoutMs * 2 + Math.max(this.ai.pollIntervalMs * 2, this.longestWaitMs) + 10_000;
    const rows = await this.repo.findRunning(everything ? undefined : new Date(Date.now() - stepMs));
    let count = 0;
    for (const row of rows) {
      if (row.providerJobId) {
        await this.pipeline.schedulePoll(row.id, row.polls + 1, 'resume', 0);
      } else if (!row.submitStartedAt) {
        await this.pipeline.submit(row.id);
      } else if (everything || row.submitStartedAt.getTime() < Date.now() - (this.ai.requestTimeoutMs + 5000)) {
        await this.outcomes.fail(row.id, GENERATION_MESSAGES.startFailed, { detail: 'start in doubt after a crash: not started again' });
      } else {
        continue;
      }
      count++;
    }
    return count;
  }

  @OnJob(JobName.GenerationSubmit)
  async handleSubmit({ generationId: id }: JobPayload<JobName.GenerationSubmit>): Promise<void> {
    const row = await this.repo.claimSubmit(id); // the claimed row, as it is now
    if (!row) {
      // started before (a retry or a duplicate): make sure its first poll exists (adding it again is a no-op)
      const current = await this.repo.findById(id);
      if (current?.status === GenerationStatus.Processing && current.providerJobId && current.polls === 0)
        await this.pipeline.schedulePoll(id, 1, 'poll', this.ai.pollIntervalMs);
      return;
    }
    await this.outcomes.publishProgress(row);

    let input;
    try {
      input = await this.inputs.startInput(row, this.provider);
    } catch (error) {
      if (error instanceof PhotoMissingError) {
        await this.outcomes.fail(id, GENERATION_MESSAGES.photoMissing);
        return;
      }
      await this.repo.releaseSubmit(id); // nothing was sent: the retry may start it
      throw error;
    }

    let jobId: string;
    try {
      ({ jobId } = await withTimeout(this.ai.requestTimeoutMs, 'start', (signal) => this.provider.start({ ...input, signal })));
    } catch (error) {
      await this.onStartError(row, error);
      return;
    }
    if (!(await this.repo.recordProviderJob(id, jobId))) {
      // cancelled while the provider was starting: ask it to stop
      this.logger.log(`Generation ${id} ended while starting; cancelling provider job ${jobId}`);
      await this.pipeline.cancelAtProvider(jobId);
      await this.inputs.forget(row.userId, id); // copies made after the end's own clean-up ran
      return;
    }
    await this.outcomes.publishProgress({ ...row, stage: GenerationStage.Processing });
    await this.pipeline.schedulePoll(id, 1, 'poll', this.ai.pollIntervalMs);
  }

  @OnJob(JobName.GenerationPoll)
  async handlePoll({ generationId: id, n, source, errors = 0 }: JobPayload<JobName.GenerationPoll>, ctx: JobContext): Promise<void> {
    const row = await this.repo.claimPoll(id, n, `${ctx.name}:${ctx.jobId}`); // claimed only with a provider job id
    if (!row?.providerJobId) return;
    // the webhook's step n is the timed step n's twin: that one waits for nothing now
    if (source === 'webhook') void this.pipeline.dropTimedPoll(id, n);

    let status: ProviderStatus;
    let retryAfterMs: number | undefined;
    let failedInARow = 0;
    try {
      status = await withTimeout(this.ai.requestTimeoutMs, 'status', (signal) => this.provider.status(row.providerJobId!, signal));
    } catch (error) {
      if (error instanceof ProviderError && !error.retryable) {
        const refused = error.kind === ProviderErrorKind.Rejected && error.options.refused;
        await this.outcomes.fail(id, refused ? error.message : GENERATION_MESSAGES.failed, { refused, detail: error.message });
        return;
      }
      // a timeout, 429, 5xx or network error: this check counts as a poll, the next one tries again,
      // later each time it fails in a row (and not before the vendor's Retry-After)
      this.logger.warn(`Status of generation ${id} (step ${n}) failed: ${message(error)}`);
      retryAfterMs = error instanceof ProviderError ? error.options.retryAfterMs : undefined;
      failedInARow = errors + 1;
      status = { state: 'processing' };
    }
    // "Checking status (n/max)" goes out once the vendor has answered, unless it is done: then the
    // next event (Finalizing) implies this step and the event stream fills it in (one event less)
    if (status.state !== 'completed') await this.outcomes.publishProgress(row);

    if (status.state === 'failed') {
      await this.outcomes.fail(id, status.refused ? status.reason : GENERATION_MESSAGES.failed, {
        refused: status.refused,
        detail: status.reason,
      });
      return;
    }
    if (status.state === 'completed') {
      try {
        await this.finalize(row, status.result);
        return;
      } catch (error) {
        if (error instanceof ResultRejectedError) {
          await this.outcomes.fail(id, GENERATION_MESSAGES.failed, { detail: error.message });
          return;
        }
        // download or storage failed: the next step asks the provider again, later each time in a row
        this.logger.warn(`Storing the result of generation ${id} failed (step ${n}): ${message(error)}`);
        failedInARow = errors + 1;
      }
    }
    if (n >= row.maxPolls) {
      // the vendor kept failing to answer: the generation failed; it kept saying "processing": it timed out
      await this.outcomes.fail(id, failedInARow ? GENERATION_MESSAGES.failed : GENERATION_MESSAGES.timeout, {
        detail: failedInARow ? `the last ${failedInARow} status checks failed` : `still processing after ${n} status checks`,
      });
      await this.pipeline.cancelAtProvider(row.providerJobId);
      return;
    }
    const delayMs = failedInARow
      ? Math.min(this.longestWaitMs, backoffMs(failedInARow, this.ai.pollIntervalMs, this.longestWaitMs, retryAfterMs))
      : this.ai.pollIntervalMs;
    await this.pipeline.schedulePoll(id, n + 1, 'poll', delayMs, failedInARow);
  }

  /** Fetches the result, stores our copy (watermarked for the free tier, tagged AI-generated), then completes. */
  private async finalize(row: GenerationEntity, result: Extract<ProviderStatus, { state: 'completed' }>['result']): Promise<void> {
    await this.repo.setStage(row.id, GenerationStage.Finalizing);
    await this.outcomes.publishProgress({ ...row, stage: GenerationStage.Finalizing });
    const { key, phash } = await this.resultsHeld.run(async () => {
      const bytes = 'buffer' in result ? result.buffer : await this.download(result.url, row.type);
      const stored = await this.resultWork.run(() =>
        processResult(bytes, {
          type: row.type,
          watermark: isWatermarked(row.tier),
          appName: this.config.appName,
          origin: this.provider.generatesWithAi ? 'ai' : 'preview',
          generationId: row.id,
        }),
      );
      const resultKey = `users/${row.userId}/results/${row.id}.${stored.extension}`;
      await this.storage.put(resultKey, stored.body, { contentType: stored.contentType });
      return { key: resultKey, phash: stored.phash };
    });
    if (!(await this.outcomes.complete(row, key, phash))) {
      // it ended meanwhile (cancelled, deleted): keep no orphan file, unless another run completed it with this very key
      const current = await this.repo.findById(row.id);
      if (current?.status !== GenerationStatus.Completed) await this.storage.delete(key).catch(() => undefined);
    }
    await this.pipeline.discardAtProvider(row.providerJobId!);
  }

  /** A vendor's result URL (they expire within hours): fetched with the request timeout and a size limit. */
  private async download(url: string, type: 'image' | 'video'): Promise<Buffer> {
    if (!/^https?:\/\//i.test(url)) throw new ResultRejectedError('The AI provider returned a result URL that is not http(s)');
    const limit = MAX_RESULT_BYTES[type];
    return withTimeout(this.ai.requestTimeoutMs, 'result download', async (signal) => {
      const res = await fetch(url, { signal, redirect: 'follow' });
      if (!res.ok || !res.body) throw new Error(`result download answered ${res.status}`);
      if (Number(res.headers.get('content-length') ?? 0) > limit)
        throw new ResultRejectedError('The AI provider returned a result that is too large');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > limit) throw new ResultRejectedError('The AI provider returned a result that is too large');
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    });
  }

  private async onStartError(row: GenerationEntity, error: unknown): Promise<void> {
    const pe = error instanceof ProviderError ? error : undefined;
    const retryAfterMs = pe?.options.retryAfterMs;
    if (startMayBeRetried(error) && row.attempts < MAX_START_ATTEMPTS && (retryAfterMs ?? 0) <= this.longestWaitMs) {
      // nothing was started at the vendor: clear the marker and try again later
      this.logger.warn(`Start of generation ${row.id} failed (attempt ${row.attempts}), trying again: ${message(error)}`);
      if (await this.repo.releaseSubmit(row.id)) {
        const delayMs = backoffMs(row.attempts, this.retryBaseMs, this.longestWaitMs, retryAfterMs);
        await this.pipeline.resubmit(row, delayMs);
      }
      return;
    }
    const reason = isTimeout(error)
      ? GENERATION_MESSAGES.timeout
      : pe?.kind === ProviderErrorKind.Rejected && pe.options.refused
        ? pe.message
        : GENERATION_MESSAGES.startFailed;
    await this.outcomes.fail(row.id, reason, { refused: pe?.options.refused, detail: message(error) });
  }
}
