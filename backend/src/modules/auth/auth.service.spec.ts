import { hashPassword } from '../../common/security/password';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsService } from '../analytics/analytics.service';
import { AccountDeletionService } from '../privacy/account-deletion.service';
import { UserEntity, UserRole, UserTier } from '../users/user.entity';
import { toProfile, UsersService } from '../users/users.service';
import type { MessageQueueService } from '../../queue';
import type { DataSource } from 'typeorm';
import { AuthErrorCode, GoogleAuthError } from './auth.exception';
import { AuthService } from './auth.service';
import { SignInThrottle } from './rate-limit/sign-in-throttle.service';
import { SessionsService } from './sessions.service';
import { AuthTokensService } from './tokens/auth-tokens.service';
import { TwoFactorService } from './two-factor/two-factor.service';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 'u1',
    email: 'pat@example.com',
    fullName: 'Pat',
    passwordHash: null,
    role: UserRole.User,
    tier: UserTier.Free,
    ageConfirmedAt: new Date(),
    emailVerifiedAt: new Date(),
    totpEnabledAt: null,
    googleSub: null,
    lastSignInAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date(),
    ...overrides,
  });
}

const CLIENT = { trustedDevice: null, ip: '203.0.113.7' };

describe('AuthService (repositories mocked)', () => {
  let users: Record<string, jest.Mock>;
  let sessions: Record<string, jest.Mock>;
  let tokens: Record<string, jest.Mock>;
  let throttle: Record<string, jest.Mock>;
  let queue: { add: jest.Mock };
  let activity: { record: jest.Mock };
  let analytics: { track: jest.Mock };
  let service: AuthService;

  beforeEach(() => {
    users = {
      findSignInCandidates: jest.fn().mockResolvedValue([]),
      findVerifiedByEmail: jest.fn().mockResolvedValue(null),
      findUnverifiedByEmail: jest.fn().mockResolvedValue([]),
      findByGoogleSub: jest.fn().mockResolvedValue(null),
      createAccount: jest.fn(async (a) => user({ id: 'new', email: a.email, fullName: a.fullName, ageConfirmedAt: a.ageConfirmedAt, googleSub: a.googleSub ?? null, emailVerifiedAt: a.emailVerifiedAt ?? null })),
      recordSignIn: jest.fn(async (u, changes = {}) => Object.assign(u, changes)),
      profileOf: jest.fn(async (u) => toProfile(u, { subscription: 3, purchased: 0, held: 0, available: 3 })),
    };
    sessions = {
      create: jest.fn().mockResolvedValue({ sessionId: 's', accessToken: 'at', accessTokenExpiresAt: 1, refreshToken: 'rt', sessionExpiresAt: new Date() }),
      revoke: jest.fn(),
      revokeByRefreshToken: jest.fn().mockResolvedValue(undefined),
    };
    tokens = { issue: jest.fn().mockResolvedValue('challenge-token') };
    throttle = { begin: jest.fn().mockResolvedValue({ keys: ['k'] }), succeeded: jest.fn() };
    queue = { add: jest.fn() };
    activity = { record: jest.fn() };
    analytics = { track: jest.fn() };
    const db = { transaction: jest.fn(async (work: (m: unknown) => unknown) => work({ query: jest.fn() })) };
    service = new AuthService(
      db as unknown as DataSource,
      users as unknown as UsersService,
      sessions as unknown as SessionsService,
      tokens as unknown as AuthTokensService,
      {} as TwoFactorService,
      throttle as unknown as SignInThrottle,
      queue as unknown as MessageQueueService,
      { deleteAccount: jest.fn() } as unknown as AccountDeletionService,
      activity as unknown as ActivityService,
      analytics as unknown as AnalyticsService,
    );
  });

  it('refuses an unknown email and a wrong password with the same error, counts the attempt, and starts no session', async () => {
    await expect(service.signIn({ email: 'nobody@example.com', password: 'whatever-123' }, CLIENT)).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CREDENTIALS, statusCode: 401 });
    users.findSignInCandidates.mockResolvedValue([user({ passwordHash: await hashPassword('the-right-one-42') })]);
    await expect(service.signIn({ email: 'pat@example.com', password: 'whatever-123' }, CLIENT)).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CREDENTIALS, statusCode: 401 });
    expect(throttle.begin).toHaveBeenCalledTimes(2);
    expect(throttle.succeeded).not.toHaveBeenCalled();
    expect(sessions.create).not.toHaveBeenCalled();
  });

  it('signs in to the account whose password matches when an address has several, the verified one first', async () => {
    const password = 'lantern-violet-harbour-9';
    const squatter = user({ id: 'stranger', emailVerifiedAt: null, passwordHash: await hashPassword(password) });
    const owner = user({ id: 'owner', passwordHash: await hashPassword(password) });
    users.findSignInCandidates.mockResolvedValue([owner, squatter]);
    const outcome = await service.signIn({ email: 'pat@example.com', password }, CLIENT);
    expect('session' in outcome && outcome.session.body.user.id).toBe('owner');
    expect(throttle.succeeded).toHaveBeenCalled();
  });

  it('answers a two-factor challenge instead of a session when the account has two-factor on', async () => {
    const password = 'lantern-violet-harbour-9';
    users.findSignInCandidates.mockResolvedValue([user({ passwordHash: await hashPassword(password), totpEnabledAt: new Date() })]);
    expect(await service.signIn({ email: 'pat@example.com', password }, CLIENT)).toEqual({ mfaToken: 'challenge-token' });
    expect(sessions.create).not.toHaveBeenCalled();
  });

  it('records nothing when signing out without any session', async () => {
    await service.signOut(undefined, undefined);
    await service.signOut('not-a-valid-token', undefined);
    expect(activity.record).not.toHaveBeenCalled();
    expect(analytics.track).not.toHaveBeenCalled();
  });

  it('does not match an account by an email Google has not verified', async () => {
    users.findVerifiedByEmail.mockResolvedValue(user());
    const result = await service.signInWithGoogle({ sub: 'g1', email: 'pat@example.com', emailVerified: false }, {});
    expect(result).toEqual({ error: GoogleAuthError.EmailUnverified });
    expect(users.findVerifiedByEmail).not.toHaveBeenCalled();
    expect(sessions.create).not.toHaveBeenCalled();
  });

  it('links the verified owner of the address, and records a sign-in (not a sign-up)', async () => {
    users.findVerifiedByEmail.mockResolvedValue(user());
    const result = await service.signInWithGoogle({ sub: 'g1', email: 'Pat@Example.com', emailVerified: true, name: 'Other Name' }, {});
    expect('session' in result && result.session.body.user).toMatchObject({ id: 'u1', full_name: 'Pat' });
    expect(users.recordSignIn).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1' }), { googleSub: 'g1' });
    expect(users.createAccount).not.toHaveBeenCalled();
    expect(activity.record).toHaveBeenCalledWith('u1', 'sign_in', { method: 'google', linked: true });
  });

  it('refuses a second Google account for an address already linked to another', async () => {
    users.findVerifiedByEmail.mockResolvedValue(user({ googleSub: 'g-original' }));
    expect(await service.signInWithGoogle({ sub: 'g-other', email: 'pat@example.com', emailVerified: true }, {})).toEqual({ error: GoogleAuthError.Failed });
    expect(sessions.create).not.toHaveBeenCalled();
  });

  it('does not relink an account found by its Google id', async () => {
    users.findByGoogleSub.mockResolvedValue(user({ googleSub: 'g1' }));
    await service.signInWithGoogle({ sub: 'g1', email: 'changed@example.com', emailVerified: true }, {});
    expect(users.findVerifiedByEmail).not.toHaveBeenCalled();
    expect(users.recordSignIn).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1' }), {});
  });

  it('creates a new, verified Google account without an age confirmation or password, and records a sign-up', async () => {
    const result = await service.signInWithGoogle({ sub: 'g2', email: 'new@example.com', emailVerified: true, name: ' New Person ' }, {});
    expect(users.createAccount).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'new@example.com', fullName: 'New Person', passwordHash: null, ageConfirmedAt: null, googleSub: 'g2', emailVerifiedAt: expect.any(Date) }),
      expect.anything(),
    );
    expect('session' in result && result.session.body.user).toMatchObject({ age_confirmed: false, email_verified: true });
    expect(analytics.track).toHaveBeenCalledWith('user_signup', 'new', { email: 'new@example.com', full_name: 'New Person', method: 'google' });
  });
});
