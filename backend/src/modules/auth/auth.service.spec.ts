import { ActivityService } from '../analytics/activity.service';
import { AnalyticsService } from '../analytics/analytics.service';
import { UserEntity, UserRole, UserTier } from '../users/user.entity';
import { toProfile, UsersService } from '../users/users.service';
import { AuthErrorCode, GoogleAuthError } from './auth.exception';
import { AuthService } from './auth.service';
import { SessionsService } from './sessions.service';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 'u1',
    email: 'pat@example.com',
    fullName: 'Pat',
    passwordHash: null,
    role: UserRole.User,
    tier: UserTier.Free,
    credits: 3,
    ageConfirmedAt: new Date(),
    googleSub: null,
    lastSignInAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date(),
    ...overrides,
  });
}

describe('AuthService (repositories mocked)', () => {
  let users: jest.Mocked<Pick<UsersService, 'findByEmail' | 'findByGoogleSub' | 'createAccount' | 'recordSignIn' | 'getProfile' | 'profileOf'>>;
  let sessions: jest.Mocked<Pick<SessionsService, 'create' | 'rotate' | 'revoke' | 'revokeByRefreshToken'>>;
  let activity: { record: jest.Mock };
  let analytics: { track: jest.Mock };
  let service: AuthService;

  beforeEach(() => {
    users = {
      findByEmail: jest.fn().mockResolvedValue(null),
      findByGoogleSub: jest.fn().mockResolvedValue(null),
      createAccount: jest.fn(async (a) => user({ id: 'new', email: a.email, fullName: a.fullName, ageConfirmedAt: a.ageConfirmedAt, googleSub: a.googleSub ?? null })),
      recordSignIn: jest.fn(async (u, changes = {}) => Object.assign(u, changes)),
      getProfile: jest.fn(),
      profileOf: jest.fn(async (u) => toProfile(u, { subscription: 3, purchased: 0, held: 0, available: 3 })),
    };
    sessions = {
      create: jest.fn().mockResolvedValue({ sessionId: 's', accessToken: 'at', accessTokenExpiresAt: 1, refreshToken: 'rt', sessionExpiresAt: new Date() }),
      rotate: jest.fn(),
      revoke: jest.fn(),
      revokeByRefreshToken: jest.fn().mockResolvedValue(undefined),
    };
    activity = { record: jest.fn() };
    analytics = { track: jest.fn() };
    service = new AuthService(users as unknown as UsersService, sessions as unknown as SessionsService, activity as unknown as ActivityService, analytics as unknown as AnalyticsService);
  });

  it('refuses an unknown email and an account without a password with the same error, and starts no session', async () => {
    await expect(service.signIn({ email: 'nobody@example.com', password: 'whatever-123' }, {})).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CREDENTIALS, statusCode: 401 });
    users.findByEmail.mockResolvedValue(user({ passwordHash: null }));
    await expect(service.signIn({ email: 'pat@example.com', password: 'whatever-123' }, {})).rejects.toMatchObject({ code: AuthErrorCode.INVALID_CREDENTIALS, statusCode: 401 });
    expect(sessions.create).not.toHaveBeenCalled();
    expect(activity.record).not.toHaveBeenCalled();
  });

  it('records nothing when signing out without any session', async () => {
    await service.signOut(undefined, undefined);
    await service.signOut('not-a-valid-token', undefined);
    expect(activity.record).not.toHaveBeenCalled();
    expect(analytics.track).not.toHaveBeenCalled();
  });

  it('does not match an account by an email Google has not verified', async () => {
    users.findByEmail.mockResolvedValue(user());
    const result = await service.signInWithGoogle({ sub: 'g1', email: 'pat@example.com', emailVerified: false }, {});
    expect(result).toEqual({ error: GoogleAuthError.EmailUnverified });
    expect(users.findByEmail).not.toHaveBeenCalled();
    expect(sessions.create).not.toHaveBeenCalled();
  });

  it('links an existing account by verified email, and records a sign-in (not a sign-up)', async () => {
    users.findByEmail.mockResolvedValue(user());
    const result = await service.signInWithGoogle({ sub: 'g1', email: 'Pat@Example.com', emailVerified: true, name: 'Other Name' }, {});
    expect('body' in result && result.body.user).toMatchObject({ id: 'u1', full_name: 'Pat' });
    expect(users.recordSignIn).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1' }), { googleSub: 'g1' });
    expect(users.createAccount).not.toHaveBeenCalled();
    expect(activity.record).toHaveBeenCalledWith('u1', 'sign_in', { method: 'google', linked: true });
  });

  it('does not relink an account found by its Google id', async () => {
    users.findByGoogleSub.mockResolvedValue(user({ googleSub: 'g1' }));
    await service.signInWithGoogle({ sub: 'g1', email: 'changed@example.com', emailVerified: true }, {});
    expect(users.findByEmail).not.toHaveBeenCalled();
    expect(users.recordSignIn).toHaveBeenCalledWith(expect.objectContaining({ id: 'u1' }), {});
  });

  it('creates a new Google account without an age confirmation or password, and records a sign-up', async () => {
    const result = await service.signInWithGoogle({ sub: 'g2', email: 'new@example.com', emailVerified: true, name: ' New Person ' }, {});
    expect(users.createAccount).toHaveBeenCalledWith({ email: 'new@example.com', fullName: 'New Person', passwordHash: null, ageConfirmedAt: null, googleSub: 'g2' });
    expect('body' in result && result.body.user.age_confirmed).toBe(false);
    expect(analytics.track).toHaveBeenCalledWith('user_signup', 'new', { email: 'new@example.com', full_name: 'New Person', method: 'google' });
  });
});
