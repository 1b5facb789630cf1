import { EventEmitter } from 'node:events';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../../config/config.module';
import {
  GenerationLifecycle,
  type GenerationCompletedEvent,
  type GenerationFailedEvent,
  type GenerationProgressEvent,
} from './generation-lifecycle';
import type { AppConfig } from '../../config/app-config';
import type { Progress } from './generation-progress';

/** What a running generation announces; the SSE route turns these into `progress`, `completed`, `failed`. */
export type GenerationEvent = ({ type: 'progress' } & Progress) | { type: 'completed' } | { type: 'failed'; reason: string };

export type GenerationEventListener = (event: GenerationEvent) => void;

/** The longest a publish is waited for: an event is a hint, the record in PostgreSQL is the truth. */
const PUBLISH_WAIT_MS = 1000;

/**
 * Progress events of generations (heard on the in-process bus: generation.progress, .completed,
 * .failed), from whichever process runs the job to whichever API process
 * holds the browser's event stream: Redis pub/sub (channel `<QUEUE_PREFIX>:generation-events:<id>`)
 * when REDIS_URL is set, an in-process EventEmitter otherwise (then jobs run in the API process).
 * Events are hints, never the truth: the stream reads the record from PostgreSQL for the final
 * state, so a lost message delays an update at worst. Publishing never throws, and never waits for
 * a Redis that is away (the event is dropped: a start or a job must not wait on a hint).
 */
@Injectable()
export class GenerationEventsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('GenerationEvents');
  private readonly local = new EventEmitter();
  private publisher?: Redis;
  private subscriber?: Redis;
  private subscriberReady?: Promise<Redis>;
  /** channels this process subscribes to in Redis, with how many local listeners each */
  private readonly subscriptions = new Map<string, number>();
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.local.setMaxListeners(0);
  }

  private get redisUrl(): string | undefined {
    return this.config.queue.redisUrl;
  }

  private channel(generationId: string): string {
    return `${this.config.queue.prefix}:generation-events:${generationId}`;
  }

  onModuleInit(): void {
    // connected from the start, so that it is ready by the first event; no offline queue: while
    // Redis is away a publish fails at once instead of waiting for it
    if (this.redisUrl) this.publisher = this.connect('events-pub', { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  }

  async publish(generationId: string, event: GenerationEvent): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.redisUrl) {
        this.local.emit(generationId, event);
        return;
      }
      this.publisher ??= this.connect('events-pub', { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      if (this.publisher.status !== 'ready') return; // Redis is away: the hint is dropped
      const sent = this.publisher.publish(this.channel(generationId), JSON.stringify(event));
      sent.catch(() => undefined);
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, PUBLISH_WAIT_MS).unref())]);
    } catch (error) {
      this.logger.warn(`Could not publish an event of ${generationId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  @OnEvent(GenerationLifecycle.progress)
  onProgress(event: GenerationProgressEvent): Promise<void> {
    return this.publish(event.generationId, { type: 'progress', ...event.progress });
  }

  @OnEvent(GenerationLifecycle.completed)
  onCompleted(event: GenerationCompletedEvent): Promise<void> {
    return this.publish(event.generationId, { type: 'completed' });
  }

  @OnEvent(GenerationLifecycle.failed)
  onFailed(event: GenerationFailedEvent): Promise<void> {
    return this.publish(event.generationId, { type: 'failed', reason: event.reason });
  }

  /** Listens to one generation's events; answers the function that stops listening. */
  async subscribe(generationId: string, listener: GenerationEventListener): Promise<() => Promise<void>> {
    const channel = this.channel(generationId);
    if (this.redisUrl) {
      const subscriber = await this.connectSubscriber();
      const count = this.subscriptions.get(channel) ?? 0;
      this.subscriptions.set(channel, count + 1);
      if (count === 0) {
        try {
          await subscriber.subscribe(channel);
        } catch (error) {
          this.subscriptions.delete(channel);
          throw error;
        }
      }
    }
    this.local.on(generationId, listener);
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      this.local.off(generationId, listener);
      if (!this.redisUrl || !this.subscriber) return;
      const left = (this.subscriptions.get(channel) ?? 1) - 1;
      if (left > 0) {
        this.subscriptions.set(channel, left);
        return;
      }
      this.subscriptions.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.local.removeAllListeners();
    await Promise.all(
      [this.publisher, this.subscriber].filter((c): c is Redis => c !== undefined).map((c) => c.quit().catch(() => c.disconnect())),
    );
  }

  private onMessage(channel: string, message: string): void {
    const prefix = `${this.config.queue.prefix}:generation-events:`;
    if (!channel.startsWith(prefix)) return;
    try {
      this.local.emit(channel.slice(prefix.length), JSON.parse(message) as GenerationEvent);
    } catch {
      this.logger.warn(`Ignored a malformed event on ${channel}`);
    }
  }

  /**
   * One subscriber connection per process, connected (ready check done) before its first SUBSCRIBE:
   * a SUBSCRIBE queued while connecting would put the connection in subscriber mode before
   * ioredis's ready check (INFO), which then fails.
   */
  private connectSubscriber(): Promise<Redis> {
    this.subscriberReady ??= (async () => {
      const subscriber = this.connect('events-sub', { lazyConnect: true });
      subscriber.on('message', (ch: string, message: string) => this.onMessage(ch, message));
      this.subscriber = subscriber;
      await subscriber.connect();
      return subscriber;
    })().catch((error: unknown) => {
      this.subscriberReady = undefined;
      this.subscriber?.disconnect();
      this.subscriber = undefined;
      throw error;
    });
    return this.subscriberReady;
  }

  private connect(role: string, extra: { lazyConnect?: boolean; enableOfflineQueue?: boolean; maxRetriesPerRequest?: number } = {}): Redis {
    const connection = new Redis(this.redisUrl!, {
      connectionName: `${this.config.queue.prefix}-${role}`,
      maxRetriesPerRequest: 3,
      ...extra,
    });
    let lastError: string | undefined;
    connection.on('error', (error: Error) => {
      if (error.message !== lastError) this.logger.warn(`Redis (${role}): ${error.message}`);
      lastError = error.message;
    });
    return connection;
  }
}
