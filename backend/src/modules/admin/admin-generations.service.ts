import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors';
import { ListParams, oneOf, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { STORAGE, type StoragePort } from '../../storage';
import { AuditAction, AuditService } from '../audit/audit.service';
import { GenerationsRepository } from '../generations/generations.repository';
import { GenerationsService } from '../generations/generations.service';
import { UploadsRepository } from '../uploads/uploads.repository';
import { UploadsService } from '../uploads/uploads.service';
import {
  type AdminGenerationRow,
  AdminGenerationsRepository,
  GENERATION_SORTABLE,
  type GenerationListFilter,
} from './admin-generations.repository';
import { assertUuid } from './admin-users.service';
import type { GenerationMetadata } from '../generations/generation.entity';
import type { AdminGenerationDto, AdminGenerationRowDto } from './dto/admin-generation.dto';

const FILTERS = ['status', 'user_id', 'category', 'type', 'q'] as const;
type GenerationFilter = (typeof FILTERS)[number];

/** Moderation: every user's generations, and removing any of them with its files. */
@Injectable()
export class AdminGenerationsService {
  constructor(
    private readonly repo: AdminGenerationsRepository,
    private readonly generationRows: GenerationsRepository,
    private readonly uploadRows: UploadsRepository,
    private readonly generations: GenerationsService,
    private readonly audit: AuditService,
    private readonly uploads: UploadsService,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  parse(query: SimpleRestQueryDto): ListParams<GenerationFilter> {
    return parseListQuery(query, {
      sortable: GENERATION_SORTABLE,
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 50,
      filters: FILTERS,
    });
  }

  async list(params: ListParams<GenerationFilter>): Promise<{ rows: AdminGenerationRowDto[]; total: number }> {
    const filter: GenerationListFilter = {};
    const status = oneOf(params.filter.status, ['processing', 'completed', 'failed'] as const, 'status');
    if (status) filter.status = status;
    const type = oneOf(params.filter.type, ['image', 'video'] as const, 'type');
    if (type) filter.type = type;
    const q = textFilter(params.filter.q, 'q');
    if (q !== undefined) filter.q = q.trim();
    const category = textFilter(params.filter.category, 'category');
    if (category !== undefined) filter.category = category;
    if (params.filter.user_id !== undefined) {
      assertUuid(String(params.filter.user_id));
      filter.userId = String(params.filter.user_id);
    }
    const { rows, total } = await this.repo.list(filter, params.orderBy, params.limit, params.offset);
    return { rows: await Promise.all(rows.map((r) => this.toDto(r))), total };
  }

  /**
   * Removes a generation of any user, files included (a running one is cancelled first), through the
   * owner's own deletion (GenerationsService.remove). Audited. The support desk's abuse-report flow
   * calls it too.
   */
  async remove(actorId: string, id: string, reason?: string): Promise<void> {
    assertUuid(id);
    const row = await this.generationRows.findById(id);
    if (!row) throw new NotFoundError();
    // the audit row is written in the removal's own transaction: no removal without it
    await this.generations.remove(row.userId, id, {
      audit: {
        actorId,
        action: AuditAction.GenerationRemove,
        targetType: 'generation',
        targetId: id,
        targetUserId: row.userId,
        before: { status: row.status, category: row.category, type: row.type },
        after: reason ? { removed: true, reason } : { removed: true },
      },
    });
  }

  /**
   * A takedown that reaches everything: the generation, the photo(s) it was made from, and every
   * other generation made from those photos, files included. Each generation's removal is audited,
   * and one `generation.takedown` row sums it up. Answers what was removed.
   */
  async takedown(actorId: string, id: string, reason?: string): Promise<{ generations: string[]; photos: string[] }> {
    assertUuid(id);
    const row = await this.generationRows.findById(id);
    if (!row) throw new NotFoundError();
    // a row's metadata may lack either field
    const metadata: Partial<GenerationMetadata> = row.metadata;
    const photoIds: string[] = metadata.upload_ids ?? [];
    const photoKeys: string[] = metadata.upload_path ? [metadata.upload_path] : [];
    const derived = await this.generationRows.madeFromPhotos(row.userId, id, photoIds, photoKeys);
    const removed: string[] = [];
    for (const g of derived) {
      try {
        await this.remove(actorId, g.id, reason ?? 'takedown');
        removed.push(g.id);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error; // removed meanwhile
      }
    }
    const photos = await this.uploadRows.findMatching(row.userId, photoIds, photoKeys);
    for (const photo of photos)
      await this.uploads
        .delete(row.userId, photo.id)
        .catch((error) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
    await this.audit.record({
      actorId,
      action: AuditAction.GenerationTakedown,
      targetType: 'generation',
      targetId: id,
      targetUserId: row.userId,
      after: { generations_removed: removed.length, photos_removed: photos.length, ...(reason ? { reason } : {}) },
    });
    return { generations: removed, photos: photos.map((p) => p.id) };
  }

  /** One generation, with the likeness guard's figure. */
  async detail(id: string): Promise<AdminGenerationDto> {
    assertUuid(id);
    const row = await this.repo.findOne(id);
    if (!row) throw new NotFoundError('Generation not found.');
    const l = row.likeness;
    return {
      ...(await this.toDto(row)),
      likeness: l
        ? {
            distance: l.distance,
            tries: l.tries,
            outcome: l.outcome,
            threshold: l.threshold,
            checked_at: new Date(l.checked_at).toISOString(),
          }
        : null,
    };
  }

  private async toDto(r: AdminGenerationRow): Promise<AdminGenerationRowDto> {
    return {
      id: r.id,
      user_id: r.user_id,
      user_email: r.user_email,
      type: r.type,
      status: r.status,
      category: r.category,
      cost: r.cost,
      failure_reason: r.status === 'failed' ? (r.error ?? 'Generation failed') : null,
      stage: r.stage,
      provider: r.provider,
      created_at: new Date(r.created_at).toISOString(),
      completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      thumbnail_url: r.status === 'completed' && r.result_key ? await this.storage.signedUrl(r.result_key, { hostRelative: true }) : null,
    };
  }
}
