import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../../common/errors';
import { containsPattern, ListParams, oneOf, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { STORAGE, type StoragePort } from '../../storage';
import { AuditAction, AuditService } from '../audit/audit.service';
import { UploadsService } from '../uploads/uploads.service';
import { GenerationsService } from '../generations/generations.service';
import type { AdminGenerationRowDto } from './dto/admin-generation.dto';
import { assertUuid } from './admin-users.service';

const FILTERS = ['status', 'user_id', 'category', 'type', 'q'] as const;
type GenerationFilter = (typeof FILTERS)[number];
const SORTABLE = { id: 'g.id', created_at: 'g.created_at', status: 'g.status', category: 'g.category', cost: 'g.cost', type: 'g.type' };

interface Row {
  id: string;
  user_id: string;
  user_email: string | null;
  type: string;
  status: string;
  category: string;
  cost: number;
  error: string | null;
  stage: string;
  provider: string;
  result_key: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** Moderation: every user's generations, and removing any of them with its files. */
@Injectable()
export class AdminGenerationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly generations: GenerationsService,
    private readonly audit: AuditService,
    private readonly uploads: UploadsService,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  parse(query: SimpleRestQueryDto): ListParams<GenerationFilter> {
    return parseListQuery(query, { sortable: SORTABLE, defaultSort: ['created_at', 'DESC'], defaultPageSize: 50, filters: FILTERS });
  }

  async list(params: ListParams<GenerationFilter>): Promise<{ rows: AdminGenerationRowDto[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    const status = oneOf(params.filter.status, ['processing', 'completed', 'failed'] as const, 'status');
    if (status) where.push(`g.status = $${args.push(status)}`);
    const type = oneOf(params.filter.type, ['image', 'video'] as const, 'type');
    if (type) where.push(`g.type = $${args.push(type)}`);
    const q = textFilter(params.filter.q, 'q');
    if (q !== undefined) where.push(`u.email ILIKE $${args.push(containsPattern(q.trim()))} ESCAPE '\\'`);
    const category = textFilter(params.filter.category, 'category');
    if (category !== undefined) where.push(`g.category = $${args.push(category)}`);
    if (params.filter.user_id !== undefined) {
      assertUuid(String(params.filter.user_id));
      where.push(`g.user_id = $${args.push(String(params.filter.user_id))}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM user_generations g LEFT JOIN users u ON u.id = g.user_id ${clause}`, args);
    const rows: Row[] = await this.db.query(
      `SELECT g.id, g.user_id, u.email AS user_email, g.type, g.status, g.category, g.cost, g.error, g.stage, g.provider, g.result_key, g.created_at, g.completed_at
         FROM user_generations g LEFT JOIN users u ON u.id = g.user_id ${clause}
        ORDER BY ${params.orderBy} LIMIT ${params.limit} OFFSET ${params.offset}`,
      args,
    );
    return { rows: await Promise.all(rows.map((r) => this.toDto(r))), total };
  }

  /**
   * Removes a generation of any user, files included (a running one is cancelled first), through the
   * owner's own deletion (GenerationsService.remove). Audited. The support desk's abuse-report flow
   * calls it too.
   */
  async remove(actorId: string, id: string, reason?: string): Promise<void> {
    assertUuid(id);
    const [row] = await this.db.query(`SELECT user_id, status, category, type FROM user_generations WHERE id = $1`, [id]);
    if (!row) throw new NotFoundError();
    // the audit row is written in the removal's own transaction: no removal without it
    await this.generations.remove(row.user_id, id, {
      audit: {
        actorId,
        action: AuditAction.GenerationRemove,
        targetType: 'generation',
        targetId: id,
        targetUserId: row.user_id,
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
    const [row]: { user_id: string; metadata: { upload_ids?: string[]; upload_path?: string } }[] = await this.db.query(
      `SELECT user_id, metadata FROM user_generations WHERE id = $1`,
      [id],
    );
    if (!row) throw new NotFoundError();
    const photoIds: string[] = row.metadata.upload_ids ?? [];
    const photoKeys: string[] = row.metadata.upload_path ? [row.metadata.upload_path] : [];
    const derived: { id: string }[] = await this.db.query(
      `SELECT id FROM user_generations
        WHERE user_id = $1 AND (id = $2 OR metadata->'upload_ids' ?| $3::text[] OR metadata->>'upload_path' = ANY($4::text[]))
        ORDER BY created_at`,
      [row.user_id, id, photoIds, photoKeys],
    );
    const removed: string[] = [];
    for (const g of derived) {
      try {
        await this.remove(actorId, g.id, reason ?? 'takedown');
        removed.push(g.id);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error; // removed meanwhile
      }
    }
    const photos: { id: string }[] = await this.db.query(`SELECT id FROM uploads WHERE user_id = $1 AND (id::text = ANY($2::text[]) OR storage_key = ANY($3::text[]))`, [
      row.user_id,
      photoIds,
      photoKeys,
    ]);
    for (const photo of photos) await this.uploads.delete(row.user_id, photo.id).catch((error) => (error instanceof NotFoundError ? undefined : Promise.reject(error)));
    await this.audit.record({
      actorId,
      action: AuditAction.GenerationTakedown,
      targetType: 'generation',
      targetId: id,
      targetUserId: row.user_id,
      after: { generations_removed: removed.length, photos_removed: photos.length, ...(reason ? { reason } : {}) },
    });
    return { generations: removed, photos: photos.map((p) => p.id) };
  }

  private async toDto(r: Row): Promise<AdminGenerationRowDto> {
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
      thumbnail_url: r.status === 'completed' && r.result_key ? await this.storage.signedUrl(r.result_key) : null,
    };
  }
}
