import { Inject, Injectable, Logger } from '@nestjs/common';
import { JobName, MessageQueueService, OnJob, type JobPayload } from '../../queue';
import { STORAGE, type StoragePort } from '../../storage';
import { AI_PROVIDER, type AiProvider } from './providers/ai-provider';

/** The retry of a failed result-file deletion: minutes apart (1, 2, 4 ... 128 minutes). */
export const GENERATION_FILE_DELETE_OPTIONS = { attempts: 8, backoffMs: 60_000 } as const;
/** A poll step is retried by the queue a few times, a second apart, before the sweep takes over. */
export const GENERATION_POLL_OPTIONS = { attempts: 3, backoffMs: 1000 } as const;

/** The schedule key of the repeating sweep: one schedule however many consumers boot. */
const SWEEP_SCHEDULE_KEY = 'generation-sweep';

/** Who added a poll step: the chain itself, a provider's webhook, or a resume after a crash or a stall. */
export type PollSource = 'poll' | 'webhook' | 'resume';

/** The job ids of a generation's jobs. Stable ids are what make adding the same pending job twice a no-op. */
export const generationJobId = {
  submit: (id: string) => `submit-${id}`,
  /** a start tried again after the vendor refused it (429, 5xx): one id per attempt */
  resubmit: (id: string, attempt: number) => `submit-${id}-${attempt}`,
  poll: (id: string, n: number, source: PollSource) => (source === 'webhook' ? `hook-${id}-${n}` : `poll-${id}-${n}`),
  fileDelete: (id: string) => `generation-file-${id}`,
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The one place that puts a generation's work on the queue (submit, poll steps, webhook steps, the
 * retried deletion of a result file, the sweep's schedule) and the one place that asks the provider to stop or to forget
 * a job. The API (GenerationsService) and the worker (GenerationWorkerService) decide when; this
 * decides how: the job ids, which make duplicates collapse, and the jobs' retry options.
 */
@Injectable()
export class GenerationPipeline {
  private readonly logger = new Logger('GenerationPipeline');

  constructor(
    private readonly queue: MessageQueueService,
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  /** The vendor this pipeline drives (recorded on each generation it starts). */
  get providerName(): string {
    return this.provider.name;
  }

  /** Adds the first start of a generation; adding it again while it is pending does nothing. */
  submit(id: string): Promise<void> {
    return this.queue.add(JobName.GenerationSubmit, { generationId: id }, { jobId: generationJobId.submit(id) });
  }

  /** Adds another try of a start the vendor refused without starting anything, after `delayMs`. */
  resubmit(row: { id: string; attempts: number }, delayMs: number): Promise<void> {
    return this.queue.add(
      JobName.GenerationSubmit,
      { generationId: row.id },
      { delayMs, jobId: generationJobId.resubmit(row.id, row.attempts + 1) },
    );
  }

  /**
   * Adds poll step `n`; its job id makes adding the same pending step twice a no-op. `errors`: how
   * many status checks failed in a row before it (the step waits longer for each).
   */
  schedulePoll(id: string, n: number, source: PollSource = 'poll', delayMs?: number, errors = 0): Promise<void> {
    return this.queue.add(
      JobName.GenerationPoll,
      { generationId: id, n, source, ...(errors ? { errors } : {}) },
      { ...(delayMs !== undefined ? { delayMs } : {}), jobId: generationJobId.poll(id, n, source), ...GENERATION_POLL_OPTIONS },
    );
  }

  /**
   * Removes the timed poll step `n` while it still waits: a webhook's step `n` has taken its place
   * (the timed one would find the step claimed and do nothing). Best effort, never throws.
   */
  async dropTimedPoll(id: string, n: number): Promise<void> {
    try {
      await this.queue.removePending(JobName.GenerationPoll, generationJobId.poll(id, n, 'poll'));
    } catch (error) {
      this.logger.debug(`The timed poll step ${n} of ${id} stays (a no-op when it runs): ${message(error)}`);
    }
  }

  /** Schedules the sweep that resumes stalled generations every `everyMs` (once, whoever calls it). */
  scheduleSweep(everyMs: number): Promise<void> {
    return this.queue.addRepeatable(JobName.GenerationSweep, {}, everyMs, SWEEP_SCHEDULE_KEY);
  }

  /** Asks the provider to stop a job (when it can). Never throws: the generation has ended on our side already. */
  async cancelAtProvider(providerJobId: string): Promise<void> {
    await this.provider.cancel?.(providerJobId).catch((e: unknown) => this.logger.warn(`cancel ${providerJobId}: ${message(e)}`));
  }

  /**
   * A generation failed at its deadline: asks the provider to stop the job, then to forget what it
   * keeps of it. We will never fetch its result (the credits were released), so a completion the
   * vendor reports later is not taken. Best effort, never throws: a vendor that cannot cancel a job
   * it has started (DashScope once a task runs, FASHN at all) finishes it and keeps the result until
   * its own retention ends.
   */
  async abandonAtProvider(providerJobId: string): Promise<void> {
    await this.cancelAtProvider(providerJobId);
    await this.discardAtProvider(providerJobId);
  }

  /** Lets the provider drop its own files of a job (the preview renderer keeps them under the user's prefix). Never throws. */
  async discardAtProvider(providerJobId: string): Promise<void> {
    await this.provider.discard?.(providerJobId).catch(() => undefined);
  }

  /**
   * Deletes the result file of a removed generation. When storage fails, a queue job retries it
   * (minutes apart), so a removed picture does not linger; never throws.
   */
  async deleteResultFile(key: string, generationId: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(`Could not delete the file of removed generation ${generationId} (${message(error)}): a job will retry`);
      await this.queue
        .add(JobName.GenerationFileDelete, { key }, { ...GENERATION_FILE_DELETE_OPTIONS, jobId: generationJobId.fileDelete(generationId) })
        .catch((e: unknown) =>
          this.logger.error(`The file ${key} of removed generation ${generationId} remains: no retry could be queued (${message(e)})`),
        );
    }
  }

  @OnJob(JobName.GenerationFileDelete)
  async handleGenerationFileDelete(data: JobPayload<JobName.GenerationFileDelete>): Promise<void> {
    await this.storage.delete(data.key);
  }
}
