import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AuthTokenEntity, AuthTokenPurpose } from './tokens/auth-token.entity';
import { RecoveryCodeEntity } from './two-factor/recovery-code.entity';

/**
 * Every read and write of auth_tokens (one-time links and sign-in challenges) and
 * auth_recovery_codes (two-factor). `manager`: inside the caller's transaction.
 */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Stores a new token; the account's unused ones of the same purpose are deleted first. */
  async replaceToken(
    row: Pick<AuthTokenEntity, 'userId' | 'purpose' | 'tokenHash' | 'email' | 'expiresAt'>,
    manager?: EntityManager,
  ): Promise<void> {
    const m = manager ?? this.db.manager;
    await m.delete(AuthTokenEntity, { userId: row.userId, purpose: row.purpose, usedAt: IsNull() });
    await m.insert(AuthTokenEntity, row);
  }

  /** The token of this hash and purpose (used or not), locked for the caller's transaction. */
  lockToken(m: EntityManager, tokenHash: string, purpose: AuthTokenPurpose): Promise<AuthTokenEntity | null> {
    return m.findOne(AuthTokenEntity, { where: { tokenHash, purpose }, lock: { mode: 'pessimistic_write' } });
  }

  /** Spends a token. */
  async markTokenUsed(m: EntityManager, id: string): Promise<void> {
    await m.update(AuthTokenEntity, { id }, { usedAt: new Date() });
  }

  /** Marks used every unused token of these purposes of the account. */
  async endTokens(m: EntityManager, userId: string, purposes: AuthTokenPurpose[]): Promise<void> {
    for (const purpose of purposes) await m.update(AuthTokenEntity, { userId, purpose, usedAt: IsNull() }, { usedAt: new Date() });
  }

  /** One more wrong code on a token; answers its count, or undefined when the token is gone. */
  async countAttempt(id: string): Promise<number | undefined> {
    const [row]: { attempts: number }[][] = await this.db.query(
      `UPDATE auth_tokens SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts`,
      [id],
    );
    return row?.[0]?.attempts;
  }

  /** Deletes tokens that expired or were used more than a day ago; answers how many. */
  async deleteEndedTokens(): Promise<number> {
    const tokens = await this.db.query(
      `DELETE FROM auth_tokens WHERE expires_at < now() - interval '1 day' OR used_at < now() - interval '1 day'`,
    );
    return Array.isArray(tokens) && typeof tokens[1] === 'number' ? tokens[1] : 0;
  }

  /** The account's recovery codes become these (hashes); the old ones are deleted. */
  async replaceRecoveryCodes(m: EntityManager, userId: string, codeHashes: string[]): Promise<void> {
    await m.delete(RecoveryCodeEntity, { userId });
    await m.insert(
      RecoveryCodeEntity,
      codeHashes.map((codeHash) => ({ userId, codeHash })),
    );
  }

  /** Deletes every recovery code of the account. */
  /** How many recovery codes of the account are still unused. */
  countUnusedRecoveryCodes(userId: string): Promise<number> {
    return this.db.getRepository(RecoveryCodeEntity).count({ where: { userId, usedAt: IsNull() } });
  }

  async deleteRecoveryCodes(m: EntityManager, userId: string): Promise<void> {
    await m.delete(RecoveryCodeEntity, { userId });
  }

  /** Marks an unused recovery code of the account used; answers whether there was one. */
  async spendRecoveryCode(m: EntityManager, userId: string, codeHash: string): Promise<boolean> {
    const found = await m.findOne(RecoveryCodeEntity, { where: { userId, codeHash, usedAt: IsNull() } });
    if (!found) return false;
    await m.update(RecoveryCodeEntity, { id: found.id }, { usedAt: new Date() });
    return true;
  }
}
