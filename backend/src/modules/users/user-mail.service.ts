import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { appLink, APP_PAGES } from '../../common/app-links';
import { APP_CONFIG } from '../../config/config.module';
import { JobName, MAIL_JOB_OPTIONS, MessageQueueService, OnJob, type JobPayload, type UserMailPayload } from '../../queue';
import { GenerationLifecycle, type GenerationCompletedEvent, type GenerationFailedEvent } from '../generations/generation-lifecycle';
import { GenerationsRepository } from '../generations/generations.repository';
import { Mailer, MailTemplates, type MailContent } from '../mail';
import { MAIL_CATEGORIES, type MailCategory, UnsubscribeTokens } from './mail-preferences';
import { UserSettingsService } from './user-settings.service';
import { UsersRepository } from './users.repository';
import type { AppConfig } from '../../config/app-config';

/** Accounts whose announcement mail one job queues. */
export const ANNOUNCEMENT_BATCH = 500;

function announcementKey(data: { subject: string; body: string }): string {
  return createHash('sha256').update(`${data.subject}\n${data.body}`).digest('hex').slice(0, 16);
}

/**
 * Mail a person chose to get: a finished generation ("Generation Notifications"), account notices
 * ("Email Notifications") and marketing ("Marketing Emails", off unless they opted in). The setting
 * is read when the mail is sent, each mail carries a one-click unsubscribe (List-Unsubscribe and
 * List-Unsubscribe-Post), and only a verified address gets any: an unverified one may not be theirs.
 */
@Injectable()
export class UserMailService {
  private readonly logger = new Logger('UserMail');
  readonly unsubscribe: UnsubscribeTokens;

  constructor(
    private readonly users: UsersRepository,
    private readonly generations: GenerationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: UserSettingsService,
    private readonly mailer: Mailer,
    private readonly queue: MessageQueueService,
  ) {
    this.unsubscribe = new UnsubscribeTokens(config.auth.jwtSecret);
  }

  /** A finished generation (completed or failed; not a cancel, which the person did) is mailed when they want it. */
  @OnEvent(GenerationLifecycle.completed)
  async onGenerationCompleted(event: GenerationCompletedEvent): Promise<void> {
    await this.send({ kind: 'generation-finished', userId: event.userId, generationId: event.generationId });
  }

  @OnEvent(GenerationLifecycle.failed)
  async onGenerationFailed(event: GenerationFailedEvent): Promise<void> {
    if (event.cancelled) return;
    await this.send({ kind: 'generation-finished', userId: event.userId, generationId: event.generationId });
  }

  /** Queues a mail; a queue that fails never fails the caller's work (it is logged). */
  async send(payload: UserMailPayload): Promise<void> {
    try {
      await this.queue.add(JobName.UserMail, payload, MAIL_JOB_OPTIONS);
    } catch (error) {
      this.logger.error({ event: 'user_mail_not_queued', kind: payload.kind, err: error }, 'a mail could not be queued');
    }
  }

  @OnJob(JobName.UserMail)
  async handleUserMail(data: JobPayload<JobName.UserMail>): Promise<void> {
    const user = await this.users.mailRecipient(data.userId); // with the preferences: one read
    if (!user?.emailVerifiedAt) return;
    const category: MailCategory =
      data.kind === 'generation-finished' ? 'generation' : data.kind === 'account-notice' ? 'account' : 'marketing';
    if (!user[MAIL_CATEGORIES[category].setting]) return;
    const settingsUrl = appLink(this.config.appUrl, APP_PAGES.settings);
    let content: MailContent;
    if (data.kind === 'generation-finished') {
      const generation = await this.generations.typeAndStatusOf(user.id, data.generationId);
      if (!generation || (generation.status !== 'completed' && generation.status !== 'failed')) return;
      content = MailTemplates.generationFinished(this.mailer.brand, {
        name: user.fullName,
        type: generation.type,
        completed: generation.status === 'completed',
        // a finished result opens in the app's viewer (after signing in); a failed one, the gallery
        url: appLink(this.config.appUrl, APP_PAGES.generations, generation.status === 'completed' ? { result: data.generationId } : {}),
        settingsUrl,
      });
    } else if (data.kind === 'account-notice') {
      content = MailTemplates.accountNotice(this.mailer.brand, { name: user.fullName, title: data.title, lines: data.lines, settingsUrl });
    } else {
      content = MailTemplates.marketing(this.mailer.brand, { name: user.fullName, subject: data.subject, body: data.body, settingsUrl });
    }
    const token = this.unsubscribe.sign(user.id, category);
    await this.mailer.deliver({
      to: user.email,
      toName: user.fullName,
      template: data.kind,
      content,
      unsubscribeUrl: `${this.config.appUrl}/api/mail/unsubscribe?token=${encodeURIComponent(token)}`,
      // the API route takes POSTs only: the link in the message opens the user app's page, which posts
      unsubscribePageUrl: appLink(this.config.appUrl, APP_PAGES.unsubscribe, { token }),
    });
  }

  /**
   * An admin's announcement: marketing mail to every verified account that opted in, queued a
   * batch at a time (each person's mail is its own job, which reads the setting again when sent).
   * Answers how many accounts it is for now.
   */
  async announce(subject: string, body: string): Promise<number> {
    const n = await this.users.countMarketingAudience();
    if (n > 0) await this.queue.add(JobName.MailAnnouncement, { subject, body }, MAIL_JOB_OPTIONS);
    return n;
  }

  @OnJob(JobName.MailAnnouncement)
  async handleAnnouncement(data: JobPayload<JobName.MailAnnouncement>): Promise<void> {
    const ids = await this.users.marketingAudienceAfter(data.afterId ?? null, ANNOUNCEMENT_BATCH);
    for (const id of ids) {
      // one job per person and announcement: a retried batch queues nobody twice
      await this.queue.add(
        JobName.UserMail,
        { kind: 'marketing', userId: id, subject: data.subject, body: data.body },
        { ...MAIL_JOB_OPTIONS, jobId: `announce-${announcementKey(data)}-${id}` },
      );
    }
    if (ids.length === ANNOUNCEMENT_BATCH) {
      await this.queue.add(JobName.MailAnnouncement, { ...data, afterId: ids[ids.length - 1] }, MAIL_JOB_OPTIONS);
    }
  }

  /** One-click unsubscribe: turns the token's setting off. Answers what was turned off, or null for a bad token. */
  async unsubscribeWith(token: string): Promise<MailCategory | null> {
    const parsed = this.unsubscribe.verify(token);
    if (!parsed) return null;
    const exists = await this.users.exists(parsed.userId);
    if (!exists) return null;
    const current = await this.settings.get(parsed.userId);
    await this.settings.put(parsed.userId, { ...current, [MAIL_CATEGORIES[parsed.category].setting]: false });
    return parsed.category;
  }
}
