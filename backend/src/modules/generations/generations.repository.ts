import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { GenerationEntity, GenerationStage, GenerationStatus } from './generation.entity';

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL as [rows, affectedCount]. */
function affected(result: unknown): number {
  if (Array.isArray(result) && result.length === 2 && typeof result[1] === 'number') return result[1];
  return Array.isArray(result) ? result.length : 0;
}

export interface RunningRow {
  id: string;
  type: 'image' | 'video';
  providerJobId: string | null;
  submitStartedAt: Date | null;
  polls: number;
  updatedAt: Date;
  createdAt: Date;
  deadlineAt: Date | null;
  /** the database's clock when the row was read (deadlines are compared with it) */
  readAt: Date;
}

/** A row as a claim left it, with the database's clock at that moment (deadlines are compared with it). */
export type ClaimedRow = GenerationEntity & { checkedAt: Date };

/**
 * Every read and write of user_generations. The state changes of the pipeline are conditional
 * UPDATEs (a "claim"): a step proceeds only if its UPDATE changed the row, so two copies of a job
 * (a retry, a duplicate, a resumed one) can never both do the same step.
 */
@Injectable()
export class GenerationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  get manager(): EntityManager {
    return this.db.manager;
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Generations running now, everyone's (the console's queue page). */
  async countRunning(): Promise<number> {
    return this.db.getRepository(GenerationEntity).countBy({ status: GenerationStatus.Processing });
  }

  /** The row (hydrated by hand, as a page of the list: the event stream reads it at every step). */
  findById(id: string): Promise<GenerationEntity | null> {
    return this.findOne('generation-by-id', 'id = $1', [id]);
  }

  findOwn(userId: string, id: string): Promise<GenerationEntity | null> {
    return this.findOne('generation-own', 'id = $1 AND user_id = $2', [id, userId]);
  }

  /** One row by a fixed condition, as a named prepared statement (`name` always goes with `where`). */
  private async findOne(name: string, where: string, values: unknown[]): Promise<GenerationEntity | null> {
    const [row] = await preparedQuery<GenerationEntity>(
      this.db,
      name,
      `SELECT ${this.entityColumns()} FROM user_generations WHERE ${where}`,
      values,
    );
    return row ?? null;
  }

  /** The generation of a vendor's job (a webhook names it): without the ORM's query building, as it is read for every webhook. */
  findByProviderJob(provider: string, providerJobId: string): Promise<GenerationEntity | null> {
    return this.findOne('generation-by-provider-job', 'provider = $1 AND provider_job_id = $2', [provider, providerJobId]);
  }

  hasRunning(userId: string): Promise<boolean> {
    return this.db.getRepository(GenerationEntity).existsBy({ userId, status: GenerationStatus.Processing });
  }

  /** The account's running generations (at most one, by the partial unique index; a list all the same). */
  runningOf(userId: string): Promise<GenerationEntity[]> {
    return this.db.getRepository(GenerationEntity).find({ where: { userId, status: GenerationStatus.Processing } });
  }

  /**
   * A page of completed generations, newest first, and how many there are: one statement (the
   * count rides along as a window over the same rows; only a page past the end asks again).
   * Rows come hydrated by hand, without the ORM's per-row work (GET /api/generations is hot).
   */
  private selectList?: string;

  /** Every column of user_generations under the entity's property names (from the ORM's metadata, made once). */
  private entityColumns(): string {
    this.selectList ??= [...new Map(this.db.getMetadata(GenerationEntity).columns.map((c) => [c.databaseName, c.propertyName]))]
      .map(([column, property]) => `"${column}" AS "${property}"`)
      .join(', ');
    return this.selectList;
  }

  async listCompleted(userId: string, category: string | undefined, page: number, pageSize: number): Promise<[GenerationEntity[], number]> {
    const filter = `user_id = $1 AND status = 'completed'${category ? ' AND category = $4' : ''}`;
    const params: unknown[] = [userId, pageSize, (page - 1) * pageSize, ...(category ? [category] : [])];
    const rows = await preparedQuery<GenerationEntity & { total: string }>(
      this.db,
      category ? 'generations-completed-page-category' : 'generations-completed-page',
      `SELECT ${this.entityColumns()}, count(*) OVER () AS total FROM user_generations
        WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      params,
    );
    if (rows.length) return [rows.map(({ total: _total, ...row }) => row as GenerationEntity), Number(rows[0].total)];
    if (page === 1) return [[], 0];
    const [{ n }]: [{ n: number }] = await this.db.query(
      `SELECT count(*)::int AS n FROM user_generations WHERE ${filter.replace('$4', '$2')}`,
      [userId, ...(category ? [category] : [])],
    );
    return [[], n];
  }

  /** Deletes the row; answers whether there was one. `manager`: inside the caller's transaction. */
  async delete(userId: string, id: string, manager: EntityManager = this.db.manager): Promise<boolean> {
    const result = await manager.getRepository(GenerationEntity).delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Inserts a generation and answers the row as stored (with its defaults): no second read.
   * `budgetMs`: its deadline is that long after now, by the database's clock (`deadline_at`).
   * `manager`: inside the caller's transaction (the start holds its cost in the same one).
   */
  async insert(values: Partial<GenerationEntity>, budgetMs: number, manager: EntityManager = this.db.manager): Promise<GenerationEntity> {
    if (!Number.isSafeInteger(budgetMs) || budgetMs <= 0)
      throw new Error(`a generation's budget must be a positive whole number of ms, got ${budgetMs}`);
    const { raw } = await manager
      .createQueryBuilder()
      .insert()
      .into(GenerationEntity)
      .values({ ...values, deadlineAt: () => `now() + make_interval(secs => ${budgetMs / 1000})` })
      .returning(this.entityColumns())
      .execute();
    return (raw as GenerationEntity[])[0];
  }

  /** Claims the provider start: only one job ever gets past this for a generation. */
  async claimSubmit(id: string): Promise<ClaimedRow | null> {
    const [row] = await preparedQuery<ClaimedRow>(
      this.db,
      'generation-claim-submit',
      `UPDATE user_generations SET submit_started_at = now(), attempts = attempts + 1, stage = $2, updated_at = now()
        WHERE id = $1 AND status = 'processing' AND provider_job_id IS NULL AND submit_started_at IS NULL
        RETURNING ${this.entityColumns()}, now() AS "checkedAt"`,
      [id, GenerationStage.Starting],
    );
    return row ?? null;
  }

  /**
   * The provider answered a job id: record it, with the number of status checks that fit in the
   * budget left (`maxPolls`), unless the generation ended meanwhile (cancelled).
   */
  async recordProviderJob(id: string, providerJobId: string, maxPolls: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE user_generations SET provider_job_id = $2, stage = $3, max_polls = GREATEST(polls, $4), updated_at = now()
        WHERE id = $1 AND status = 'processing' AND provider_job_id IS NULL`,
      [id, providerJobId, GenerationStage.Processing, maxPolls],
    );
    return affected(result) === 1;
  }

  /** The provider refused the start before doing anything (429): the start may be tried again. */
  async releaseSubmit(id: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE user_generations SET submit_started_at = NULL, stage = $2, updated_at = now()
        WHERE id = $1 AND status = 'processing' AND provider_job_id IS NULL`,
      [id, GenerationStage.Creating],
    );
    return affected(result) === 1;
  }

  /**
   * Claims poll step `n`: it runs if no step `n` or later was claimed yet, or if this very job
   * (`claim`, stable across its retries and BullMQ's stalled-job re-runs) claimed it before.
   */
  async claimPoll(id: string, n: number, claim: string): Promise<ClaimedRow | null> {
    // max_polls follows a step past it (a webhook's or a resumed step added one): "Still working (n of max)" never shows n > max
    const [row] = await preparedQuery<ClaimedRow>(
      this.db,
      'generation-claim-poll',
      `UPDATE user_generations SET polls = $2, poll_claim = $3, stage = $4, max_polls = GREATEST(max_polls, $2), updated_at = now()
        WHERE id = $1 AND status = 'processing' AND provider_job_id IS NOT NULL
          AND (polls < $2 OR (polls = $2 AND poll_claim = $3))
        RETURNING ${this.entityColumns()}, now() AS "checkedAt"`,
      [id, n, claim, GenerationStage.Polling],
    );
    return row ?? null;
  }

  /**
   * The likeness guard's second try (generation-worker.service.ts): the vendor's job `providerJobId`
   * is let go and the generation is made ready for a new start (its hold and deadline stay).
   * False when it ended meanwhile or another step already did it.
   */
  async restartAtProvider(id: string, providerJobId: string): Promise<boolean> {
    const [, count] = (await this.db.query(
      `UPDATE user_generations SET provider_job_id = NULL, submit_started_at = NULL, polls = 0, poll_claim = NULL, stage = $3, updated_at = now()
        WHERE id = $1 AND status = 'processing' AND provider_job_id = $2`,
      [id, providerJobId, GenerationStage.Starting],
    )) as [unknown, number];
    return count === 1;
  }

  async setStage(id: string, stage: GenerationStage): Promise<void> {
    await this.db.query(`UPDATE user_generations SET stage = $2, updated_at = now() WHERE id = $1 AND status = 'processing'`, [id, stage]);
  }

  /** Locks the row for the end of a generation; null when it is not processing any more. */
  async lockProcessing(m: EntityManager, id: string): Promise<{ id: string; user_id: string; type: 'image' | 'video' } | null> {
    const rows: { id: string; user_id: string; type: 'image' | 'video'; status: string }[] = await m.query(
      `SELECT id, user_id, type, status FROM user_generations WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0]?.status === GenerationStatus.Processing ? rows[0] : null;
  }

  async markCompleted(m: EntityManager, id: string, resultKey: string, phash?: bigint): Promise<void> {
    await m.query(
      `UPDATE user_generations SET status = 'completed', stage = $3, result_key = $2, result_phash = $4, error = NULL, completed_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, resultKey, GenerationStage.Complete, phash === undefined ? null : phash.toString()],
    );
  }

  async markFailed(m: EntityManager, id: string, reason: string): Promise<void> {
    await m.query(
      `UPDATE user_generations SET status = 'failed', stage = $3, error = $2, completed_at = now(), updated_at = now() WHERE id = $1`,
      [id, reason.slice(0, 2000), GenerationStage.Failed],
    );
  }

  /** Running generations not touched since `before` (all of them without a date), oldest first. */
  async findRunning(before?: Date, limit = 500): Promise<RunningRow[]> {
    const rows: {
      id: string;
      type: 'image' | 'video';
      provider_job_id: string | null;
      submit_started_at: Date | null;
      polls: number;
      updated_at: Date;
      created_at: Date;
      deadline_at: Date | null;
      read_at: Date;
    }[] = await this.db.query(
      `SELECT id, type, provider_job_id, submit_started_at, polls, updated_at, created_at, deadline_at, now() AS read_at
         FROM user_generations
        WHERE status = 'processing' ${before ? 'AND updated_at < $2' : ''} ORDER BY updated_at LIMIT $1`,
      before ? [limit, before] : [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      providerJobId: r.provider_job_id,
      submitStartedAt: r.submit_started_at,
      polls: r.polls,
      updatedAt: r.updated_at,
      createdAt: r.created_at,
      deadlineAt: r.deadline_at,
      readAt: r.read_at,
    }));
  }

  /** The account's generations that are `id` or were made from any of these photos (ids or storage keys), oldest first. */
  async madeFromPhotos(userId: string, id: string, photoIds: string[], photoKeys: string[]): Promise<{ id: string }[]> {
    return this.db.query(
      `SELECT id FROM user_generations
        WHERE user_id = $1 AND (id = $2 OR metadata->'upload_ids' ?| $3::text[] OR metadata->>'upload_path' = ANY($4::text[]))
        ORDER BY created_at`,
      [userId, id, photoIds, photoKeys],
    );
  }

  /** Whether a generation with this id exists (any status, anyone's). */
  async existsById(id: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM user_generations WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /**
   * Stores the picture signature of a generation's result (rendering/result-signature.ts), replacing
   * an older one; nothing when the generation is gone. `version` is the signature's first byte; an
   * empty `signature` (with its `version`) marks a result whose picture could not be read: the
   * signature sweep does not try it again at that version.
   */
  async saveResultSignature(id: string, signature: Buffer, version: number = signature[0]): Promise<void> {
    await this.db.query(
      `INSERT INTO result_signatures (generation_id, version, signature)
       SELECT id, $2, $3 FROM user_generations WHERE id = $1
       ON CONFLICT (generation_id) DO UPDATE SET version = EXCLUDED.version, signature = EXCLUDED.signature, created_at = now()`,
      [id, version, signature],
    );
  }

  /**
   * A page of the signatures (of `version`) of every completed result, anyone's, in id order after
   * `afterId`: what a reported copy is compared with.
   */
  async resultSignaturesPage(afterId: string | null, limit: number, version: number): Promise<{ id: string; signature: Buffer }[]> {
    return this.db.query(
      `SELECT s.generation_id AS id, s.signature FROM result_signatures s JOIN user_generations g ON g.id = s.generation_id
        WHERE s.version = $3 AND length(s.signature) > 0 AND g.status = 'completed' AND g.result_key IS NOT NULL
          AND ($1::uuid IS NULL OR s.generation_id > $1::uuid)
        ORDER BY s.generation_id LIMIT $2`,
      [afterId, limit, version],
    );
  }

  /** Completed results without a signature of `version` (stored before it existed, or one that failed), oldest first. */
  async resultsWithoutSignature(version: number, limit: number): Promise<{ id: string; resultKey: string; type: 'image' | 'video' }[]> {
    const rows: { id: string; result_key: string; type: 'image' | 'video' }[] = await this.db.query(
      `SELECT g.id, g.result_key, g.type FROM user_generations g LEFT JOIN result_signatures s ON s.generation_id = g.id
        WHERE g.status = 'completed' AND g.result_key IS NOT NULL AND (s.generation_id IS NULL OR s.version <> $1)
        ORDER BY g.completed_at LIMIT $2`,
      [version, limit],
    );
    return rows.map((r) => ({ id: r.id, resultKey: r.result_key, type: r.type }));
  }

  /**
   * Completed results with no usable signature of `version` whose 64-bit perceptual hash is within
   * `maxDistance` bits of `hash`, nearest first: the older way of finding a copy, kept for results
   * the signature sweep has not reached (they are only ever offered as candidates).
   */
  async nearestByPhashWithoutSignature(
    hash: bigint,
    version: number,
    maxDistance: number,
    limit: number,
  ): Promise<{ id: string; distance: number }[]> {
    return this.db.query(
      `SELECT g.id, bit_count((g.result_phash # $1::bigint)::bit(64))::int AS distance
         FROM user_generations g LEFT JOIN result_signatures s ON s.generation_id = g.id AND s.version = $2 AND length(s.signature) > 0
        WHERE g.status = 'completed' AND g.result_key IS NOT NULL AND g.result_phash IS NOT NULL AND s.generation_id IS NULL
          AND bit_count((g.result_phash # $1::bigint)::bit(64)) <= $3
        ORDER BY distance, g.completed_at DESC LIMIT $4`,
      [hash.toString(), version, maxDistance, limit],
    );
  }

  /** What a ticket shows of the results a report names or offers (any status; an id that is gone is left out). */
  async resultsForReview(
    ids: string[],
  ): Promise<{ id: string; userId: string; type: 'image' | 'video'; status: string; resultKey: string | null; createdAt: Date }[]> {
    if (ids.length === 0) return [];
    const rows: { id: string; user_id: string; type: 'image' | 'video'; status: string; result_key: string | null; created_at: Date }[] =
      await this.db.query(`SELECT id, user_id, type, status, result_key, created_at FROM user_generations WHERE id = ANY($1::uuid[])`, [
        ids,
      ]);
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      type: r.type,
      status: r.status,
      resultKey: r.result_key,
      createdAt: r.created_at,
    }));
  }

  /** Generations that failed in the last `minutes`, those whose error is `exceptError` (cancellations) left out. */
  async countFailedWithin(minutes: number, exceptError: string): Promise<number> {
    const [{ n }] = await this.db.query(
      `SELECT count(*)::int AS n FROM user_generations
        WHERE status = 'failed' AND completed_at > now() - make_interval(mins => $1) AND coalesce(error, '') <> $2`,
      [minutes, exceptError],
    );
    return n;
  }

  /** The kind and status of an account's generation, for the mail that says it finished; undefined when it is not theirs. */
  async typeAndStatusOf(userId: string, id: string): Promise<{ type: 'image' | 'video'; status: string } | undefined> {
    const [generation]: { type: 'image' | 'video'; status: string }[] = await this.db.query(
      `SELECT type, status FROM user_generations WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    return generation;
  }
}
