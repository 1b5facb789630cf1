import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { FaceChallengeEntity, FaceCheckEventEntity, FaceConsentEntity, GenerationLikenessEntity, UploadFaceEntity } from './face.entities';

/** Every read and write of the face checks' tables (consent, photos' faces, challenges, events, likeness). */
@Injectable()
export class FacesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // --- consent

  findConsent(userId: string): Promise<FaceConsentEntity | null> {
    return this.db.getRepository(FaceConsentEntity).findOneBy({ userId });
  }

  /** Records (or renews, for a new wording) the consent, now. */
  async saveConsent(userId: string, version: string): Promise<void> {
    await this.db.query(
      `INSERT INTO face_consents (user_id, version, consented_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version, consented_at = now()`,
      [userId, version],
    );
  }

  // --- the faces of photos

  /** Writes the faces of new photos; `manager`: inside the caller's transaction (the uploads' insert). */
  async insertUploadFaces(rows: Omit<UploadFaceEntity, 'createdAt' | 'verifiedAt'>[], manager?: EntityManager): Promise<void> {
    if (rows.length === 0) return;
    await (manager ?? this.db.manager).getRepository(UploadFaceEntity).insert(rows.map((r) => ({ ...r, verifiedAt: null })));
  }

  /** The faces of these photos of the account (others' are left out). */
  uploadFaces(userId: string, uploadIds: string[]): Promise<UploadFaceEntity[]> {
    if (uploadIds.length === 0) return Promise.resolve([]);
    return this.db.getRepository(UploadFaceEntity).findBy({ userId, uploadId: In(uploadIds) });
  }

  /** Every face of the account's photos. */
  allUploadFaces(userId: string): Promise<UploadFaceEntity[]> {
    return this.db.getRepository(UploadFaceEntity).findBy({ userId });
  }

  async markVerified(userId: string, uploadIds: string[]): Promise<void> {
    if (uploadIds.length === 0) return;
    await this.db.query(
      `UPDATE upload_faces SET verified_at = now() WHERE user_id = $1 AND upload_id = ANY($2::uuid[]) AND verified_at IS NULL`,
      [userId, uploadIds],
    );
  }

  /** When the account's face was last verified (the newest verified photo still kept), or null. */
  async verifiedAt(userId: string): Promise<Date | null> {
    const [row] = (await this.db.query(`SELECT max(verified_at) AS at FROM upload_faces WHERE user_id = $1`, [userId])) as {
      at: Date | null;
    }[];
    return row?.at ?? null;
  }

  // --- challenges

  async createChallenge(userId: string, direction: 'left' | 'right', ttlSeconds: number): Promise<FaceChallengeEntity> {
    const [row] = (await this.db.query(
      `INSERT INTO face_challenges (user_id, direction, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
       RETURNING id, user_id AS "userId", direction, created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt"`,
      [userId, direction, ttlSeconds],
    )) as FaceChallengeEntity[];
    return row;
  }

  /** Challenges the account asked for within the last `minutes`. */
  async countChallengesSince(userId: string, minutes: number): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS n FROM face_challenges WHERE user_id = $1 AND created_at > now() - make_interval(mins => $2)`,
      [userId, minutes],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /** Uses the account's challenge once: answers it if it was unused and unexpired, else null. */
  async useChallenge(userId: string, id: string): Promise<FaceChallengeEntity | null> {
    const [rows] = (await this.db.query(
      `UPDATE face_challenges SET used_at = now() WHERE id = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > now()
       RETURNING id, user_id AS "userId", direction, created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt"`,
      [id, userId],
    )) as [FaceChallengeEntity[], number];
    return rows[0] ?? null;
  }

  /** Removes challenges a day past their expiry (they hold no picture: only the turn asked). */
  async deleteOldChallenges(): Promise<number> {
    const [, count] = (await this.db.query(`DELETE FROM face_challenges WHERE expires_at < now() - interval '1 day'`)) as [unknown, number];
    return count ?? 0;
  }

  // --- events

  async recordEvent(userId: string, kind: 'selfie' | 'photo', outcome: string, distance: number | null): Promise<void> {
    await this.db.getRepository(FaceCheckEventEntity).insert({ userId, kind, outcome, distance });
  }

  recentEvents(userId: string, limit = 20): Promise<FaceCheckEventEntity[]> {
    return this.db.getRepository(FaceCheckEventEntity).find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /** Refused checks of the account in the last `hours` hours. */
  async countRefusalsSince(userId: string, hours: number): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS n FROM face_check_events WHERE user_id = $1 AND outcome <> 'verified' AND created_at > now() - make_interval(hours => $2)`,
      [userId, hours],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  async countRefusals(userId: string): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS n FROM face_check_events WHERE user_id = $1 AND outcome <> 'verified'`, [
      userId,
    ])) as { n: number }[];
    return row?.n ?? 0;
  }

  // --- likeness

  findLikeness(generationId: string): Promise<GenerationLikenessEntity | null> {
    return this.db.getRepository(GenerationLikenessEntity).findOneBy({ generationId });
  }

  /** Adds a try's figure to the generation's likeness (the row is made at the first try). */
  async recordLikenessTry(
    generationId: string,
    distance: number | null,
    outcome: GenerationLikenessEntity['outcome'],
    threshold: number,
  ): Promise<number> {
    const [row] = (await this.db.query(
      `INSERT INTO generation_likeness (generation_id, distance, tries, outcome, threshold) VALUES ($1, $2, jsonb_build_array($2::real), $3, $4)
       ON CONFLICT (generation_id) DO UPDATE SET distance = EXCLUDED.distance, tries = generation_likeness.tries || jsonb_build_array($2::real),
         outcome = EXCLUDED.outcome, threshold = EXCLUDED.threshold, checked_at = now()
       RETURNING jsonb_array_length(tries) AS n`,
      [generationId, distance, outcome, threshold],
    )) as { n: number }[];
    return row?.n ?? 1;
  }
}
