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
        useValue: { auth: { jwtSecret: 'unit-test-secret-of-thirty-two-chars!', accessTokenTtlSeconds: 900, sessionTtlDays: 30 } },
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

  it('ends the session when the token a refresh replaced is presented again, but only refuses a guessed one', async () => {
    sessions.lockById.mockResolvedValue(session());
    await expect(service.rotate(`${SESSION_ID}.${'c'.repeat(43)}`, {})).rejects.toMatchObject({ statusCode: 401 });
    expect(sessions.end).not.toHaveBeenCalled();
    await expect(service.rotate(`${SESSION_ID}.${PREVIOUS_SECRET}`, {})).rejects.toMatchObject({ statusCode: 401 });
    expect(sessions.end).toHaveBeenCalledWith(manager, SESSION_ID, expect.any(Date), SessionRevokeReason.RefreshTokenReuse);
    expect(sessions.rotate).not.toHaveBeenCalled();
  });

  it('refuses an expired session, and tells the holder of a suspended account why', async () => {
    sessions.lockById.mockResolvedValue(session({ expiresAt: new Date(Date.now() - 1000) }));
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ statusCode: 401, message: ErrorMessages.auth });
    sessions.lockById.mockResolvedValue(session({ revokedAt: new Date(), revokeReason: SessionRevokeReason.AccountSuspended }));
    users.isSuspended.mockResolvedValue(true);
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({
      statusCode: 401,
      message: AuthMessages.accountSuspended,
    });
    // a session ended for another reason says nothing about the account
    sessions.lockById.mockResolvedValue(session({ revokedAt: new Date(), revokeReason: SessionRevokeReason.SignOut }));
    await expect(service.rotate(`${SESSION_ID}.${SECRET}`, {})).rejects.toMatchObject({ statusCode: 401, message: ErrorMessages.auth });
    expect(sessions.rotate).not.toHaveBeenCalled();
  });
});
