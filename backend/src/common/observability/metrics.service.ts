import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import * as fs from 'node:fs/promises';
import { Inject, Injectable, Logger, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { APP_CONFIG } from '../../config/config.module';
import { OpsEvents, type OpsEvent } from '../ops-events';
import { PROCESS_ROLE, type ProcessRole } from '../process-role';
import { signals, type CreditsSignal, type StripeEventSignal, type VendorCallSignal } from './signals';
import type { AppConfig } from '../../config/app-config';

/** One queue's depth and the age of its oldest waiting job, as the queue driver reports it at a scrape. */
export interface QueueSnapshot {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** seconds the oldest waiting job has waited; 0 when none waits */
  oldestWaitingSeconds: number;
}

/**
 * The generation events this listens to, by name (common/ imports no feature module; a unit test
 * checks the names against GenerationLifecycle).
 */
export const GENERATION_EVENTS = {
  started: 'generation.started',
  completed: 'generation.completed',
  failed: 'generation.failed',
} as const;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
const VENDOR_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LAG_SECONDS = [1, 5, 15, 60, 300, 900, 3600, 6 * 3600, 24 * 3600];
const GENERATION_SECONDS = [5, 15, 30, 60, 120, 300, 600, 900];
/** How long a scrape waits for the queue's counts before it reports without them. */
const QUEUE_SCRAPE_TIMEOUT_MS = 2000;

/**
 * The process's Prometheus metrics (prom-client), in a registry of this app's own (several apps
 * share a process in the tests). Labels come from bounded sets only: route templates (never a
 * path with an id), job names, queue names, vendors, outcomes, Stripe event types, safety reasons.
 * Served by MetricsServer on METRICS_PORT; the families and the alerts built on them are listed in
 * docs/operations.md#metrics.
 */
@Injectable()
export class Metrics implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  readonly registry = new Registry();
  private queueSource?: () => Promise<QueueSnapshot[]>;
  private queueRead?: Promise<QueueSnapshot[] | null>;
  private readonly unsubscribers: Array<() => void> = [];

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status class (2xx, 4xx, 5xx)',
    labelNames: ['method', 'route', 'status_class'],
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'fr_queue_job_duration_seconds',
    help: 'Time a queue job ran in this process, by job name and outcome (completed; retry: failed, runs again; failed: no run left)',
    // not `job`: Prometheus gives every scraped series the job of its target
    labelNames: ['job_name', 'outcome'],
    buckets: JOB_SECONDS,
    registers: [this.registry],
  });
  readonly vendorDuration = new Histogram({
    name: 'fr_vendor_request_duration_seconds',
    help: 'Calls to the AI vendor, by provider, method and outcome (ok, http_4xx, http_5xx, timeout, network, bad_response)',
    labelNames: ['provider', 'method', 'outcome'],
    buckets: VENDOR_SECONDS,
    registers: [this.registry],
  });
  readonly generationsStarted = new Counter({
    name: 'fr_generations_started_total',
    help: 'Generations started (recorded, credits held, queued), by type',
    labelNames: ['type'],
    registers: [this.registry],
  });
  readonly generationsFinished = new Counter({
    name: 'fr_generations_finished_total',
    help: 'Generations ended, by type and outcome (completed, failed, refused, cancelled)',
    labelNames: ['type', 'outcome'],
    registers: [this.registry],
  });
  readonly generationSeconds = new Histogram({
    name: 'fr_generation_duration_seconds',
    help: 'Time from the start of a generation to its stored result, by type',
    labelNames: ['type'],
    buckets: GENERATION_SECONDS,
    registers: [this.registry],
  });
  readonly credits = new Counter({
    name: 'fr_credits_total',
    help: 'Credits moved in the ledger, by flow (granted, held, captured, released)',
    labelNames: ['flow'],
    registers: [this.registry],
  });
  readonly stripeEvents = new Counter({
    name: 'fr_stripe_events_total',
    help: 'Stripe webhook events by stage (received, processed, retrying, failed) and type',
    labelNames: ['stage', 'type'],
    registers: [this.registry],
  });
  readonly stripeLag = new Histogram({
    name: 'fr_stripe_event_lag_seconds',
    help: "Time from a Stripe event's creation to its being applied (processed) or given up (failed)",
    labelNames: ['stage'],
    buckets: LAG_SECONDS,
    registers: [this.registry],
  });
  readonly safetyRefusals = new Counter({
    name: 'fr_safety_refusals_total',
    help: 'Custom poses refused by the safety check, by the most serious reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly faceRefusals = new Counter({
    name: 'fr_face_check_refusals_total',
    help: 'Face checks refused (kind: selfie or photo; outcome: mismatch, still, no_face, several_faces)',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  readonly safetyPauses = new Counter({
    name: 'fr_safety_pauses_total',
    help: 'Accounts whose custom poses were paused (too many refusals within an hour)',
    registers: [this.registry],
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(PROCESS_ROLE) role?: ProcessRole,
    @Optional() private readonly ops?: OpsEvents,
  ) {
    this.registry.setDefaultLabels({ role: role ?? 'api' });
    // the three queue families come from one read of the queue per scrape (their collects run together)
    const queueJobs = new Gauge({
      name: 'fr_queue_jobs',
      help: 'Jobs in each queue by state (waiting, active, delayed, failed), read from the queue at the scrape',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      collect: async () => {
        queueJobs.reset();
        for (const q of (await this.readQueue()) ?? []) {
          for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) queueJobs.set({ queue: q.queue, state }, q[state]);
        }
      },
    });
    const oldest = new Gauge({
      name: 'fr_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting in each queue (0 when none waits), read at the scrape',
      labelNames: ['queue'],
      registers: [this.registry],
      collect: async () => {
        oldest.reset();
        for (const q of (await this.readQueue()) ?? []) oldest.set({ queue: q.queue }, q.oldestWaitingSeconds);
      },
    });
    const queueUp = new Gauge({
      name: 'fr_queue_up',
      help: '1 when the queue (Redis) answered this scrape, 0 when it did not',
      registers: [this.registry],
      collect: async () => {
        if (this.queueSource) queueUp.set((await this.readQueue()) ? 1 : 0);
      },
    });
    const dataDir = config.dataDir;
    new Gauge({
      name: 'fr_data_dir_free_bytes',
      help: 'Free bytes on the file system of DATA_DIR (local files, the mail outbox)',
      registers: [this.registry],
      async collect() {
        const s = await fs.statfs(dataDir).catch(() => undefined); // no DATA_DIR yet: nothing to report
        if (s) this.set(s.bavail * s.bsize);
      },
    });
    new Gauge({
      name: 'fr_data_dir_size_bytes',
      help: 'Size of the file system of DATA_DIR',
      registers: [this.registry],
      async collect() {
        const s = await fs.statfs(dataDir).catch(() => undefined);
        if (s) this.set(s.blocks * s.bsize);
      },
    });
    new Gauge({
      name: 'fr_build_info',
      help: 'Always 1; the version and Node.js release in labels',
      labelNames: ['version', 'node'],
      registers: [this.registry],
    }).set({ version: process.env.npm_package_version ?? 'unknown', node: process.version }, 1);
  }

  /** The queue's counts, read at each scrape (MessageQueueService provides them). */
  observeQueue(source: () => Promise<QueueSnapshot[]>): void {
    this.queueSource = source;
  }

  onModuleInit(): void {
    // process metrics (CPU, memory, event loop lag, GC, handles) only where they are served
    if (this.config.metrics.port) collectDefaultMetrics({ register: this.registry });
    this.listen(signals.vendorCalls.name, (m: VendorCallSignal) =>
      this.vendorDuration.observe({ provider: m.vendor, method: m.method, outcome: m.outcome }, m.seconds),
    );
    this.listen(signals.credits.name, (m: CreditsSignal) => this.credits.inc({ flow: m.flow }, m.credits));
    this.listen(signals.stripeEvents.name, (m: StripeEventSignal) => {
      this.stripeEvents.inc({ stage: m.stage, type: m.type });
      if (m.lagSeconds !== undefined && (m.stage === 'processed' || m.stage === 'failed'))
        this.stripeLag.observe({ stage: m.stage }, m.lagSeconds);
    });
    if (this.ops) this.unsubscribers.push(this.ops.subscribe((event) => this.onOpsEvent(event)));
  }

  onApplicationShutdown(): void {
    for (const off of this.unsubscribers.splice(0)) off();
  }

  /** Prometheus text of every metric. */
  scrape(): Promise<string> {
    this.queueRead = undefined;
    return this.registry.metrics();
  }

  /** The queue's snapshot of this scrape (read once), or null when the queue did not answer in time. */
  private readQueue(): Promise<QueueSnapshot[] | null> {
    const source = this.queueSource;
    if (!source) return Promise.resolve(null);
    this.queueRead ??= withTimeout(source(), QUEUE_SCRAPE_TIMEOUT_MS).catch(() => null);
    return this.queueRead;
  }

  /** A job run by this process ended (MessageQueueService.dispatch). */
  jobEnded(job: string, outcome: 'completed' | 'retry' | 'failed', seconds: number): void {
    this.jobDuration.observe({ job_name: job, outcome }, seconds);
  }

  /** An HTTP request was answered (http-observer.ts). */
  httpAnswered(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }

  @OnEvent(GENERATION_EVENTS.started)
  onGenerationStarted(event: { type: string }): void {
    this.generationsStarted.inc({ type: event.type });
  }

  @OnEvent(GENERATION_EVENTS.completed)
  onGenerationCompleted(event: { type: string; durationMs: number }): void {
    this.generationsFinished.inc({ type: event.type, outcome: 'completed' });
    this.generationSeconds.observe({ type: event.type }, event.durationMs / 1000);
  }

  @OnEvent(GENERATION_EVENTS.failed)
  onGenerationFailed(event: { type?: string; refused: boolean; cancelled: boolean }): void {
    const outcome = event.cancelled ? 'cancelled' : event.refused ? 'refused' : 'failed';
    this.generationsFinished.inc({ type: event.type ?? 'unknown', outcome });
  }

  private onOpsEvent(event: OpsEvent): void {
    if (event.type === 'safety.custom-pose-refused') this.safetyRefusals.inc({ reason: event.reason });
    if (event.type === 'safety.custom-pose-paused') this.safetyPauses.inc();
    if (event.type === 'faces.check-refused') this.faceRefusals.inc({ kind: event.kind, outcome: event.outcome });
  }

  private listen<T>(name: string | symbol, handler: (message: T) => void): void {
    const onMessage = (message: unknown) => {
      try {
        handler(message as T);
      } catch (error) {
        this.logger.warn(`a metric of ${String(name)} could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    subscribe(name, onMessage);
    this.unsubscribers.push(() => unsubscribe(name, onMessage));
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
