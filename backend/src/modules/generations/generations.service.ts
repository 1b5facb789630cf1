import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConflictError, InsufficientCreditsError, NotFoundError, ServiceUnavailableError } from '../../common/errors';
import { traceCarrier } from '../../common/observability/tracing';
import { APP_CONFIG } from '../../config/config.module';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { CUSTOM_POSE } from '../catalog';
import { CreditsService } from '../credits/credits.service';
import { FaceChecksService } from '../faces/face-checks.service';
import { UploadsService } from '../uploads/uploads.service';
import { GenerationCheckDto, GenerationCheckResponseDto } from './dto/generation-check.dto';
import { GenerationListQueryDto, GENERATIONS_PAGE_SIZE } from './dto/generation-list-query.dto';
import { GenerationListResponseDto, GenerationResponseDto } from './dto/generation-response.dto';
import { GenerationStartDto } from './dto/generation-start.dto';
import { GalleryPageCache } from './gallery-page-cache';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GenerationPipeline } from './generation-pipeline';
import { GenerationPlanner } from './generation-planner';
import { GenerationPresenter } from './generation-presenter';
import { GENERATION_MESSAGES } from './generation-progress';
import { budgetMsOf, checksWithin, pollScheduleOf } from './generation-schedule';
import { GenerationEntity, GenerationMetadata, GenerationStage, GenerationStatus } from './generation.entity';
import { GenerationsRepository } from './generations.repository';
import type { AuthUser } from '../../common/auth';
import type { AppConfig } from '../../config/app-config';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ONE_RUNNING_INDEX = 'user_generations_one_running_per_user';

/**
 * The generation API: starting one (the planner's checks, then hold, record and job in one go),
 * reading, listing, cancelling, deleting and downloading. Every query is scoped to the caller:
 * another user's generation is "not found". Its jobs and the provider's cancel go through
 * GenerationPipeline; answers are the presenter's.
 */
@Injectable()
export class GenerationsService {
  private readonly logger = new Logger('Generations');
  private readonly ai: NonNullable<AppConfig['ai']>;
  private readonly galleryPages: GalleryPageCache<GenerationListResponseDto>;

  constructor(
    private readonly repo: GenerationsRepository,
    private readonly uploads: UploadsService,
    private readonly credits: CreditsService,
    private readonly planner: GenerationPlanner,
    private readonly pipeline: GenerationPipeline,
    private readonly outcomes: GenerationOutcomesService,
    private readonly presenter: GenerationPresenter,
    private readonly audit: AuditService,
    private readonly faces: FaceChecksService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ai = config.ai;
    // a kept page's links have at least 90% of their life left
    this.galleryPages = new GalleryPageCache(Math.min(60_000, (config.storage.signedUrlTtlSeconds * 1000) / 10));
  }

  /**
   * Checks everything, then in one transaction inserts the record and holds the cost, then adds
   * the submit job. A second start while one runs answers 409 (the partial unique index decides
   * under concurrency); any refusal leaves no row and no hold. If the job cannot be added, the
   * generation is failed and its hold released before answering 503.
   */
  async start(user: AuthUser, dto: GenerationStartDto): Promise<GenerationResponseDto> {
    const plan = await this.planner.plan(user, dto, 'start');
    const photos = await this.uploads.findOwnedOrdered(user.id, dto.upload_ids!);
    // "Only you" (FACE_CHECKS): one person across the photos, and the selfie-verified face for lingerie, spicy and video
    await this.faces.checkGenerationPhotos(user.id, photos, { needsVerifiedFace: this.faces.needsVerifiedFace(dto.category, dto.type) });
    // a generation already running: the insert below meets the partial unique index, before any hold

    const id = randomUUID();
    const metadata: GenerationMetadata = {
      outfit_id: plan.template.id,
      scene_id: plan.scene?.id ?? CUSTOM_POSE.id,
      upload_path: photos[0].storageKey,
      upload_ids: photos.map((p) => p.id),
      ...(plan.customPose !== null ? { custom_pose: plan.customPose } : {}),
      ...traceOfStart(),
    };
    // its deadline is stored with it (by the database's clock): a later change of the setting leaves it alone
    const budgetMs = budgetMsOf(dto.type, this.ai);
    let row: GenerationEntity;
    try {
      row = await this.repo.transaction(async (m) => {
        const inserted = await this.repo.insert(
          {
            id,
            userId: user.id,
            type: dto.type,
            status: GenerationStatus.Processing,
            cost: plan.cost,
            category: dto.category,
            prompt: plan.prompt,
            metadata,
            tier: user.tier,
            stage: GenerationStage.Creating,
            polls: 0,
            // refined when the vendor accepts the job, from the budget left then
            maxPolls: checksWithin(budgetMs, pollScheduleOf(this.ai)),
            provider: this.pipeline.providerName,
          },
          budgetMs,
          m,
        );
        await this.credits.hold(user.id, id, plan.cost, m);
        return inserted;
      });
    } catch (error) {
      const driver = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
      if (driver?.code === '23505' && driver.constraint === ONE_RUNNING_INDEX) throw new ConflictError(GENERATION_MESSAGES.alreadyRunning);
      throw error;
    }

    try {
      await this.pipeline.submit(id);
    } catch (error) {
      this.logger.error(`Could not queue generation ${id}: ${error instanceof Error ? error.message : String(error)}`);
      await this.outcomes.fail(id, GENERATION_MESSAGES.startFailed, { detail: 'the queue refused the job' });
      throw new ServiceUnavailableError();
    }
    await this.uploads.touch(photos);
    // the row as inserted: the worker may have moved it a stage on since, which its own event says
    await this.outcomes.started(row);
    return this.presenter.toDto(row);
  }

  /**
   * Everything a start would check, before any photo is uploaded: the catalogue, the tier, video,
   * the custom pose's safety (a refusal here counts like one at a start), the running generation
   * and the balance. Changes nothing but the refusal record.
   */
  async check(user: AuthUser, dto: GenerationCheckDto): Promise<GenerationCheckResponseDto> {
    const plan = await this.planner.plan(user, dto, 'check');
    if (await this.repo.hasRunning(user.id)) throw new ConflictError(GENERATION_MESSAGES.alreadyRunning);
    const balance = await this.credits.getBalance(user.id);
    if (balance.available < plan.cost) throw new InsufficientCreditsError(plan.cost, balance.available);
    return { cost: plan.cost, credits: balance.available, credits_after: balance.available - plan.cost };
  }

  /** Generations running now, everyone's (the console's queue page). */
  countRunning(): Promise<number> {
    return this.repo.countRunning();
  }

  /**
   * A page of the caller's gallery. While the account's completed generations are unchanged
   * (`generationsVersion`, read with the session) a page this process built a moment ago is reused.
   */
  async list(user: AuthUser, query: GenerationListQueryDto): Promise<GenerationListResponseDto> {
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? GENERATIONS_PAGE_SIZE.default;
    const build = async () => {
      const [rows, total] = await this.repo.listCompleted(user.id, query.category, page, pageSize);
      return { items: await Promise.all(rows.map((r) => this.presenter.toDto(r))), total, page, page_size: pageSize };
    };
    if (user.generationsVersion === undefined) return build();
    return this.galleryPages.get(user.id, user.generationsVersion, `${query.category ?? ''} ${page} ${pageSize}`, build);
  }

  /**
   * One of the caller's generations; a completed one with the signed link to the person's photo it
   * was made from, while that photo is kept (the result viewer's before/after).
   */
  async get(userId: string, id: string): Promise<GenerationResponseDto> {
    const row = await this.findOwn(userId, id);
    const sourcePhotoUrl =
      row.status === GenerationStatus.Completed ? await this.uploads.signedLinkOfOwn(userId, row.metadata?.upload_ids?.[0]) : null;
    return this.presenter.toDto(row, { sourcePhotoUrl });
  }

  /** The caller's generation, or NotFoundError (also for another user's). */
  async findOwn(userId: string, id: string): Promise<GenerationEntity> {
    const row = UUID.test(id) ? await this.repo.findOwn(userId, id) : null;
    if (!row) throw new NotFoundError(GENERATION_MESSAGES.notFound);
    return row;
  }

  /**
   * Stops a running generation: failed "Cancelled", hold released, the provider asked to stop and
   * to forget the job (the preview renderer deletes what it rendered of the person's photo, fal its
   * stored payloads), so a cancelled generation leaves no file behind.
   */
  async cancel(userId: string, id: string): Promise<GenerationResponseDto> {
    const row = await this.findOwn(userId, id);
    if (row.status !== GenerationStatus.Processing || !(await this.outcomes.fail(id, GENERATION_MESSAGES.cancelled))) {
      throw new ConflictError(GENERATION_MESSAGES.notRunning);
    }
    if (row.providerJobId) await this.pipeline.abandonAtProvider(row.providerJobId);
    return this.get(userId, id);
  }

  /** Stops every running generation of an account (a suspension): each cancelled, its hold released. Answers how many. */
  async cancelAllOf(userId: string): Promise<number> {
    const running = await this.repo.runningOf(userId);
    let cancelled = 0;
    for (const row of running) {
      if (!(await this.outcomes.fail(row.id, GENERATION_MESSAGES.cancelled))) continue;
      cancelled += 1;
      if (row.providerJobId) await this.pipeline.abandonAtProvider(row.providerJobId);
    }
    return cancelled;
  }

  /**
   * Deletes the generation and its file (a running one is cancelled first). The row goes in one
   * transaction with the `audit` entry when one is given (an admin's removal), then the file: a file
   * is never deleted for a row that stays, and a removal is never without its audit row. When
   * storage fails the removal still stands and a queue job retries the file, so a removed picture
   * does not linger.
   */
  async remove(userId: string, id: string, options: { audit?: AuditEntry } = {}): Promise<void> {
    const row = await this.findOwn(userId, id);
    if (row.status === GenerationStatus.Processing) {
      await this.outcomes.fail(id, GENERATION_MESSAGES.cancelled);
      if (row.providerJobId) await this.pipeline.cancelAtProvider(row.providerJobId);
    }
    const fresh = (await this.repo.findOwn(userId, id)) ?? row;
    const removed = await this.repo.transaction(async (manager) => {
      if (!(await this.repo.delete(userId, id, manager))) return false;
      if (options.audit) await this.audit.record(options.audit, manager);
      return true;
    });
    if (!removed) throw new NotFoundError();
    if (fresh.resultKey) await this.pipeline.deleteResultFile(fresh.resultKey, id);
    if (fresh.providerJobId) await this.pipeline.discardAtProvider(fresh.providerJobId);
  }

  /** A signed link to the result, named `<prefix>-<id>.jpg|.mp4` (Content-Disposition: attachment). */
  async downloadUrl(userId: string, id: string): Promise<string> {
    return this.presenter.downloadUrl(await this.findOwn(userId, id));
  }
}

/** The trace of the request that starts a generation (tracing on), kept with it for the vendor's webhook. */
function traceOfStart(): { trace?: string } {
  const { traceparent } = traceCarrier();
  return traceparent ? { trace: traceparent } : {};
}
