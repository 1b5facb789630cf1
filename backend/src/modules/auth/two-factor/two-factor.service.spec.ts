import { newTestService } from '../../../../test/helpers/new-test-service';
import { APP_CONFIG } from '../../../config/config.module';
import { UserEntity, UserRole, UserTier } from '../../users/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { AuthErrorCode } from '../auth.exception';
import { AuthRepository } from '../auth.repository';
import { totpCode } from './totp';
import { TwoFactorService } from './two-factor.service';
import type { EntityManager } from 'typeorm';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 'u1',
    email: 'pat@example.com',
    role: UserRole.User,
    tier: UserTier.Free,
    totpSecret: null,
    totpEnabledAt: null,
    totpLastStep: null,
    ...overrides,
  });
}

describe('TwoFactorService (repositories mocked)', () => {
  let service: TwoFactorService;
  let repo: jest.Mocked<AuthRepository>;
  let users: jest.Mocked<UsersRepository>;
  const manager = {} as EntityManager;

  beforeEach(() => {
    const { sut, mock } = newTestService(TwoFactorService, {
      provide: APP_CONFIG,
      useValue: { appName: 'Fitting Room', auth: { jwtSecret: 'unit-test-secret-of-thirty-two-chars!' } },
    });
    service = sut;
    repo = mock(AuthRepository);
    users = mock(UsersRepository);
    repo.transaction.mockImplementation(async (work) => work(manager));
  });

  /** Runs the setup and answers the plain secret (what the app scans) and the stored, sealed one. */
  async function setUp(): Promise<{ secret: string; sealed: string }> {
    users.getById.mockResolvedValue(user());
    const { secret } = await service.setup('u1');
    const [, patch] = users.update.mock.calls[0];
    return { secret, sealed: patch.totpSecret as string };
  }

  it('keeps the secret sealed and turns two-factor on only with a code from the app, answering ten recovery codes kept as hashes', async () => {
    const { secret, sealed } = await setUp();
    expect(sealed).not.toContain(secret);
    users.lockById.mockResolvedValue(user({ totpSecret: sealed }));
    const right = totpCode(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    await expect(service.enable('u1', wrong)).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CODE });
    expect(repo.replaceRecoveryCodes).not.toHaveBeenCalled();

    const codes = await service.enable('u1', right);
    expect(codes).toHaveLength(10);
    expect(users.update).toHaveBeenLastCalledWith('u1', { totpEnabledAt: expect.any(Date), totpLastStep: expect.any(Number) }, manager);
    const [, , hashes] = repo.replaceRecoveryCodes.mock.calls[0];
    expect(hashes).toHaveLength(10);
    expect(hashes.some((h) => codes.includes(h))).toBe(false);
  });

  it('accepts a code once: the time step it belongs to is remembered and a second use is refused', async () => {
    const { secret, sealed } = await setUp();
    users.lockById.mockResolvedValue(user({ totpSecret: sealed, totpEnabledAt: new Date() }));
    const code = totpCode(secret);
    expect(await service.verify('u1', { code })).toBe(true);
    const step = (users.update.mock.calls.at(-1)![1] as Partial<UserEntity>).totpLastStep!;
    users.lockById.mockResolvedValue(user({ totpSecret: sealed, totpEnabledAt: new Date(), totpLastStep: step }));
    expect(await service.verify('u1', { code })).toBe(false);
    // without two-factor on, nothing proves it
    users.lockById.mockResolvedValue(user({ totpSecret: sealed }));
    expect(await service.verify('u1', { code: totpCode(secret) })).toBe(false);
  });

  it('turns two-factor off only with a good proof: a spent recovery code leaves it on', async () => {
    const { sealed } = await setUp();
    users.lockById.mockResolvedValue(user({ totpSecret: sealed, totpEnabledAt: new Date() }));
    repo.spendRecoveryCode.mockResolvedValue(false);
    await expect(service.disable('u1', { recovery_code: 'abcd-efgh' })).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CODE });
    expect(repo.deleteRecoveryCodes).not.toHaveBeenCalled();
    repo.spendRecoveryCode.mockResolvedValue(true);
    await service.disable('u1', { recovery_code: 'abcd-efgh' });
    expect(users.update).toHaveBeenLastCalledWith('u1', { totpSecret: null, totpEnabledAt: null, totpLastStep: null }, manager);
    expect(repo.deleteRecoveryCodes).toHaveBeenCalledWith(manager, 'u1');
  });
});
