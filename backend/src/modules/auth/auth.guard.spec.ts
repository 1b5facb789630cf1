import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Authenticated } from '../../common/auth';
import { AuthError, ForbiddenError } from '../../common/errors';
import { testConfig } from '../../config/test-config';
import { UserRole, UserTier } from '../users/user.entity';
import { AuthErrorCode, AuthException, AuthMessages } from './auth.exception';
import { AuthGuard } from './auth.guard';
import type { SessionsService } from './sessions.service';
import type { ExecutionContext } from '@nestjs/common';

@Controller()
class ProbeController {
  @Get() open() {}
  @Authenticated() @Get() signedIn() {}
  @Authenticated({ roles: [UserRole.Admin] }) @Get() adminOnly() {}
  @Authenticated({ roles: [UserRole.Admin, UserRole.Support] }) @Get() staff() {}
  @Authenticated({ optional: true }) @Get() optional() {}
  @Authenticated({ verifiedAdult: true }) @Get() upload() {}
  @Authenticated({ queryToken: true }) @Get() stream() {}
}

@Authenticated({ roles: [UserRole.Support] })
@Controller()
class SupportController {
  @Get() list() {}
}

const TOKENS: Record<string, UserRole> = { 'user-token': UserRole.User, 'support-token': UserRole.Support, 'admin-token': UserRole.Admin };

function context(controller: object, handler: string, authorization?: string, query: Record<string, unknown> = {}) {
  const request: Record<string, unknown> = { headers: authorization ? { authorization } : {}, query };
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value) };
  const ctx = {
    getType: () => 'http',
    getHandler: () => (controller as Record<string, unknown>)[handler],
    getClass: () => controller.constructor,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { ctx, request, headers };
}

describe('AuthGuard and @Authenticated()', () => {
  const sessions = {
    authenticate: jest.fn(async (token: string) =>
      TOKENS[token] ? { id: `id-${token}`, role: TOKENS[token], tier: UserTier.Free, sessionId: 's' } : null,
    ),
    // a genuine token of an account an admin suspended (its sessions ended with it)
    whyEnded: jest.fn(async (token: string) => (token === 'suspended-token' ? AuthException.sessionSuspended() : null)),
  } as unknown as SessionsService;
  const guard = new AuthGuard(new Reflector(), sessions);
  const probe = new ProbeController();
  const support = new SupportController();

  const run = (controller: object, handler: string, token?: string) =>
    guard.canActivate(context(controller, handler, token && `Bearer ${token}`).ctx);

  it('lets anyone through a route without the decorator, without looking at tokens', async () => {
    await expect(run(probe, 'open')).resolves.toBe(true);
    await expect(run(probe, 'open', 'garbage')).resolves.toBe(true);
  });

  it('answers 401 without a valid bearer token, and sets the caller with one', async () => {
    await expect(run(probe, 'signedIn')).rejects.toBeInstanceOf(AuthError);
    await expect(run(probe, 'signedIn', 'garbage')).rejects.toBeInstanceOf(AuthError);
    const { ctx, request } = context(probe, 'signedIn', 'bearer user-token');
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.user).toEqual({ id: 'id-user-token', role: UserRole.User, tier: UserTier.Free, sessionId: 's' });
  });

  it('marks whatever a signed-in caller receives as not to be stored (Cache-Control: no-store)', async () => {
    const signedIn = context(probe, 'signedIn', 'Bearer user-token');
    await guard.canActivate(signedIn.ctx);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const anonymous = context(probe, 'optional');
    await guard.canActivate(anonymous.ctx);
    expect(anonymous.headers['cache-control']).toBeUndefined();
  });

  it('refuses uploads and generations to a caller without a verified address or the 18+ confirmation', async () => {
    const who: Record<string, object> = {
      unverified: { emailVerified: false, ageConfirmed: true },
      underConfirmed: { emailVerified: true, ageConfirmed: false },
      ready: { emailVerified: true, ageConfirmed: true },
    };
    const g = new AuthGuard(new Reflector(), {
      authenticate: jest.fn(async (token: string) => ({
        id: token,
        role: UserRole.User,
        tier: UserTier.Free,
        sessionId: 's',
        ...who[token],
      })),
    } as unknown as SessionsService);
    const call = (token: string) => g.canActivate(context(probe, 'upload', `Bearer ${token}`).ctx);
    await expect(call('unverified')).rejects.toMatchObject({ code: AuthErrorCode.EMAIL_NOT_VERIFIED, statusCode: 403 });
    await expect(call('underConfirmed')).rejects.toMatchObject({ code: AuthErrorCode.AGE_NOT_CONFIRMED, statusCode: 403 });
    await expect(call('ready')).resolves.toBe(true);
  });

  it('keeps staff without two-factor out of staff routes when AUTH_REQUIRE_STAFF_2FA is on, and only then', async () => {
    const authenticate = jest.fn(async (token: string) => ({
      id: token,
      role: token.startsWith('admin') ? UserRole.Admin : UserRole.User,
      tier: UserTier.Free,
      sessionId: 's',
      twoFactorEnabled: token.endsWith('2fa'),
    }));
    const strict = new AuthGuard(
      new Reflector(),
      { authenticate } as unknown as SessionsService,
      testConfig({ auth: { requireStaffTwoFactor: true } }),
    );
    const lax = new AuthGuard(
      new Reflector(),
      { authenticate } as unknown as SessionsService,
      testConfig({ auth: { requireStaffTwoFactor: false } }),
    );
    await expect(strict.canActivate(context(probe, 'adminOnly', 'Bearer admin').ctx)).rejects.toMatchObject({
      code: AuthErrorCode.TWO_FACTOR_REQUIRED,
      statusCode: 403,
    });
    await expect(strict.canActivate(context(probe, 'adminOnly', 'Bearer admin-2fa').ctx)).resolves.toBe(true);
    await expect(strict.canActivate(context(probe, 'signedIn', 'Bearer admin').ctx)).resolves.toBe(true); // their own account pages stay open, to turn it on
    await expect(lax.canActivate(context(probe, 'adminOnly', 'Bearer admin').ctx)).resolves.toBe(true);
  });

  it('answers 403 for a signed-in caller without one of the roles', async () => {
    await expect(run(probe, 'adminOnly', 'user-token')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(run(probe, 'adminOnly', 'support-token')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(run(probe, 'adminOnly', 'admin-token')).resolves.toBe(true);
    await expect(run(probe, 'staff', 'support-token')).resolves.toBe(true);
    await expect(run(probe, 'staff', 'user-token')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(run(probe, 'adminOnly')).rejects.toBeInstanceOf(AuthError); // 401 before 403
  });

  it('applies a decorator on the controller to all its routes', async () => {
    await expect(run(support, 'list', 'support-token')).resolves.toBe(true);
    await expect(run(support, 'list', 'admin-token')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(run(support, 'list')).rejects.toBeInstanceOf(AuthError);
  });

  it("tells the holder of a suspended account's token why their session ended (401, the suspension's message), but not on an optional route", async () => {
    await expect(run(probe, 'signedIn', 'suspended-token')).rejects.toMatchObject({
      statusCode: 401,
      code: AuthErrorCode.ACCOUNT_SUSPENDED,
      message: AuthMessages.accountSuspended,
    });
    await expect(run(probe, 'signedIn', 'garbage')).rejects.not.toMatchObject({ message: AuthMessages.accountSuspended });
    const { ctx, request } = context(probe, 'optional', 'Bearer suspended-token');
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.user).toBeUndefined();
  });

  it('leaves the caller anonymous on an optional route when the token is missing or invalid', async () => {
    const { ctx, request } = context(probe, 'optional', 'Bearer garbage');
    await expect(guard.canActivate(ctx)).resolves.toBe(true);
    expect(request.user).toBeUndefined();
    const withUser = context(probe, 'optional', 'Bearer user-token');
    await guard.canActivate(withUser.ctx);
    expect(withUser.request.user).toMatchObject({ role: UserRole.User });
  });

  it('takes the access token from ?access_token= only on a queryToken route, when the header brings no valid one', async () => {
    const fromQuery = context(probe, 'stream', undefined, { access_token: 'user-token' });
    await expect(guard.canActivate(fromQuery.ctx)).resolves.toBe(true);
    expect(fromQuery.request.user).toMatchObject({ role: UserRole.User });
    await expect(guard.canActivate(context(probe, 'stream', 'Bearer garbage', { access_token: 'admin-token' }).ctx)).resolves.toBe(true);
    await expect(guard.canActivate(context(probe, 'stream', undefined, { access_token: 'garbage' }).ctx)).rejects.toBeInstanceOf(AuthError);
    await expect(
      guard.canActivate(context(probe, 'stream', undefined, { access_token: ['user-token', 'user-token'] }).ctx),
    ).rejects.toBeInstanceOf(AuthError);
    await expect(run(probe, 'stream')).rejects.toBeInstanceOf(AuthError);
    await expect(guard.canActivate(context(probe, 'signedIn', undefined, { access_token: 'user-token' }).ctx)).rejects.toBeInstanceOf(
      AuthError,
    );
  });
});
