import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TEST_EVENT, type WebhookEventType } from '@fitting-room/shared/developer-api';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { type AuthUser } from '../../common/auth';
import { NotFoundError, ValidationError } from '../../common/errors';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob, type JobPayload } from '../../queue';
import { SecretBox } from '../auth/two-factor/totp';
import { CREDITS_CHANGED_EVENT, type CreditsChangedEvent } from '../credits/credits-changes.subscriber';
import { CreditsService } from '../credits/credits.service';
import { GenerationLifecycle, type GenerationCompletedEvent, type GenerationFailedEvent } from '../generations/generation-lifecycle';
import { UserMailService } from '../users/user-mail.service';
import { type WebhookDeliveryEntity, WebhookDeliveryState, type WebhookEndpointEntity } from './developer-webhook.entities';
import { type DeliveryLogRow, DeveloperWebhooksRepository } from './developer-webhooks.repository';
import {
  type WebhookDeliveryDto,
  type WebhookEndpointCreateDto,
  type WebhookEndpointCreatedDto,
  type WebhookEndpointDto,
  WebhookMessages,
} from './dto/webhook.dto';
import { resolvesToPublicOnly, webhookUrlProblem, bareHost } from './webhook-address';
import { sendDelivery, signatureHeader } from './webhook-sender';

/** Endpoints one account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/**
 * The waits between attempts (after attempt n fails, the next comes RETRY_DELAYS_MS[n-1] later):
 * ten attempts over about 24 hours, as Stripe retries with exponential backoff.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1, 5, 15, 30, 60, 120, 240, 480, 480].map((min) => min * 60_000);
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** An endpoint is switched off (and its owner mailed) after this many failed attempts in a row spanning this long. */
export const WEBHOOK_DISABLE_AFTER = { failures: 10, hours: 12 } as const;

/** The delivery log: this many latest deliveries per endpoint, each kept this long. */
export const WEBHOOK_LOG = { shown: 20, keptDays: 30 } as const;

const SWEEP_EVERY_MS = 5 * 60_000;
/** A pending delivery this late (its job lost, or its process gone mid-attempt) is queued again by the sweep. */
const OVERDUE_GRACE_MS = 10 * 60_000;
/** The queue's own retries of a deliver job: only for an error of ours (the database away), never for the endpoint's failure. */
const DELIVER_JOB_OPTIONS = { attempts: 3, backoffMs: 10_000 } as const;

const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

function deliveryDto(row: DeliveryLogRow): WebhookDeliveryDto {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    state: row.state,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_duration_ms: row.lastDurationMs,
    last_error: row.lastError,
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at: iso(row.nextAttemptAt),
    created_at: iso(row.createdAt)!,
  };
}

/**
 * Webhooks for developers (docs/api.md#webhooks): a person's endpoints (Settings), the events they
 * hear (generation.completed, generation.failed, credits.changed, from the in-process event bus,
 * after the change committed), and the deliveries, made by queue jobs in the worker: signed
 * (Fitting-Room-Signature), retried with backoff for about a day, logged, never to a private or
 * loopback address in production, and an endpoint that keeps failing is switched off with a mail.
 */
@Injectable()
export class DeveloperWebhooksService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DeveloperWebhooks');
  private readonly box: SecretBox;

  constructor(
    private readonly repo: DeveloperWebhooksRepository,
    private readonly queue: MessageQueueService,
    private readonly credits: CreditsService,
    private readonly mail: UserMailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const material = config.auth.encryptionKey ?? config.auth.jwtSecret;
    // its own key, derived apart from the two-factor secrets' (SecretBox derives again with HKDF)
    this.box = new SecretBox(createHmac('sha256', material).update('fr-webhook-secrets').digest('hex'));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.DeveloperWebhooksSweep, {}, SWEEP_EVERY_MS, 'developer-webhooks-sweep');
  }

  private get allowPrivate(): boolean {
    return this.config.developer.webhooksAllowPrivate;
  }

  // ---- the person's endpoints ----

  async create(caller: AuthUser, body: WebhookEndpointCreateDto): Promise<WebhookEndpointCreatedDto> {
    const problem = webhookUrlProblem(body.url, this.allowPrivate);
    if (problem) throw new ValidationError(problem);
    if (!this.allowPrivate && (await resolvesToPublicOnly(bareHost(new URL(body.url)))) === false) {
      throw new ValidationError('The URL must not point at a private, loopback or reserved address');
    }
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const row = await this.repo.transaction(async (m) => {
      if (!(await this.repo.lockOwner(m, caller.id))) throw new NotFoundError();
      if ((await this.repo.countEndpoints(m, caller.id)) >= MAX_WEBHOOK_ENDPOINTS) {
        throw new ValidationError(WebhookMessages.tooMany(MAX_WEBHOOK_ENDPOINTS));
      }
      return this.repo.insertEndpoint(m, {
        userId: caller.id,
        url: new URL(body.url).toString(),
        events: [...new Set(body.events)],
        secretSealed: this.box.seal(secret),
      });
    });
    this.logger.log({ event: 'webhook_endpoint_created', endpointId: row.id, events: row.events }, 'a webhook endpoint was added');
    return { ...this.endpointDto(row, []), secret };
  }

  async list(userId: string): Promise<WebhookEndpointDto[]> {
    const endpoints = await this.repo.endpointsOf(userId);
    const deliveries = await this.repo.recentDeliveries(
      endpoints.map((e) => e.id),
      WEBHOOK_LOG.shown,
    );
    return endpoints.map((e) =>
      this.endpointDto(
        e,
        deliveries.filter((d) => d.endpointId === e.id),
      ),
    );
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.repo.deleteEndpoint(userId, id))) throw new NotFoundError();
    this.logger.log({ event: 'webhook_endpoint_deleted', endpointId: id }, 'a webhook endpoint was deleted');
  }

  /** "Send test event": one `webhook.test` delivery (one attempt, no retries), to a switched-off endpoint too. */
  async sendTest(userId: string, id: string): Promise<WebhookDeliveryDto> {
    const endpoint = isUuid(id) ? await this.repo.findEndpoint(userId, id) : null;
    if (!endpoint) throw new NotFoundError();
    const [deliveryId] = await this.enqueue([endpoint.id], WEBHOOK_TEST_EVENT, {
      endpoint_id: endpoint.id,
      message: 'A test event sent from Settings',
    });
    const row = await this.repo.findDelivery(deliveryId);
    return deliveryDto(row!);
  }

  private endpointDto(e: WebhookEndpointEntity, deliveries: DeliveryLogRow[]): WebhookEndpointDto {
    return {
      id: e.id,
      url: e.url,
      events: e.events as WebhookEventType[],
      enabled: !e.disabledAt,
      disabled_reason: e.disabledReason,
      disabled_at: iso(e.disabledAt),
      created_at: iso(e.createdAt)!,
      deliveries: deliveries.map(deliveryDto),
    };
  }

  // ---- the events ----

  @OnEvent(GenerationLifecycle.completed)
  async onGenerationCompleted(event: GenerationCompletedEvent): Promise<void> {
    await this.publish(event.userId, 'generation.completed', {
      generation: {
        id: event.generationId,
        status: 'completed',
        type: event.type,
        category: event.category,
        credits_charged: event.charged,
        url: this.apiUrl(`/api/generations/${event.generationId}`),
        download_url: this.apiUrl(`/api/generations/${event.generationId}/download`),
      },
    });
  }

  @OnEvent(GenerationLifecycle.failed)
  async onGenerationFailed(event: GenerationFailedEvent): Promise<void> {
    await this.publish(event.userId, 'generation.failed', {
      generation: {
        id: event.generationId,
        status: 'failed',
        reason: event.reason,
        refused: event.refused,
        cancelled: event.cancelled,
        url: this.apiUrl(`/api/generations/${event.generationId}`),
      },
    });
  }

  @OnEvent(CREDITS_CHANGED_EVENT)
  async onCreditsChanged(event: CreditsChangedEvent): Promise<void> {
    try {
      const endpoints = await this.repo.subscribedEndpoints(event.userId, 'credits.changed');
      if (!endpoints.length) return;
      // the balance once the change committed (a later change sends its own event)
      const balance = await this.credits.getBalance(event.userId);
      const changes = event.changes.map((c) => ({ kind: c.kind, bucket: c.bucket, amount: c.amount }));
      await this.enqueue(
        endpoints.map((e) => e.id),
        'credits.changed',
        { balance, changes },
      );
    } catch (err) {
      this.logger.error({ event: 'webhook_event_not_recorded', type: 'credits.changed', err }, 'a webhook event could not be recorded');
    }
  }

  /** An event for every endpoint of the account that is on and subscribed to it; never fails its emitter. */
  private async publish(userId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
    try {
      const endpoints = await this.repo.subscribedEndpoints(userId, type);
      if (endpoints.length)
        await this.enqueue(
          endpoints.map((e) => e.id),
          type,
          data,
        );
    } catch (err) {
      this.logger.error({ event: 'webhook_event_not_recorded', type, err }, 'a webhook event could not be recorded');
    }
  }

  private apiUrl(path: string): string {
    return `${this.config.appUrl.replace(/\/+$/, '')}${path}`;
  }

  /** Records one delivery per endpoint (the same event id and body for all) and queues each first attempt. */
  private async enqueue(endpointIds: string[], type: string, data: Record<string, unknown>): Promise<string[]> {
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type, created_at: new Date().toISOString(), data });
    const ids = await this.repo.insertDeliveries(endpointIds.map((endpointId) => ({ endpointId, eventId, eventType: type, body })));
    for (const id of ids) await this.queueAttempt(id, 1, 0);
    return ids;
  }

  private async queueAttempt(deliveryId: string, attempt: number, delayMs: number): Promise<void> {
    try {
      await this.queue.add(
        JobName.DeveloperWebhookDeliver,
        { deliveryId, attempt },
        { ...DELIVER_JOB_OPTIONS, delayMs, jobId: `webhook-${deliveryId}-${attempt}` },
      );
    } catch (err) {
      // the sweep queues it again once it is overdue
      this.logger.warn({ event: 'webhook_attempt_not_queued', deliveryId, attempt, err }, 'a webhook attempt could not be queued');
    }
  }

  // ---- the deliveries (worker) ----

  @OnJob(JobName.DeveloperWebhookDeliver)
  async deliver(data: JobPayload<JobName.DeveloperWebhookDeliver>): Promise<void> {
    const claimed = await this.repo.claimAttempt(data.deliveryId, data.attempt);
    if (!claimed) return; // already made (a duplicated or late job), or the delivery is over
    const test = claimed.eventType === WEBHOOK_TEST_EVENT;
    if (claimed.endpointDisabled && !test) {
      await this.repo.recordAttempt(
        claimed.id,
        { status: null, durationMs: 0, error: 'not sent: the endpoint is switched off' },
        { state: WebhookDeliveryState.Failed, nextAttemptAt: null },
      );
      return;
    }
    const secret = this.box.open(claimed.secretSealed);
    const outcome = await sendDelivery({
      url: claimed.url,
      body: claimed.body,
      allowPrivate: this.allowPrivate,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'FittingRoom-Webhooks/1.0',
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, claimed.body, Math.floor(Date.now() / 1000)),
        'Fitting-Room-Event': claimed.eventType,
        'Fitting-Room-Delivery': claimed.id,
      },
    });
    const log = { event: 'webhook_attempt', deliveryId: claimed.id, endpointId: claimed.endpointId, attempt: data.attempt };
    if (outcome.ok) {
      await this.repo.recordAttempt(claimed.id, outcome, { state: WebhookDeliveryState.Succeeded, nextAttemptAt: null });
      if (await this.repo.endpointSucceeded(claimed.endpointId)) {
        this.logger.log({ ...log, event: 'webhook_endpoint_enabled' }, 'a test event got through: the endpoint is on again');
      }
      this.logger.log({ ...log, status: outcome.status, ms: outcome.durationMs }, 'webhook delivered');
      return;
    }
    const last = test || data.attempt >= WEBHOOK_MAX_ATTEMPTS;
    const delay = last ? 0 : WEBHOOK_RETRY_DELAYS_MS[data.attempt - 1];
    await this.repo.recordAttempt(claimed.id, outcome, {
      state: last ? WebhookDeliveryState.Failed : WebhookDeliveryState.Pending,
      nextAttemptAt: last ? null : new Date(Date.now() + delay),
    });
    this.logger.warn({ ...log, status: outcome.status, error: outcome.error, final: last }, 'webhook attempt failed');
    if (!last) await this.queueAttempt(claimed.id, data.attempt + 1, delay);
    if (!test && (await this.repo.endpointFailed(claimed.endpointId, WEBHOOK_DISABLE_AFTER.failures, WEBHOOK_DISABLE_AFTER.hours))) {
      await this.tellSwitchedOff(claimed);
    }
  }

  private async tellSwitchedOff(delivery: Pick<WebhookDeliveryEntity, 'endpointId'> & { userId: string; url: string }): Promise<void> {
    this.logger.warn(
      { event: 'webhook_endpoint_disabled', endpointId: delivery.endpointId },
      'a failing webhook endpoint was switched off',
    );
    await this.mail.send({
      kind: 'account-notice',
      userId: delivery.userId,
      title: 'A webhook endpoint was switched off',
      lines: [
        `We switched off your webhook endpoint ${shownUrl(delivery.url)}: every delivery to it failed ` +
          `${WEBHOOK_DISABLE_AFTER.failures} times in a row over more than ${WEBHOOK_DISABLE_AFTER.hours} hours.`,
        'Its delivery log in Settings says what went wrong. Once it answers again, "Send test event" switches it back on.',
      ],
    });
  }

  @OnJob(JobName.DeveloperWebhooksSweep)
  async sweep(): Promise<void> {
    const overdue = await this.repo.overdue(OVERDUE_GRACE_MS, 500);
    for (const { id, attempt } of overdue) await this.queueAttempt(id, attempt, 0);
    let deleted = 0;
    for (;;) {
      const n = await this.repo.deleteOlderThan(WEBHOOK_LOG.keptDays, 5000);
      deleted += n;
      if (n < 5000) break;
    }
    if (overdue.length || deleted) {
      this.logger.log({ event: 'webhook_sweep', requeued: overdue.length, deleted }, 'webhook deliveries swept');
    }
  }
}

/** An endpoint as a mail names it: its origin and path (a query may carry a secret of the receiver's). */
function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
