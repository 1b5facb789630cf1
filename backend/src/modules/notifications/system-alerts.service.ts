import { plural } from '@fitting-room/shared/wording';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { OpsEvents, type OpsEvent } from '../../common/ops-events';
import { type AlertsConfig, type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { GenerationLifecycle, type GenerationFailedEvent } from '../generations/generation-lifecycle';
import { GENERATION_MESSAGES } from '../generations/generation-progress';
import { GenerationsRepository } from '../generations/generations.repository';
import { NotificationsService } from './notifications.service';
import { NotificationType, type SystemNotificationEntity } from './system-notification.entity';

/** A queue backlog is told at most once an hour. */
export const QUEUE_BACKLOG_NOTIFY_EVERY_MS = 60 * 60 * 1000;
export const QUEUE_BACKLOG_SCHEDULE_KEY = 'notifications-queue-backlog-check';

/**
 * Turns what happens in the system into admin notifications: a burst of failed generations
 * (ALERT_FAILED_GENERATIONS_THRESHOLD within ALERT_FAILED_GENERATIONS_WINDOW_MIN, at most one
 * notification per window), an account deletion (its pseudonym only), and, from a scheduled queue
 * job, a backlog of waiting jobs (above ALERT_QUEUE_BACKLOG_THRESHOLD, at most once an hour).
 * It listens on the generations' events and on OpsEvents, so the generations and privacy modules do
 * not know it exists.
 */
@Injectable()
export class SystemAlertsService implements OnModuleInit, OnModuleDestroy, OnApplicationBootstrap {
  private readonly logger = new Logger('SystemAlerts');
  private unsubscribe?: () => void;

  constructor(
    private readonly notifications: NotificationsService,
    private readonly ops: OpsEvents,
    private readonly queue: MessageQueueService,
    private readonly generations: GenerationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get alerts(): AlertsConfig {
    return this.config.alerts;
  }

  onModuleInit(): void {
    this.unsubscribe = this.ops.subscribe((event) => this.handle(event));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(
      JobName.NotificationsQueueBacklogCheck,
      {},
      this.alerts.queueBacklogCheckEveryMin * 60_000,
      QUEUE_BACKLOG_SCHEDULE_KEY,
    );
  }

  async handle(event: OpsEvent): Promise<void> {
    if (event.type === 'account.deleted') await this.accountDeleted(event.account);
    if (event.type === 'safety.custom-pose-paused') await this.customPosePaused(event.userId, event.refusals, event.until);
    if (event.type === 'faces.checks-failing') await this.faceChecksFailing(event.userId, event.refusals);
  }

  /** An account's face checks keep failing (someone else's selfie, a still picture): admins review it. */
  async faceChecksFailing(userId: string, refusals: number): Promise<SystemNotificationEntity | null> {
    return this.notifications.notify({
      type: NotificationType.FaceChecksFailing,
      severity: 'warning',
      title: 'Face checks failing for an account',
      message: `${refusals} face checks of account ${userId} were refused within a day (a selfie of someone else, a still picture held to the camera, or photos of another person). Review them under "Face checks" on the account's page in Users, and suspend it if it must stop.`,
      dedupeKey: `${NotificationType.FaceChecksFailing}:${userId}`,
      dedupeWindowMs: 24 * 3600_000,
    });
  }

  /** A failed generation may be one of a burst; a cancellation is the person's choice, not a failure of the system. */
  @OnEvent(GenerationLifecycle.failed)
  async onGenerationFailed(event: GenerationFailedEvent): Promise<void> {
    if (!event.cancelled) await this.checkFailedGenerations(event.reason);
  }

  /** An account's custom poses were refused too often: admins review it (its page lists the refused texts). */
  async customPosePaused(userId: string, refusals: number, until: string): Promise<SystemNotificationEntity | null> {
    return this.notifications.notify({
      type: NotificationType.CustomPosePaused,
      severity: 'warning',
      title: 'Custom poses paused for an account',
      message: `${refusals} custom poses of account ${userId} were refused within an hour; its custom poses are paused until ${until}. Review the refused texts on the account's page in Users, and suspend it if it must stop.`,
      dedupeKey: `${NotificationType.CustomPosePaused}:${userId}`,
      dedupeWindowMs: 24 * 3600_000,
    });
  }

  /** Counts failed generations (cancellations aside) in the window; at the threshold, one notification per window. */
  async checkFailedGenerations(latestReason?: string): Promise<SystemNotificationEntity | null> {
    const { failedGenerationsThreshold: threshold, failedGenerationsWindowMin: minutes } = this.alerts;
    const n = await this.generations.countFailedWithin(minutes, GENERATION_MESSAGES.cancelled);
    if (n < threshold) return null;
    return this.notifications.notify({
      type: NotificationType.GenerationFailures,
      severity: 'critical',
      title: 'Generations are failing',
      message: `${plural(n, 'generation')} failed in the last ${plural(minutes, 'minute')} (threshold ${threshold}).${latestReason ? ` Latest reason: ${latestReason.slice(0, 300)}` : ''} Check the AI provider and the queue.`,
      dedupeKey: NotificationType.GenerationFailures,
      dedupeWindowMs: minutes * 60_000,
    });
  }

  async accountDeleted(account: string): Promise<SystemNotificationEntity | null> {
    return this.notifications.notify({
      type: NotificationType.AccountDeleted,
      severity: 'info',
      title: 'An account was deleted',
      message: `A user deleted their account and all its data ("Delete All My Data"). Pseudonym in the logs: ${account}.`,
      dedupeKey: `${NotificationType.AccountDeleted}:${account}`,
    });
  }

  @OnJob(JobName.NotificationsQueueBacklogCheck)
  async handleQueueBacklogCheck(): Promise<void> {
    await this.checkQueueBacklog();
  }

  /** Jobs waiting above the threshold: one warning, at most once an hour. */
  async checkQueueBacklog(): Promise<SystemNotificationEntity | null> {
    const counts = await this.queue.counts();
    const threshold = this.alerts.queueBacklogThreshold;
    if (counts.waiting <= threshold) return null;
    this.logger.warn({ event: 'queue_backlog', ...counts, threshold }, 'queue backlog');
    return this.notifications.notify({
      type: NotificationType.QueueBacklog,
      severity: 'warning',
      title: 'Queue backlog',
      message: `${counts.waiting} jobs are waiting in the queue (threshold ${threshold}; ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed). Check that workers are running.`,
      dedupeKey: NotificationType.QueueBacklog,
      dedupeWindowMs: QUEUE_BACKLOG_NOTIFY_EVERY_MS,
    });
  }
}
