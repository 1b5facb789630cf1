import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SafetyRefusalEntity } from './safety-refusal.entity';

/** Every read and write of safety_refusals (the custom poses the safety check refused). */
@Injectable()
export class SafetyRefusalsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Records one refusal. `manager`: inside the caller's transaction. */
  async insert(refusal: { userId: string; reasons: string; text: string; source: string }, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).insert(SafetyRefusalEntity, refusal);
  }

  /** The account's refusals within the last hour. */
  async countLastHour(userId: string, manager?: EntityManager): Promise<number> {
    const [{ n }]: { n: number }[] = await (manager ?? this.db.manager).query(
      `SELECT count(*)::int AS n FROM safety_refusals WHERE user_id = $1 AND created_at > now() - interval '1 hour'`,
      [userId],
    );
    return n;
  }

  /** The account's refusals in all, and within the last 24 hours. */
  async counts(userId: string): Promise<{ total: number; day: number } | undefined> {
    const [counts]: { total: number; day: number }[] = await this.db.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE created_at > now() - interval '24 hours')::int AS day FROM safety_refusals WHERE user_id = $1`,
      [userId],
    );
    return counts;
  }

  /** The account's latest refusals, newest first. */
  latest(userId: string, limit: number): Promise<SafetyRefusalEntity[]> {
    return this.db.getRepository(SafetyRefusalEntity).find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** Clears the text of refusals older than `days`; answers how many. */
  async clearTextOlderThan(days: number): Promise<number> {
    const [, cleared]: [unknown, number] = await this.db.query(
      `UPDATE safety_refusals SET text = NULL WHERE text IS NOT NULL AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
    return cleared;
  }
}
