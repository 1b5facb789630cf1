import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { containsPattern } from '../../common/simple-rest';

/** The list's sortable fields and the column each sorts by. */
export const GENERATION_SORTABLE = {
  id: 'g.id',
  created_at: 'g.created_at',
  status: 'g.status',
  category: 'g.category',
  cost: 'g.cost',
  type: 'g.type',
};

/** The list's filters, already checked by the service. */
export interface GenerationListFilter {
  status?: string;
  type?: string;
  /** matched literally (case-insensitive) in the owner's email */
  q?: string;
  category?: string;
  userId?: string;
}

export interface AdminGenerationRow {
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

/**
 * The console's read model of generations across users: every user's generations with the owner's
 * email, joining the generations and users tables of their modules. Read-only.
 */
@Injectable()
export class AdminGenerationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of everyone's generations, and the number that match. */
  async list(
    filter: GenerationListFilter,
    orderBy: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: AdminGenerationRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.status) where.push(`g.status = $${args.push(filter.status)}`);
    if (filter.type) where.push(`g.type = $${args.push(filter.type)}`);
    if (filter.q !== undefined) where.push(`u.email ILIKE $${args.push(containsPattern(filter.q))} ESCAPE '\\'`);
    if (filter.category !== undefined) where.push(`g.category = $${args.push(filter.category)}`);
    if (filter.userId !== undefined) where.push(`g.user_id = $${args.push(filter.userId)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(
      `SELECT count(*)::int AS total FROM user_generations g LEFT JOIN users u ON u.id = g.user_id ${clause}`,
      args,
    );
    const rows: AdminGenerationRow[] = await this.db.query(
      `SELECT g.id, g.user_id, u.email AS user_email, g.type, g.status, g.category, g.cost, g.error, g.stage, g.provider, g.result_key, g.created_at, g.completed_at
         FROM user_generations g LEFT JOIN users u ON u.id = g.user_id ${clause}
        ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { rows, total };
  }

  /** One generation with its owner's email, and the likeness guard's figure (generation_likeness), or null. */
  async findOne(id: string): Promise<(AdminGenerationRow & { likeness: LikenessRow | null }) | null> {
    const [row] = (await this.db.query(
      `SELECT g.id, g.user_id, u.email AS user_email, g.type, g.status, g.category, g.cost, g.error, g.stage, g.provider, g.result_key, g.created_at, g.completed_at,
              CASE WHEN l.generation_id IS NULL THEN NULL
                   ELSE jsonb_build_object('distance', l.distance, 'tries', l.tries, 'outcome', l.outcome, 'threshold', l.threshold, 'checked_at', l.checked_at) END AS likeness
         FROM user_generations g LEFT JOIN users u ON u.id = g.user_id LEFT JOIN generation_likeness l ON l.generation_id = g.id
        WHERE g.id = $1`,
      [id],
    )) as (AdminGenerationRow & { likeness: LikenessRow | null })[];
    return row ?? null;
  }
}

/** The likeness guard's figure of a generation (the faces module's generation_likeness). */
export interface LikenessRow {
  distance: number | null;
  tries: (number | null)[];
  outcome: string;
  threshold: number;
  checked_at: string;
}
