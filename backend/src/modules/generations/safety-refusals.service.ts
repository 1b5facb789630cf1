import { plural } from '@fitting-room/shared/wording';
import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { AppError, SafetyErrorCode } from '../../common/errors';
import { OpsEvents } from '../../common/ops-events';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { UsersRepository } from '../users/users.repository';
import { assessCustomPose, customPoseError, type SafetyReason } from './safety';
import { SafetyRefusalsRepository } from './safety-refusals.repository';
import type { AuthUser } from '../../common/auth';

/** More refusals than this within an hour pause the account's custom poses. */
export const CUSTOM_POSE_REFUSALS_PER_HOUR = 5;
export const CUSTOM_POSE_PAUSE_HOURS = 24;
/** The refused text is kept this long for review, then cleared. */
export const SAFETY_REFUSAL_TEXT_DAYS = 30;
const SWEEP_EVERY_MS = 24 * 3600 * 1000;

/** The safety gate's codes live in the one catalogue (common/errors/error-catalogue.ts). */
export { SafetyErrorCode };

/** 429: custom poses are paused for this account until `until` (Retry-After: the seconds until then). */
export class CustomPosePausedError extends AppError {
  override readonly retryAfterSeconds: number;

  constructor(
    readonly until: Date,
    now: Date = new Date(),
  ) {
    super(
      SafetyErrorCode.CUSTOM_POSE_PAUSED,
      `Custom poses are paused for your account until ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC, after several descriptions were refused. You can still choose any of the listed poses.`,
      429,
    );
    this.retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  }
}

export interface RefusalSummary {
  total: number;
  last_24h: number;
  paused_until: string | null;
  recent: Array<{ id: string; reasons: string[]; text: string | null; source: string; created_at: string }>;
}

/**
 * The custom pose's gate: refuses while the account's custom poses are paused, runs the safety
 * check, and records each refusal (who, which categories, when, the text for 30 days). Only a
 * refusal with a safety category is recorded and counted: a text the check did not understand
 * (another language, a name, a misspelling, a number it cannot read) answers
 * CUSTOM_POSE_NOT_UNDERSTOOD and is neither recorded nor counted (docs/safety.md). More than
 * CUSTOM_POSE_REFUSALS_PER_HOUR refusals within an hour pause custom poses for 24 hours and tell
 * the admins. Refusals at POST /api/generations/check count like refusals at a start.
 */
@Injectable()
export class SafetyRefusalsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Safety');

  constructor(
    private readonly refusals: SafetyRefusalsRepository,
    private readonly users: UsersRepository,
    private readonly queue: MessageQueueService,
    @Optional() private readonly ops?: OpsEvents,
  ) {}

  /**
   * Throws CustomPosePausedError (429), a refusal (CustomPoseRefusedError, 400 VALIDATION_ERROR)
   * after recording it, or CustomPoseNotUnderstoodError (400 CUSTOM_POSE_NOT_UNDERSTOOD) without
   * recording anything.
   */
  async screen(user: Pick<AuthUser, 'id'>, text: string, source: 'check' | 'start'): Promise<void> {
    const pausedUntil = await this.users.customPosePausedUntil(user.id);
    if (pausedUntil && pausedUntil > new Date()) throw new CustomPosePausedError(pausedUntil);
    const assessment = assessCustomPose(text);
    const error = customPoseError(text, assessment);
    if (!error) return;
    if (assessment.outcome === 'refused') {
      // every category is recorded; the person reads the most serious safety one
      await this.record(user.id, assessment.reasons, text, source);
    } else if (assessment.outcome === 'not_understood') {
      // the codes only, never the words (a name is personal data)
      this.logger.log({ event: 'custom_pose_not_understood', user: user.id, reasons: assessment.reasons }, 'custom pose not understood');
    }
    throw error;
  }

  /** Records a refusal (one with a safety category: `reasons` holds every category found, the most serious first). */
  private async record(userId: string, reasons: readonly SafetyReason[], text: string, source: string): Promise<void> {
    const paused = await this.refusals.transaction(async (m) => {
      await this.refusals.insert({ userId, reasons: reasons.join(',').slice(0, 200), text: text.slice(0, 2000), source }, m);
      const n = await this.refusals.countLastHour(userId, m);
      if (n <= CUSTOM_POSE_REFUSALS_PER_HOUR) return null;
      const until = new Date(Date.now() + CUSTOM_POSE_PAUSE_HOURS * 3600_000);
      return (await this.users.pauseCustomPoses(userId, until, m)) ? { n, until } : null;
    });
    // the category only: never the text, which may be anything
    this.logger.log({ event: 'custom_pose_refused', user: userId, reasons }, 'custom pose refused');
    await this.ops?.emit({ type: 'safety.custom-pose-refused', reason: reasons[0] ?? 'unknown' });
    if (paused) {
      this.logger.warn({ event: 'custom_pose_paused', user: userId, refusals: paused.n }, 'custom poses paused for an account');
      await this.ops?.emit({ type: 'safety.custom-pose-paused', userId, refusals: paused.n, until: paused.until.toISOString() });
    }
  }

  /** For the console's user page (admins): counts, the pause, and the latest refusals with their text while it is kept. */
  async summary(userId: string, limit = 20): Promise<RefusalSummary> {
    const counts = await this.refusals.counts(userId);
    const recent = await this.refusals.latest(userId, limit);
    const pausedUntil = await this.users.customPosePausedUntil(userId);
    const paused = pausedUntil && pausedUntil > new Date() ? pausedUntil.toISOString() : null;
    return {
      total: counts?.total ?? 0,
      last_24h: counts?.day ?? 0,
      paused_until: paused,
      recent: recent.map((r) => ({
        id: r.id,
        reasons: r.reasons.split(',').filter(Boolean),
        text: r.text,
        source: r.source,
        created_at: r.createdAt.toISOString(),
      })),
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    await this.queue.addRepeatable(JobName.SafetyRefusalsSweep, {}, SWEEP_EVERY_MS, 'safety-refusals-sweep');
  }

  @OnJob(JobName.SafetyRefusalsSweep)
  async handleRefusalsSweep(): Promise<void> {
    const cleared = await this.refusals.clearTextOlderThan(SAFETY_REFUSAL_TEXT_DAYS);
    if (cleared > 0)
      this.logger.log(
        { event: 'safety_refusals_sweep', cleared },
        `Cleared the text of ${plural(cleared, 'refusal')} older than ${plural(SAFETY_REFUSAL_TEXT_DAYS, 'day')}`,
      );
  }
}
