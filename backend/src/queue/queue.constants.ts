/**
 * The queue's vocabulary: which queues exist, which jobs exist, what each job carries and which
 * queue it goes to. One place for each fact; handlers and producers import from here.
 */

/** Queues (BullMQ: one Redis queue and one Worker each). */
export enum QueueName {
  Generations = 'generations',
  Maintenance = 'maintenance',
}

/** Every job the app knows. A job has exactly one handler (checked at worker startup). */
export enum JobName {
  MaintenanceHeartbeat = 'maintenance.heartbeat',
  /** deletes sessions that ended (expired or revoked) more than SESSIONS_RETENTION_DAYS ago (scheduled daily) */
  SessionsCleanup = 'auth.sessions-cleanup',
  CreditsMonthlyReset = 'credits.monthly-reset',
  /** deletes uploaded photos unused for UPLOAD_RETENTION_DAYS (privacy; scheduled every 6 hours) */
  UploadsRetentionSweep = 'uploads.retention-sweep',
  /** deletes the files of a deleted account when DELETE /api/me could not (retried with backoff) */
  AccountFilesCleanup = 'privacy.account-files-cleanup',
  /** deletes the result file of a removed generation when the removal could not (retried with backoff) */
  GenerationFileDelete = 'generation.file-delete',
  /** asks the AI provider to start a generation (once per generation, see generation-worker.service.ts) */
  GenerationSubmit = 'generation.submit',
  /** poll step `n` of a running generation (or an immediate check after the provider's webhook) */
  GenerationPoll = 'generation.poll',
  /** looks for running generations whose jobs were lost (a crash) and resumes them */
  GenerationSweep = 'generation.sweep',
  /** raises an admin notification when too many jobs wait (scheduled every ALERT_QUEUE_BACKLOG_CHECK_EVERY_MIN) */
  NotificationsQueueBacklogCheck = 'notifications.queue-backlog-check',
  /** mails a support reply to the requester through SMTP (retried; the request never waits for SMTP) */
  SupportReplyMail = 'support.reply-mail',
  /** security mail of an account: verification link, password reset link, password or two-factor changed (always sent) */
  AccountMail = 'auth.account-mail',
  /** mail a person chose to get: generation finished, account notices, marketing (each behind its setting) */
  UserMail = 'mail.user-mail',
  /** an admin's announcement: queues the marketing mail of one batch of opted-in accounts, then the next batch */
  MailAnnouncement = 'mail.announcement',
  /** clears the text of refused custom poses older than 30 days (scheduled daily); the rows stay for the counts */
  SafetyRefusalsSweep = 'safety.refusals-sweep',
  /** mails the receipt of a report of an image to the reporter */
  SupportReceiptMail = 'support.receipt-mail',
  /** deletes the copies reports uploaded, REPORTED_IMAGE_RETENTION_DAYS after their tickets were resolved (scheduled every 6 hours) */
  SupportReportedImagesSweep = 'support.reported-images-sweep',
  /** computes the picture signatures of results stored without one (older results; scheduled every 10 minutes) */
  SupportSignatureSweep = 'support.signature-sweep',
  /** applies one stored Stripe webhook event (stripe_events) to subscriptions, purchases and credits, once */
  BillingStripeEvent = 'billing.stripe-event',
  /** deletes the Idempotency-Keys older than 24 hours (scheduled hourly) */
  IdempotencyKeysSweep = 'idempotency.keys-sweep',
  /** one attempt of a developer webhook delivery (docs/api.md); a failed attempt queues the next, with backoff, for a day */
  DeveloperWebhookDeliver = 'developer-webhooks.deliver',
  /** re-queues deliveries whose attempt is overdue (a lost job) and deletes the delivery log past 30 days (every 5 minutes) */
  DeveloperWebhooksSweep = 'developer-webhooks.sweep',
}

/** What an AccountMail job sends; the job looks the account up and issues any link itself. */
export type AccountMailPayload =
  /** after a sign-up or "Resend": the verification link (or, when another account owns the address, a notice to that owner) */
  | { kind: 'verify-email'; userId: string }
  /** "Resend" while signed out: a verification link for the newest unverified account of the address, if any */
  | { kind: 'verify-address'; email: string }
  /** a sign-up with an address that already has an account: no account is made, the address is offered sign in and a reset link */
  | { kind: 'sign-up-existing'; email: string }
  /** "Forgot password?": a reset link to the account that uses the address, if any (nothing otherwise) */
  | { kind: 'password-reset'; email: string }
  | { kind: 'password-changed'; userId: string }
  /** two-factor turned on or off; `renewed`: a new set of recovery codes (two-factor stays on) */
  | { kind: 'two-factor'; userId: string; enabled: boolean; renewed?: boolean }
  /** unverified accounts of the address were removed (created at `removed`, ISO): told to the address; `setPassword` adds a link to choose one */
  | { kind: 'sign-ups-removed'; userId: string; removed: string[]; setPassword?: boolean };

/** What a UserMail job sends; each kind is sent only while the person's setting allows it. */
export type UserMailPayload =
  | { kind: 'generation-finished'; userId: string; generationId: string }
  | { kind: 'account-notice'; userId: string; title: string; lines: string[] }
  | { kind: 'marketing'; userId: string; subject: string; body: string };

/**
 * Payload of each job. Payloads travel as JSON (BullMQ stores them in Redis; the in-process
 * driver round-trips them through JSON too), so use plain data: ids and strings, no Dates or
 * class instances. A JobName without an entry here is a compile error in JobPayload below.
 */
export interface JobPayloads {
  [JobName.MaintenanceHeartbeat]: { at?: string };
  [JobName.SessionsCleanup]: Record<string, never>;
  [JobName.CreditsMonthlyReset]: Record<string, never>;
  [JobName.UploadsRetentionSweep]: Record<string, never>;
  /** the deleted account's id: its files are everything under `users/<userId>/` */
  [JobName.AccountFilesCleanup]: { userId: string };
  /** the storage key of the removed generation's result */
  [JobName.GenerationFileDelete]: { key: string };
  [JobName.GenerationSubmit]: { generationId: string };
  /** `n`: the poll step (1-based); each step runs at most once (claimed in PostgreSQL). */
  /** `errors`: status checks in a row that failed (a 429, 5xx, timeout): the next waits longer */
  [JobName.GenerationPoll]: { generationId: string; n: number; source?: 'poll' | 'webhook' | 'resume'; errors?: number };
  [JobName.GenerationSweep]: Record<string, never>;
  [JobName.NotificationsQueueBacklogCheck]: Record<string, never>;
  /** the support_messages row of the reply */
  [JobName.SupportReplyMail]: { messageId: string };
  [JobName.AccountMail]: AccountMailPayload;
  [JobName.UserMail]: UserMailPayload;
  /** `afterId`: the batch starts after this account id (ids in order) */
  [JobName.MailAnnouncement]: { subject: string; body: string; afterId?: string };
  [JobName.SafetyRefusalsSweep]: Record<string, never>;
  [JobName.SupportReceiptMail]: { inquiryId: string };
  [JobName.SupportReportedImagesSweep]: Record<string, never>;
  [JobName.SupportSignatureSweep]: Record<string, never>;
  /** the id of the Stripe event (evt_...) stored in stripe_events */
  [JobName.BillingStripeEvent]: { eventId: string };
  [JobName.IdempotencyKeysSweep]: Record<string, never>;
  /** the developer_webhook_deliveries row, and the attempt this job makes (1-based; run at most once) */
  [JobName.DeveloperWebhookDeliver]: { deliveryId: string; attempt: number };
  [JobName.DeveloperWebhooksSweep]: Record<string, never>;
}

export type JobPayload<N extends JobName> = JobPayloads[N];

/** Which queue each job goes to. */
export const JOB_QUEUE: Record<JobName, QueueName> = {
  [JobName.MaintenanceHeartbeat]: QueueName.Maintenance,
  [JobName.SessionsCleanup]: QueueName.Maintenance,
  [JobName.CreditsMonthlyReset]: QueueName.Maintenance,
  [JobName.UploadsRetentionSweep]: QueueName.Maintenance,
  [JobName.AccountFilesCleanup]: QueueName.Maintenance,
  [JobName.GenerationFileDelete]: QueueName.Maintenance,
  [JobName.GenerationSubmit]: QueueName.Generations,
  [JobName.GenerationPoll]: QueueName.Generations,
  [JobName.GenerationSweep]: QueueName.Maintenance,
  [JobName.NotificationsQueueBacklogCheck]: QueueName.Maintenance,
  [JobName.SupportReplyMail]: QueueName.Maintenance,
  [JobName.AccountMail]: QueueName.Maintenance,
  [JobName.UserMail]: QueueName.Maintenance,
  [JobName.MailAnnouncement]: QueueName.Maintenance,
  [JobName.SafetyRefusalsSweep]: QueueName.Maintenance,
  [JobName.SupportReceiptMail]: QueueName.Maintenance,
  [JobName.SupportReportedImagesSweep]: QueueName.Maintenance,
  [JobName.SupportSignatureSweep]: QueueName.Maintenance,
  [JobName.BillingStripeEvent]: QueueName.Maintenance,
  [JobName.IdempotencyKeysSweep]: QueueName.Maintenance,
  [JobName.DeveloperWebhookDeliver]: QueueName.Maintenance,
  [JobName.DeveloperWebhooksSweep]: QueueName.Maintenance,
};

/** Mail jobs retry for about half an hour (30 s, 1, 2, 4, 8 minutes) before giving up. */
export const MAIL_JOB_OPTIONS = { attempts: 6, backoffMs: 30_000 } as const;

/** Defaults of JobOptions. */
export const DEFAULT_JOB_ATTEMPTS = 3;
export const DEFAULT_JOB_BACKOFF_MS = 1000;

/** How often the heartbeat job runs, and the key of its schedule. */
export const HEARTBEAT_EVERY_MS = 60_000;
export const HEARTBEAT_SCHEDULE_KEY = 'maintenance-heartbeat';

/** Injection token of the QueueDriver (see queue.port.ts). */
export const QUEUE_DRIVER = Symbol('QUEUE_DRIVER');
/** Injection token of the QueueModuleOptions given to QueueModule.forRoot. */
export const QUEUE_MODULE_OPTIONS = Symbol('QUEUE_MODULE_OPTIONS');
/** Metadata key written by @OnJob. */
export const ON_JOB_METADATA = 'fitting-room:queue:on-job';
