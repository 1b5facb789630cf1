import { FaceMessages } from '@fitting-room/shared/face-checks';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkGate } from '../../common/concurrency';
import { deadline } from '../../common/concurrency/deadline';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobContext, type JobPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { isWatermarked } from '../catalog';
import { LikenessService } from '../faces/likeness.service';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GenerationPipeline } from './generation-pipeline';
import { GENERATION_MESSAGES } from './generation-progress';
import {
  checksWithin,
  deadlineOf,
  lastCheckSlackMs,
  nextCheck,
  pollScheduleOf,
  pollWaitMs,
  type PollSchedule,
} from './generation-schedule';
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
 * reached it). A timeout or a malformed success may hide a started job: trying again could run two
 * and bill both. So may a 504: a gateway that gave up waiting for the service behind it, which may
 * have started the job all the same. No vendor here lets us find a job by our own reference
 * before starting again, so a start in doubt is never repeated.
 */
export function startMayBeRetried(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  if (error.kind === ProviderErrorKind.RateLimited) return true;
  if (error.kind === ProviderErrorKind.BadResponse) return (error.options.status ?? 0) >= 500 && error.options.status !== 504;
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
 * GenerationPoll step 1, 2, ... AI_POLL_INTERVAL_MS after the start, then each wait x1.5 up to
 * AI_POLL_MAX_INTERVAL_MS, the last step at the generation's deadline (generation-schedule.ts; a
 * webhook adds an immediate step), then the result is fetched, stored, the hold captured. A
 * generation still running at its last check fails with the timeout, its hold released, and the
 * vendor is asked to cancel and forget the job; a result the last check finds is taken. GenerationSweep
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
  private readonly schedule: PollSchedule;
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
    private readonly likeness: LikenessService,
  ) {
    this.ai = config.ai;
    this.schedule = pollScheduleOf(config.ai);
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

  /** Budget left, in ms, of a generation read at `now` (by the database's clock); negative once past its deadline. */
  private remainingMs(row: Pick<GenerationEntity, 'type' | 'createdAt' | 'deadlineAt'>, now: Date): number {
    return deadlineOf(row, this.ai).getTime() - now.getTime();
  }

  /**
   * Puts running generations back on the queue. At an in-process boot every running generation
   * is orphaned (the queue lived in the dead process); otherwise only those untouched for longer
   * than any step can take. Adding a step that is still queued does nothing (its job id is taken),
   * and a step that ran meanwhile refuses to run twice (claims), so resuming too much is harmless.
   * The deadline holds here too: a generation the vendor is working on gets its next status check
   * at once, which is its last one when the deadline has passed (the result taken if it is there,
   * otherwise the timeout); one that never reached the vendor is started only within its budget.
   */
  async resume(atBoot: boolean): Promise<number> {
    const everything = atBoot && this.queue.kind === 'in-process';
    // the longest a step can take: its call and a result download, and the longest wait before the next step
    const stepMs = this.ai.requestTimeoutMs * 2 + Math.max(this.schedule.maxMs, this.longestWaitMs) + 10_000;
    const rows = await this.repo.findRunning(everything ? undefined : new Date(Date.now() - stepMs));
    let count = 0;
    for (const row of rows) {
      if (row.providerJobId) {
        await this.pipeline.schedulePoll(row.id, row.polls + 1, 'resume', 0);
      } else if (!row.submitStartedAt) {
        if (this.remainingMs(row, row.readAt) > 0) await this.pipeline.submit(row.id);
        else await this.outcomes.fail(row.id, GENERATION_MESSAGES.timeout, { detail: 'its deadline passed before it was started' });
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
        await this.pipeline.schedulePoll(id, 1, 'poll', pollWaitMs(1, this.schedule));
      return;
    }
    const claimedAt = performance.now();
    const remainingMs = () => this.remainingMs(row, row.checkedAt) - (performance.now() - claimedAt);
    if (remainingMs() <= 0) {
      // the queue held the job past the generation's deadline (an outage): nothing is started, nothing charged
      await this.outcomes.fail(id, GENERATION_MESSAGES.timeout, { detail: 'its deadline passed before it was started' });
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
      await this.onStartError(row, error, remainingMs());
      return;
    }
    // the checks that fit in the budget left now: "Still working (n of max)" counts to this
    const remaining = remainingMs();
    const maxPolls = checksWithin(remaining, this.schedule);
    if (!(await this.repo.recordProviderJob(id, jobId, maxPolls))) {
      // cancelled while the provider was starting: ask it to stop
      this.logger.log(`Generation ${id} ended while starting; cancelling provider job ${jobId}`);
      await this.pipeline.cancelAtProvider(jobId);
      await this.inputs.forget(row.userId, id); // copies made after the end's own clean-up ran
      return;
    }
    await this.outcomes.publishProgress({ ...row, stage: GenerationStage.Processing, maxPolls });
    const first = nextCheck(0, pollWaitMs(1, this.schedule), remaining, maxPolls, this.schedule);
    await this.pipeline.schedulePoll(id, first.n, 'poll', first.delayMs);
  }

  @OnJob(JobName.GenerationPoll)
  async handlePoll({ generationId: id, n, source, errors = 0 }: JobPayload<JobName.GenerationPoll>, ctx: JobContext): Promise<void> {
    const row = await this.repo.claimPoll(id, n, `${ctx.name}:${ctx.jobId}`); // claimed only with a provider job id
    if (!row?.providerJobId) return;
    const claimedAt = performance.now();
    const remainingMs = () => this.remainingMs(row, row.checkedAt) - (performance.now() - claimedAt);
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
    // "Still working (n of max)" goes out once the vendor has answered, unless it is done: then the
    // next event (Finalizing) implies this step and the event stream fills it in (one event less)
    // A check that ran at its deadline (or later, on a stalled machine) is the last one, numbered
    // max_polls whatever its place in the schedule: "Still working (max of max)" precedes the timeout.
    const lastCheck = remainingMs() <= lastCheckSlackMs(this.schedule);
    if (status.state !== 'completed')
      await this.outcomes.publishProgress(
        lastCheck && status.state === 'processing' ? { ...row, polls: Math.max(row.polls, row.maxPolls) } : row,
      );

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
    const remaining = remainingMs();
    if (lastCheck || remaining <= lastCheckSlackMs(this.schedule)) {
      // the deadline: that was the last check. The vendor kept failing to answer (or we could not
      // store its result): the generation failed; it kept saying "processing": it timed out.
      const ended = await this.outcomes.fail(id, failedInARow ? GENERATION_MESSAGES.failed : GENERATION_MESSAGES.timeout, {
        detail: failedInARow
          ? `the last ${failedInARow} status checks failed, the last one at its deadline`
          : `still processing at its deadline, after ${n} status checks`,
      });
      // (not when it ended otherwise meanwhile: a webhook's step that completed it, a cancel that stopped it already)
      if (ended) await this.pipeline.abandonAtProvider(row.providerJobId);
      return;
    }
    const waitMs = failedInARow
      ? Math.min(this.longestWaitMs, backoffMs(failedInARow, this.ai.pollIntervalMs, this.longestWaitMs, retryAfterMs))
      : pollWaitMs(n + 1, this.schedule);
    const next = nextCheck(n, waitMs, remaining, row.maxPolls, this.schedule);
    await this.pipeline.schedulePoll(id, next.n, 'poll', next.delayMs, failedInARow);
  }

  /** Fetches the result, stores our copy (watermarked for the free tier, tagged AI-generated), then completes. */
  private async finalize(row: GenerationEntity, result: Extract<ProviderStatus, { state: 'completed' }>['result']): Promise<void> {
    await this.repo.setStage(row.id, GenerationStage.Finalizing);
    await this.outcomes.publishProgress({ ...row, stage: GenerationStage.Finalizing });
    const held = await this.resultsHeld.run(async (): Promise<{ unlike: 'retry' | 'failed' } | { key: string; phash: bigint }> => {
      const bytes = 'buffer' in result ? result.buffer : await this.download(result.url, row.type);
      // the likeness guard ("Only you"): a result whose face is not the person's is neither stored nor charged
      const likeness = await this.likeness.judge(
        { id: row.id, userId: row.userId, type: row.type, uploadIds: row.metadata?.upload_ids ?? [] },
        bytes,
      );
      if (likeness.outcome === 'retry' || likeness.outcome === 'failed') return { unlike: likeness.outcome };
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
      // the picture signature "Report an image" compares copies with; if it cannot be saved, the signature sweep computes it later
      try {
        await this.repo.saveResultSignature(row.id, stored.signature);
      } catch (error) {
        this.logger.warn(`Saving the picture signature of generation ${row.id} failed: ${message(error)}`);
      }
      return { key: resultKey, phash: stored.phash };
    });
    if ('unlike' in held) {
      await this.onUnlikeResult(row, held.unlike);
      return;
    }
    const { key, phash } = held;
    if (!(await this.outcomes.complete(row, key, phash))) {
      // it ended meanwhile (cancelled, deleted): keep no orphan file, unless another run completed it with this very key
      const current = await this.repo.findById(row.id);
      if (current?.status !== GenerationStatus.Completed) await this.storage.delete(key).catch(() => undefined);
    }
    await this.pipeline.discardAtProvider(row.providerJobId!);
  }

  /**
   * The likeness guard's refusal of a result (docs/safety.md "Only you"): the first time, the same
   * vendor is asked again (a new start, which draws a new seed: none is sent), within the same
   * deadline and the same hold; the second time, the generation fails and its credits are released.
   */
  private async onUnlikeResult(row: GenerationEntity, outcome: 'retry' | 'failed'): Promise<void> {
    await this.pipeline.discardAtProvider(row.providerJobId!);
    if (outcome === 'retry' && (await this.repo.restartAtProvider(row.id, row.providerJobId!))) {
      this.logger.log(`Generation ${row.id}: the result did not look like the person; asking the vendor once more`);
      await this.pipeline.resubmit(row, 0);
      return;
    }
    await this.outcomes.fail(row.id, FaceMessages.likenessFailed, { detail: "the result's face was too far from the person's photos" });
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

  /** `remainingMs`: the generation's budget left now; a start is not tried again past its deadline. */
  private async onStartError(row: GenerationEntity, error: unknown, remainingMs: number): Promise<void> {
    const pe = error instanceof ProviderError ? error : undefined;
    const retryAfterMs = pe?.options.retryAfterMs;
    const delayMs = backoffMs(row.attempts, this.retryBaseMs, this.longestWaitMs, retryAfterMs);
    if (
      startMayBeRetried(error) &&
      row.attempts < MAX_START_ATTEMPTS &&
      (retryAfterMs ?? 0) <= this.longestWaitMs &&
      delayMs < remainingMs
    ) {
      // nothing was started at the vendor: clear the marker and try again later
      this.logger.warn(`Start of generation ${row.id} failed (attempt ${row.attempts}), trying again: ${message(error)}`);
      if (await this.repo.releaseSubmit(row.id)) await this.pipeline.resubmit(row, delayMs);
      else await this.inputs.forget(row.userId, row.id); // it ended meanwhile (cancelled): copies made after its clean-up ran
      return;
    }
    const reason = isTimeout(error)
      ? GENERATION_MESSAGES.timeout
      : pe?.kind === ProviderErrorKind.Rejected && pe.options.refused
        ? pe.message
        : GENERATION_MESSAGES.startFailed;
    if (!(await this.outcomes.fail(row.id, reason, { refused: pe?.options.refused, detail: message(error) }))) {
      await this.inputs.forget(row.userId, row.id); // it ended meanwhile (cancelled): copies made after its clean-up ran
    }
  }
}
