import { newTestService } from '../../../test/helpers/new-test-service';
import { hashPassword } from '../../common/security/password';
import { MessageQueueService } from '../../queue';
import { ActivityService } from '../analytics/activity.service';
import { AnalyticsService } from '../analytics/analytics.service';
import { UserEntity, UserRole, UserTier } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { toProfile, UsersService } from '../users/users.service';
import { AddressProofService, type ProvenAddress } from './address-proof.service';
import { AuthErrorCode, GoogleAuthError } from './auth.exception';
import { AuthService } from './auth.service';
import { SignInThrottle } from './rate-limit/sign-in-throttle.service';
import { SessionRevokeReason } from './session.entity';
import { SessionsService } from './sessions.service';
import { AuthTokenEntity, AuthTokenPurpose } from './tokens/auth-token.entity';
import { AuthTokensService, MFA_CHALLENGE_MAX_ATTEMPTS } from './tokens/auth-tokens.service';
import { TwoFactorService } from './two-factor/two-factor.service';
import type { AuthUser } from '../../common/auth';
import type { EntityManager } from 'typeorm';

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
  let users: jest.Mocked<UsersService>;
  let userRows: jest.Mocked<UsersRepository>;
  let sessions: jest.Mocked<SessionsService>;
  let tokens: jest.Mocked<AuthTokensService>;
  let twoFactor: jest.Mocked<TwoFactorService>;
  let throttle: jest.Mocked<SignInThrottle>;
  let queue: jest.Mocked<MessageQueueService>;
  let proofs: jest.Mocked<AddressProofService>;
  let activity: jest.Mocked<ActivityService>;
  let analytics: jest.Mocked<AnalyticsService>;
  let service: AuthService;
  /** the manager a transaction hands to its work; the repositories are mocked, so it is never used */
  const manager = {} as EntityManager;

  beforeEach(() => {
    const { sut, mock } = newTestService(AuthService);
    service = sut;
    users = mock(UsersService);
    userRows = mock(UsersRepository);
    sessions = mock(SessionsService);
    tokens = mock(AuthTokensService);
    twoFactor = mock(TwoFactorService);
    throttle = mock(SignInThrottle);
    queue = mock(MessageQueueService);
    proofs = mock(AddressProofService);
    activity = mock(ActivityService);
    analytics = mock(AnalyticsService);
    users.findSignInCandidates.mockResolvedValue([]);
    users.findVerifiedByEmail.mockResolvedValue(null);
    users.findUnverifiedByEmail.mockResolvedValue([]);
    users.findByGoogleSub.mockResolvedValue(null);
    users.createAccount.mockImplementation(async (a) =>
      user({
        id: 'new',
        email: a.email,
        fullName: a.fullName,
        ageConfirmedAt: a.ageConfirmedAt,
        googleSub: a.googleSub ?? null,
        emailVerifiedAt: a.emailVerifiedAt ?? null,
      }),
    );
    users.recordSignIn.mockImplementation(async (u, changes = {}) => Object.assign(u, changes));
    users.profileOf.mockImplementation(async (u) => toProfile(u, { subscription: 3, purchased: 0, held: 0, available: 3 }));
    sessions.create.mockResolvedValue({
      sessionId: 's',
      accessToken: 'at',
      accessTokenExpiresAt: 1,
      refreshToken: 'rt',
      sessionExpiresAt: new Date(),
    });
    sessions.revokeByRefreshToken.mockResolvedValue(undefined);
    tokens.issue.mockResolvedValue('challenge-token');
    throttle.begin.mockResolvedValue({ keys: ['k'] } as never);
    userRows.transaction.mockImplementation(async (work) => work(manager));
    proofs.prove.mockImplementation(async (_m, account, proof): Promise<ProvenAddress> => ({
      user: account,
      proof,
      claimed: proof !== 'verification_link',
      displaced: [],
    }));
  });

  it('refuses an unknown email and a wrong password with the same error, counts the attempt, and starts no session', async () => {
    await expect(service.signIn({ email: 'nobody@example.com', password: 'whatever-123' }, CLIENT)).rejects.toMatchObject({
      code: AuthErrorCode.INVALID_CREDENTIALS,
      statusCode: 401,
    });
    users.findSignInCandidates.mockResolvedValue([user({ passwordHash: await hashPassword('the-right-one-42') })]);
    await expect(service.signIn({ email: 'pat@example.com', password: 'whatever-123' }, CLIENT)).rejects.toMatchObject({
      code: AuthErrorCode.INVALID_CREDENTIALS,
      statusCode: 401,
    });
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
    expect(await service.signInWithGoogle({ sub: 'g-other', email: 'pat@example.com', emailVerified: true }, {})).toEqual({
      error: GoogleAuthError.Failed,
    });
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
      expect.objectContaining({
        email: 'new@example.com',
        fullName: 'New Person',
        passwordHash: null,
        ageConfirmedAt: null,
        googleSub: 'g2',
        emailVerifiedAt: expect.any(Date),
      }),
      expect.anything(),
    );
    expect('session' in result && result.session.body.user).toMatchObject({ age_confirmed: false, email_verified: true });
    expect(analytics.track).toHaveBeenCalledWith('user_signup', 'new', {
      email: 'new@example.com',
      full_name: 'New Person',
      method: 'google',
    });
  });

  it('takes the newest unverified account of the address over through the one proof path, and answers its session', async () => {
    const squatted = user({ id: 'squatted', emailVerifiedAt: null, fullName: 'Not The Owner' });
    users.findUnverifiedByEmail.mockResolvedValue([squatted]);
    const result = await service.signInWithGoogle({ sub: 'g3', email: 'pat@example.com', emailVerified: true, name: 'Pat Owner' }, {});
    expect(proofs.prove).toHaveBeenCalledWith(manager, squatted, 'google', { googleSub: 'g3', fullName: 'Pat Owner' });
    expect(proofs.settle).toHaveBeenCalledWith(expect.objectContaining({ proof: 'google', claimed: true }));
    expect(users.createAccount).not.toHaveBeenCalled();
    expect('session' in result && result.session.body.user.id).toBe('squatted');
  });

  function challenge(overrides: Partial<AuthTokenEntity> = {}): AuthTokenEntity {
    return Object.assign(new AuthTokenEntity(), {
      id: 'challenge-1',
      userId: 'u1',
      purpose: AuthTokenPurpose.MfaChallenge,
      email: null,
      attempts: 0,
      usedAt: null,
      expiresAt: new Date(Date.now() + 60_000),
      ...overrides,
    });
  }

  const CALLER: AuthUser = {
    id: 'u1',
    role: UserRole.User,
    tier: UserTier.Free,
    sessionId: 'this-device',
    emailVerified: true,
    ageConfirmed: true,
    twoFactorEnabled: false,
  };

  describe('sign-up', () => {
    it('refuses a common password before any account is made', async () => {
      await expect(
        service.signUp({ email: 'ada@example.com', password: 'Password123', full_name: 'Ada', age_confirmed: true }, {}),
      ).rejects.toMatchObject({ statusCode: 400 });
      expect(users.createAccount).not.toHaveBeenCalled();
    });

    it('makes an unverified account signed in at once for a new address, and mails its link', async () => {
      users.findUnverifiedByEmail.mockResolvedValue([]);
      users.findVerifiedByEmail.mockResolvedValue(null);
      const result = await service.signUp(
        { email: ' Ada@Example.COM ', password: 'lantern-violet-harbour-9', full_name: 'Ada', age_confirmed: true },
        {},
      );
      expect(users.createAccount).toHaveBeenCalledWith(
        expect.objectContaining({
          email: 'ada@example.com',
          passwordHash: expect.stringMatching(/^\$argon2id\$/),
          ageConfirmedAt: expect.any(Date),
        }),
        manager,
      );
      expect('session' in result && result.session.body.user).toMatchObject({ id: 'new', email_verified: false });
      expect(queue.add).toHaveBeenCalledWith('auth.account-mail', { kind: 'verify-email', userId: 'new' }, expect.anything());
    });

    it.each([
      ['a verified owner', () => users.findVerifiedByEmail.mockResolvedValue(user({ id: 'owner' }))],
      [
        'sign-ups waiting from before',
        () => users.findUnverifiedByEmail.mockResolvedValue([user({ id: 'waiting', emailVerifiedAt: null })]),
      ],
    ])('makes no account and signs nobody in when the address has %s: the address is mailed instead', async (_, arrange) => {
      users.findVerifiedByEmail.mockResolvedValue(null);
      users.findUnverifiedByEmail.mockResolvedValue([]);
      arrange();
      const result = await service.signUp(
        { email: 'Ada@Example.com', password: 'lantern-violet-harbour-9', full_name: 'Ada', age_confirmed: true },
        {},
      );
      expect(result).toEqual({ checkEmail: 'ada@example.com' });
      expect(users.createAccount).not.toHaveBeenCalled();
      expect(sessions.create).not.toHaveBeenCalled();
      expect(queue.add).toHaveBeenCalledWith(
        'auth.account-mail',
        { kind: 'sign-up-existing', email: 'ada@example.com' },
        expect.anything(),
      );
    });
  });

  describe('sign-in', () => {
    it('says an account is suspended only to someone who knows its password', async () => {
      const password = 'lantern-violet-harbour-9';
      users.findSignInCandidates.mockResolvedValue([user({ passwordHash: await hashPassword(password), suspendedAt: new Date() })]);
      await expect(service.signIn({ email: 'pat@example.com', password: 'not-the-password-1' }, CLIENT)).rejects.toMatchObject({
        code: AuthErrorCode.INVALID_CREDENTIALS,
      });
      await expect(service.signIn({ email: 'pat@example.com', password }, CLIENT)).rejects.toMatchObject({
        code: AuthErrorCode.ACCOUNT_SUSPENDED,
        statusCode: 403,
      });
      expect(sessions.create).not.toHaveBeenCalled();
    });

    it('signs an unverified account in: it may browse before the mailed link is followed', async () => {
      const password = 'lantern-violet-harbour-9';
      users.findSignInCandidates.mockResolvedValue([user({ emailVerifiedAt: null, passwordHash: await hashPassword(password) })]);
      const outcome = await service.signIn({ email: 'pat@example.com', password }, CLIENT);
      expect('session' in outcome && outcome.session.body.user).toMatchObject({ id: 'u1', email_verified: false });
    });
  });

  describe('the two-factor step of a sign-in', () => {
    it('counts a wrong code against the challenge, and the last allowed wrong code ends it', async () => {
      tokens.find.mockResolvedValue(challenge());
      twoFactor.verify.mockResolvedValue(false);
      tokens.countAttempt.mockResolvedValueOnce(1).mockResolvedValueOnce(MFA_CHALLENGE_MAX_ATTEMPTS);
      await expect(service.signInWithCode('mfa', { code: '000000' }, {})).rejects.toMatchObject({
        code: AuthErrorCode.INVALID_CODE,
        statusCode: 400,
      });
      await expect(service.signInWithCode('mfa', { code: '000000' }, {})).rejects.toMatchObject({
        code: AuthErrorCode.MFA_EXPIRED,
        statusCode: 401,
      });
      expect(sessions.create).not.toHaveBeenCalled();
    });

    it('refuses a challenge that took every allowed try, without checking the code', async () => {
      tokens.find.mockResolvedValue(challenge({ attempts: MFA_CHALLENGE_MAX_ATTEMPTS }));
      twoFactor.verify.mockResolvedValue(true);
      await expect(service.signInWithCode('mfa', { code: '123456' }, {})).rejects.toMatchObject({ code: AuthErrorCode.MFA_EXPIRED });
      expect(twoFactor.verify).not.toHaveBeenCalled();
      expect(sessions.create).not.toHaveBeenCalled();
    });

    it('spends the challenge on a good recovery code and records a two-factor sign-in', async () => {
      tokens.find.mockResolvedValue(challenge());
      twoFactor.verify.mockResolvedValue(true);
      userRows.findById.mockResolvedValue(user({ totpEnabledAt: new Date() }));
      const result = await service.signInWithCode('mfa', { recovery_code: 'abcd-efgh' }, {});
      expect(result.body.user.id).toBe('u1');
      expect(tokens.use).toHaveBeenCalledWith(manager, 'challenge-1');
      expect(activity.record).toHaveBeenCalledWith('u1', 'sign_in', { method: 'password+2fa', recovery_code: true });
    });

    it('refuses a good code when a concurrent request spent the challenge first, and a suspended account', async () => {
      twoFactor.verify.mockResolvedValue(true);
      tokens.find.mockResolvedValueOnce(challenge()).mockResolvedValueOnce(null);
      await expect(service.signInWithCode('mfa', { code: '123456' }, {})).rejects.toMatchObject({ code: AuthErrorCode.MFA_EXPIRED });
      tokens.find.mockResolvedValue(challenge());
      userRows.findById.mockResolvedValue(user({ suspendedAt: new Date() }));
      await expect(service.signInWithCode('mfa', { code: '123456' }, {})).rejects.toMatchObject({ code: AuthErrorCode.ACCOUNT_SUSPENDED });
      expect(sessions.create).not.toHaveBeenCalled();
    });
  });

  describe('passwords', () => {
    it('changes the password only with the current one, and ends every other session of the account', async () => {
      users.findById.mockResolvedValue(user({ passwordHash: await hashPassword('old-password-for-pat-1') }));
      await expect(service.changePassword(CALLER, 'a-wrong-guess-77', 'new-password-for-pat-2')).rejects.toMatchObject({
        code: AuthErrorCode.WRONG_PASSWORD,
      });
      expect(userRows.update).not.toHaveBeenCalled();
      await service.changePassword(CALLER, 'old-password-for-pat-1', 'new-password-for-pat-2');
      expect(userRows.update).toHaveBeenCalledWith('u1', { passwordHash: expect.stringMatching(/^\$argon2id\$/) }, manager);
      expect(sessions.revokeAllForUser).toHaveBeenCalledWith('u1', SessionRevokeReason.PasswordChange, { except: 'this-device', manager });
      expect(tokens.revokeAll).toHaveBeenCalledWith(manager, 'u1', [AuthTokenPurpose.PasswordReset]);
    });

    it('has no password to change on an account made with Google', async () => {
      users.findById.mockResolvedValue(user({ passwordHash: null, googleSub: 'g1' }));
      await expect(service.changePassword(CALLER, 'anything-at-all-1', 'new-password-for-pat-2')).rejects.toMatchObject({
        code: AuthErrorCode.NO_PASSWORD,
      });
      expect(userRows.update).not.toHaveBeenCalled();
    });

    it('a reset link sets the password, ends every session, and proves the address of an unverified account (taken over)', async () => {
      tokens.find.mockResolvedValue(challenge({ purpose: AuthTokenPurpose.PasswordReset, id: 'reset-1' }));
      const unverified = user({ emailVerifiedAt: null });
      userRows.lockById.mockResolvedValue(unverified);
      await service.resetPassword('reset-token', 'new-password-for-pat-2');
      expect(sessions.revokeAllForUser).toHaveBeenCalledWith('u1', SessionRevokeReason.PasswordReset, { manager });
      expect(proofs.prove).toHaveBeenCalledWith(manager, unverified, 'reset_link', {
        passwordHash: expect.stringMatching(/^\$argon2id\$/),
      });
      expect(proofs.settle).toHaveBeenCalledWith(expect.objectContaining({ user: unverified, proof: 'reset_link', claimed: true }));
      expect(queue.add).toHaveBeenCalledWith('auth.account-mail', { kind: 'password-changed', userId: 'u1' }, expect.anything());
    });

    it('a reset link of a verified account changes the password and ends the sessions, and proves nothing more', async () => {
      tokens.find.mockResolvedValue(challenge({ purpose: AuthTokenPurpose.PasswordReset, id: 'reset-1' }));
      userRows.lockById.mockResolvedValue(user({ totpEnabledAt: new Date() }));
      await service.resetPassword('reset-token', 'new-password-for-pat-2');
      expect(userRows.update).toHaveBeenCalledWith('u1', { passwordHash: expect.stringMatching(/^\$argon2id\$/) }, manager);
      expect(proofs.prove).not.toHaveBeenCalled();
      expect(proofs.settle).not.toHaveBeenCalled();
      expect(twoFactor.reset).not.toHaveBeenCalled();
    });
  });

  describe('email verification', () => {
    it('refuses a link sent to an address the account no longer has, and leaves the link unspent', async () => {
      tokens.find.mockResolvedValue(challenge({ purpose: AuthTokenPurpose.EmailVerification, email: 'old@example.com' }));
      userRows.lockById.mockResolvedValue(user({ email: 'new@example.com', emailVerifiedAt: null }));
      await expect(service.verifyEmail('link')).rejects.toMatchObject({ code: AuthErrorCode.INVALID_LINK, statusCode: 400 });
      expect(tokens.use).not.toHaveBeenCalled();
      expect(proofs.prove).not.toHaveBeenCalled();
    });

    it('refuses an expired or unknown link', async () => {
      tokens.find.mockResolvedValue(null);
      await expect(service.verifyEmail('link')).rejects.toMatchObject({ code: AuthErrorCode.INVALID_LINK });
      expect(proofs.prove).not.toHaveBeenCalled();
    });

    it('says whether the account starts afresh: it does when the proof took it over', async () => {
      tokens.find.mockResolvedValue(challenge({ purpose: AuthTokenPurpose.EmailVerification, email: 'pat@example.com' }));
      const unverified = user({ emailVerifiedAt: null });
      userRows.lockById.mockResolvedValue(unverified);
      expect(await service.verifyEmail('link')).toEqual({ fresh: false });
      expect(proofs.prove).toHaveBeenCalledWith(manager, unverified, 'verification_link');
      proofs.prove.mockImplementationOnce(async (_m, account, proof) => ({ user: account, proof, claimed: true, displaced: [] }));
      userRows.lockById.mockResolvedValue(user({ emailVerifiedAt: null }));
      expect(await service.verifyEmail('link')).toEqual({ fresh: true });
      expect(proofs.settle).toHaveBeenCalledTimes(2);
    });
  });
});
