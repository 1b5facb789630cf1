import { Injectable, Logger } from '@nestjs/common';
import { ServiceUnavailableError } from '../../common/errors';
import { GenerationEventsService } from './generation-events.service';
import { GenerationPresenter } from './generation-presenter';
import { GENERATION_MESSAGES, progressOf, progressSteps, STAGE_ORDER, type Progress } from './generation-progress';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import { GenerationsService } from './generations.service';
import type { Response } from 'express';

/** A comment line every 15 s keeps proxies from closing an idle stream. */
export const SSE_HEARTBEAT_MS = 15_000;

/** Writes server-sent events to an Express response. */
export class SseWriter {
  constructor(private readonly res: Response) {}

  open(): void {
    this.res.status(200);
    this.res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('Cache-Control', 'no-cache, no-store, no-transform');
    this.res.setHeader('Connection', 'keep-alive');
    this.res.setHeader('X-Accel-Buffering', 'no'); // nginx: do not buffer the stream
    this.res.flushHeaders();
    this.res.write('retry: 3000\n\n');
  }

  event(name: string, data: unknown): void {
    if (this.res.writableEnded) return;
    this.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  comment(text: string): void {
    if (!this.res.writableEnded) this.res.write(`: ${text}\n\n`);
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }
}

/**
 * GET /api/generations/:id/events: the owner's live view of one generation. Events: `progress`
 * `{ stage, message, poll, max_polls }` (never backwards), then `completed` `{ generation }` or
 * `failed` `{ reason }`, after which the stream closes. The current state is sent first, after the
 * stages passed before it (from "Saving your request..." on), and a stage skipped between
 * two events is filled in, so the browser can show each of the product's messages in order, also
 * when it connects late, reconnects, or the generation was quick; a completed generation's
 * "Finishing touches..." comes before `completed`. Final states are always read from
 * PostgreSQL (events are only the trigger), and the heartbeat re-reads the record too, so a lost
 * event delays the end by 15 s at most.
 */
@Injectable()
export class GenerationStreamService {
  private readonly logger = new Logger('GenerationStream');
  heartbeatMs = SSE_HEARTBEAT_MS;

  constructor(
    private readonly generations: GenerationsService,
    private readonly presenter: GenerationPresenter,
    private readonly repo: GenerationsRepository,
    private readonly events: GenerationEventsService,
  ) {}

  async open(userId: string, id: string, res: Response): Promise<void> {
    const sse = new SseWriter(res);
    let finished = false;
    let last: Progress | undefined;
    // whose renderer: a stage filled in between two events is worded for it ("Making your preview...")
    let provider: string | undefined;
    // the first state is read after subscribing, so no event falls between the two; events wait behind it
    let firstState!: (row: GenerationEntity) => void;
    let chain: Promise<void> = new Promise<GenerationEntity>((resolve) => (firstState = resolve)).then((row) => sendState(row));
    const enqueue = (work: () => Promise<void>) => {
      chain = chain
        .then(() => (finished ? undefined : work()))
        .catch((error) => this.logger.warn(`stream of ${id}: ${error instanceof Error ? error.message : error}`));
    };
    const sendProgress = (p: Progress) => {
      const newer = !last || STAGE_ORDER[p.stage] > STAGE_ORDER[last.stage] || (p.stage === last.stage && p.poll > last.poll);
      if (!newer) return;
      for (const step of progressSteps(last, p, provider)) {
        sse.event('progress', { stage: step.stage, message: step.message, poll: step.poll, max_polls: step.max_polls });
      }
      last = p;
    };
    const sendState = async (row: GenerationEntity | null) => {
      provider = row?.provider ?? provider;
      if (!row) {
        sse.event('failed', { reason: GENERATION_MESSAGES.notFound });
      } else if (row.status === GenerationStatus.Completed) {
        // every completed generation was finalized: the stages up to it first, in case they were not sent
        sendProgress(progressOf({ ...row, status: GenerationStatus.Processing, stage: GenerationStage.Finalizing }));
        sse.event('completed', { generation: await this.presenter.toDto(row) });
      } else if (row.status === GenerationStatus.Failed) {
        sse.event('failed', { reason: row.error ?? GENERATION_MESSAGES.failed });
      } else {
        sendProgress(progressOf(row));
        return;
      }
      await close();
    };

    const close = async () => {
      if (finished) return;
      finished = true;
      clearInterval(heartbeat);
      await unsubscribe();
      sse.end();
    };
    const unsubscribe = await this.events
      .subscribe(id, (event) =>
        enqueue(async () => {
          if (event.type === 'progress') sendProgress(event);
          else await sendState(await this.repo.findById(id));
        }),
      )
      .catch((error: unknown) => {
        // Redis away: no live view; the user app polls GET /api/generations/:id instead
        this.logger.warn(`stream of ${id} cannot listen for events: ${error instanceof Error ? error.message : error}`);
        throw new ServiceUnavailableError();
      });
    let row: GenerationEntity;
    try {
      row = await this.generations.findOwn(userId, id); // 404 before the stream opens
    } catch (error) {
      finished = true;
      await unsubscribe();
      throw error;
    }
    sse.open();
    const heartbeat = setInterval(
      () =>
        enqueue(async () => {
          sse.comment('heartbeat');
          const current = await this.repo.findById(id);
          if (current?.status !== GenerationStatus.Processing) await sendState(current);
        }),
      this.heartbeatMs,
    );
    heartbeat.unref(); // the stream's socket keeps the process alive while it is open, not its heartbeat
    res.on('close', () => void close());
    if (res.destroyed) return close(); // the browser left while we read
    firstState(row);
  }
}
