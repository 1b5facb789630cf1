import { newTestService } from '../../../test/helpers/new-test-service';
import { APP_CONFIG } from '../../config/config.module';
import { CreditsService } from '../credits/credits.service';
import { UserEntity, UserRole, UserTier } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import type { EntityManager } from 'typeorm';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 'u1',
    email: 'pat@example.com',
    fullName: 'Pat',
    role: UserRole.User,
    adminFromList: false,
    tier: UserTier.Free,
    emailVerifiedAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  });
}

describe('UsersService (repositories mocked)', () => {
  let service: UsersService;
  let users: jest.Mocked<UsersRepository>;
  let credits: jest.Mocked<CreditsService>;
  const manager = {} as EntityManager;

  beforeEach(() => {
    const { sut, mock } = newTestService(UsersService, { provide: APP_CONFIG, useValue: { auth: { adminEmails: ['boss@example.com'] } } });
    service = sut;
    users = mock(UsersRepository);
    credits = mock(CreditsService);
    users.transaction.mockImplementation(async (work) => work(manager));
    users.build.mockImplementation((fields) => Object.assign(new UserEntity(), fields));
    users.save.mockImplementation(async (u) => Object.assign(u, { id: u.id ?? 'new' }));
  });

  it('makes an admin of an address ADMIN_EMAILS lists only once the address is proven, and opens the credit account with the user', async () => {
    const unproven = await service.createAccount({
      email: ' Boss@Example.com ',
      fullName: 'Boss',
      passwordHash: 'h',
      ageConfirmedAt: new Date(),
    });
    expect(unproven).toMatchObject({
      email: 'boss@example.com',
      role: UserRole.User,
      adminFromList: false,
      tier: UserTier.Free,
      emailVerifiedAt: null,
    });
    const proven = await service.createAccount({
      email: 'boss@example.com',
      fullName: 'Boss',
      passwordHash: null,
      ageConfirmedAt: null,
      googleSub: 'g1',
      emailVerifiedAt: new Date(),
    });
    expect(proven).toMatchObject({ role: UserRole.Admin, adminFromList: true });
    // the credit account is opened inside the transaction that saved the user
    expect(credits.openAccount).toHaveBeenCalledWith('new', UserTier.Free, manager);
  });

  it('marks an address proven, promotes a listed one, and answers the other unverified accounts of it for removal', async () => {
    users.unverifiedIdsOf.mockResolvedValue(['squatter']);
    const { user: verified, displaced } = await service.markEmailVerified(manager, user({ email: 'boss@example.com' }));
    expect(verified).toMatchObject({ emailVerifiedAt: expect.any(Date), role: UserRole.Admin, adminFromList: true });
    expect(users.unverifiedIdsOf).toHaveBeenCalledWith(manager, 'boss@example.com', 'u1');
    expect(displaced).toEqual(['squatter']);
  });

  it('offers the verified account of an address to a password first, then the unverified ones newest first', async () => {
    users.findWithPasswordByEmail.mockResolvedValue([
      user({ id: 'newest-unverified' }),
      user({ id: 'owner', emailVerifiedAt: new Date() }),
      user({ id: 'older-unverified' }),
    ]);
    const candidates = await service.findSignInCandidates('PAT@example.com');
    expect(candidates.map((c) => c.id)).toEqual(['owner', 'newest-unverified', 'older-unverified']);
    expect(users.findWithPasswordByEmail).toHaveBeenCalledWith('pat@example.com', 4);
  });
});
