import { createHash } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { newTestService } from '../../../test/helpers/new-test-service';
import { ErrorMessages } from '../../common/errors';
import { APP_CONFIG } from '../../config/config.module';
import { UserEntity, UserRole } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { AuthMessages } from './auth-messages';
import { SessionEntity, SessionRevokeReason } from './session.entity';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import type { EntityManager } from 'typeorm';

const SESSION_ID = '6f1c2b7e-3d4a-4c5b-8e9f-0a1b2c3d4e5f';
const USER_ID = '0b7e4a52-9c1d-4f3e-a6b8-2d5c7e9f1a3b';
const SECRET = 'a'.repeat(43);
const PREVIOUS_SECRET = 'b'.repeat(43);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function session(overrides: Partial<SessionEntity> = {}): SessionEntity {
  return Object.assign(new SessionEntity(), {
    id: SESSION_ID,
    userId: USER_ID,
    tokenHash: sha256(SECRET),
    previousTokenHash: sha256(PREVIOUS_SECRET),
    expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000),
    revokedAt: null,
    revokeReason: null,
    ...overrides,
  });
}

describe('SessionsService (repositories mocked)', () => {
  let service: SessionsService;
  let sessions: jest.Mocked<SessionsRepository>;
  let users: jest.Mocked<UsersRepository>;
  const manager = {} as EntityManager;

  beforeEach(() => {
    const { sut, mock } = newTestService(
      SessionsService,
      { provide: JwtService, useValue: new JwtService({}) },
      {
        provide: APP_CONFIG,
        useValue: {
          auth: {
            jwtSecret: 'unit-test-secret-of-thirty-two-chars!',
            accessTokenTtlSeconds: 900,
            sessionTtlDays: 30,
            refreshReuseGraceSeconds: 20,
          },
        },
      },
    );
    service = sut;
    sessions = mock(SessionsRepository);
    users = mock(UsersRepository);
    sessions.transaction.mockImplementation(async (work) => work(manager));
    users.findForRefresh.mockResolvedValue(Object.assign(new UserEntity(), { id: USER_ID, role: UserRole.User, suspendedAt: null }));
  });

  it('rotates a refresh token: the same session gets a new secret, and neither it nor the access token outlives the session', async () => {
    const stored = session({ expiresAt: new Date(Date.now() + 60_000) });
    sessions.lockById.mockResolvedValue(stored);
    const { userId, issued } = await service.rotate(`${SESSION_ID}.${SECRET}`, {});
    expect(userId).toBe(USER_ID);
    expect(issued.refreshToken.startsWith(`${SESSION_ID}.`)).toBe(true);
    expect(issued.refreshToken).not.toBe(`${SESSION_ID}.${SECRET}`);
    expect(issued.sessionExpiresAt).toEqual(stored.expiresAt);
    expect(issued.accessTokenExpiresAt).toBeLessThanOrEqual(Math.floor(stored.expiresAt.getTime() / 1000));
    // the token just replaced is remembered, so that presenting it again is caught as a replay
    expect(sessions.rotate).toHaveBeenCalledWith(
      manager,
      SESSION_ID,
      expect.objectContaining({ previousTokenHash: sha256(SECRET), tokenHash: sha256(issued.refreshToken.split('.')[1]) }),
    );
  });

  it('ends the session when the token a refresh replaced is presented again after the grace window, but only refuses a guessed one', async () => {
    sessions.lockById.mockResolvedValue(session({ rotatedAt: new Date(Date.now() - 21_000) }));
    await expect(service.rotate(`${SESSION_ID}.${'c'.repeat(43)}`, {})).rejects.toMatchObject({ statusCode: 401, code: 'AUTH_ERROR' });
    expect(sessions.end).not.toHaveBeenCalled();
    await expect(service.rotate(`${SESSION_ID}.${PREVIOUS_SECRET}`, {})).rejects.toMatchObject({
      statusCode: 401,
      code: 'SESSION_REVOKED',
      message: AuthMessages.signedOutForSafety,
    });
    expect(sessions.end).toHaveBeenCalledWith(manager, SESSION_ID, expect.any(Date), SessionRevokeReason.RefreshTokenReuse);
    expect(sessions.rotate).not.toHaveBeenCalled();
  });

  it('within the grace window the token just replaced answers the current one (two tabs converge); older ones are replays', async () => {
    // the real tokens of a session: number 0 at sign-in, number 1 after one refresh
    const created = await service.create({ id: USER_ID, role: UserRole.User }, {});
    const first = created.refreshToken.split('.')[1];
    const row = session({
      id: created.sessionId,
      tokenHash: sessions.insert.mock.calls[0][0].tokenHash,
      previousTokenHash: null,
      refreshCount: 0,
    });
    sessions.lockById.mockResolvedValue(row);
    const { issued } = await service.rotate(created.refreshToken, {});
    const second = issued.refreshToken.split('.')[1];
    const rotated = {
      tokenHash: sha256(second),
      previousTokenHash: sha256(first),
      refreshCount: 1,
      rotatedAt: new Date(Date.now() - 5_000),
    };
    sessions.lockById.mockResolvedValue(session({ id: created.sessionId, ...rotated }));
    sessions.rotate.mockClear();
    // the first token again, 5 s after it was replaced: the second one back, nothing rotates
    const again = await service.rotate(created.refreshToken, {});
    expect(again.issued.refreshToken).toBe(issued.refreshToken);
    expect(sessions.rotate).not.toHaveBeenCalled();
    expect(sessions.touch).toHaveBeenCalledWith(manager, created.sessionId, expect.objectContaining({ lastUsedAt: expect.any(Date) }));
    expect(sessions.end).not.toHaveBeenCalled();
    // a window of 0 turns it off
    (service as unknown as { config: { auth: { refreshReuseGraceSeconds: number } } }).config.auth.refreshReuseGraceSeconds = 0;
    await expect(service.rotate(created.refreshToken, {})).rejects.toMatchObject({ code: 'SESSION_REVOKED' });
  });

  it('tells the holder why the session ended: expired, suspended, password changed; a sign-out or a guess says nothing', async () => {
    sessions.lockById.mockResolvedValue(session({ expiresAt: new Date(Date.now() - 1000) }));
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ statusCode: 401, code: 'SESSION_EXPIRED' });
    await expect(service.rotate(`${SESSION_ID}.${'c'.repeat(43)}`, {})).rejects.toMatchObject({ message: ErrorMessages.auth });
    sessions.lockById.mockResolvedValue(session({ revokedAt: new Date(), revokeReason: SessionRevokeReason.AccountSuspended }));
    users.isSuspended.mockResolvedValue(true);
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({
      statusCode: 401,
      code: 'ACCOUNT_SUSPENDED',
      message: AuthMessages.accountSuspended,
    });
    // lifted since: the ended session says nothing about it any more
    users.isSuspended.mockResolvedValue(false);
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ message: ErrorMessages.auth });
    sessions.lockById.mockResolvedValue(session({ revokedAt: new Date(), revokeReason: SessionRevokeReason.PasswordChange }));
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ code: 'PASSWORD_CHANGED' });
    // a session ended for another reason says nothing about the account
    sessions.lockById.mockResolvedValue(session({ revokedAt: new Date(), revokeReason: SessionRevokeReason.SignOut }));
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ statusCode: 401, message: ErrorMessages.auth });
    expect(sessions.rotate).not.toHaveBeenCalled();
  });
});
