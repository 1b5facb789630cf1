import { plural } from '@fitting-room/shared/wording';
import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { AppError, SafetyErrorCode } from '../../common/errors';
import { OpsEvents } from '../../common/ops-events';
import { JobName, MessageQueueService, OnJob } from '../../queue';
import { UsersRepository } from '../users/users.repository';
import { assessCustomPose, CustomPoseRefusedError } from './safety';
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

/** 429: custom poses are paused for this account until `until`. */
export class CustomPosePausedError extends AppError {
  constructor(readonly until: Date) {
    super(
      SafetyErrorCode.CUSTOM_POSE_PAUSED,
      `Custom poses are paused for your account until ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC, after several descriptions were refused. You can still choose any of the listed poses.`,
      429,
    );
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
 * check, and records each refusal (who, which categories, when, the text for 30 days). More than
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

  /** Throws CustomPosePausedError or the refusal (CustomPoseRefusedError, 400), after recording it. */
  async screen(user: Pick<AuthUser, 'id'>, text: string, source: 'check' | 'start'): Promise<void> {
    const pausedUntil = await this.users.customPosePausedUntil(user.id);
    if (pausedUntil && pausedUntil > new Date()) throw new CustomPosePausedError(pausedUntil);
    const { reasons } = assessCustomPose(text);
    if (reasons.length === 0) return;
    // every category is recorded; the person reads the first (the most serious)
    await this.record(user.id, reasons, text, source);
    throw new CustomPoseRefusedError(reasons[0]);
  }

  private async record(userId: string, reasons: string[], text: string, source: string): Promise<void> {
    const paused = await this.refusals.transaction(async (m) => {
      await this.refusals.insert({ userId, reasons: reasons.join(',').slice(0, 200), text: text.slice(0, 2000), source }, m);
      const n = await this.refusals.countLastHour(userId, m);
      if (n <= CUSTOM_POSE_REFUSALS_PER_HOUR) return null;
      const until = new Date(Date.now() + CUSTOM_POSE_PAUSE_HOURS * 3600_000);
      return (await this.users.pauseCustomPoses(userId, until, m)) ? { n, until } : null;
    });
    // the category only: never the text, which may be anything
    this.logger.log({ event: 'custom_pose_refused', user: userId, reasons }, 'custom pose refused');
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
