import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Authenticated, AUTHENTICATED_KEY, type AuthenticatedOptions, type AuthUser } from '../../common/auth';
import { testConfig } from '../../config/test-config';
import { MemoryRateLimitStore } from '../auth/rate-limit/redis-throttler.storage';
import { UserRole, UserTier } from '../users/user.entity';
import { ApiTokenGate } from './api-token-gate';
import type { ApiTokenCheck, ApiTokensService } from './api-tokens.service';
import type { Request, Response } from 'express';

@Controller()
class Probe {
  @Authenticated() @Get() sessionOnly() {}
  @Authenticated({ scopes: ['generations:read'] }) @Get() reads() {}
  @Authenticated({ scopes: ['generations:read', 'generations:write'] }) @Get() both() {}
  @Authenticated({ optional: true, scopes: ['account:read'] }) @Get() publicWithScope() {}
  @Authenticated({ optional: true }) @Get() publicNoScope() {}
  @Authenticated({ roles: [UserRole.Admin] }) @Get() console() {}
}

const user: AuthUser = { id: 'u1', role: UserRole.Admin, tier: UserTier.Free, sessionId: '', apiTokenId: 't1' };

describe('ApiTokenGate: what a personal API token may reach', () => {
  const reflector = new Reflector();
  const options = (handler: keyof Probe): AuthenticatedOptions => reflector.get(AUTHENTICATED_KEY, Probe.prototype[handler]);
  let check: ApiTokenCheck;
  const tokens = { authenticate: jest.fn(async () => check) } as unknown as ApiTokensService;
  const config = testConfig({ developer: { apiTokenRateLimit: { windowSeconds: 60, max: 3 } } });
  let gate: ApiTokenGate;
  let headers: Record<string, string>;
  const res = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
  const req = (path: string) => ({ originalUrl: path }) as Request;

  beforeEach(() => {
    gate = new ApiTokenGate(tokens, new MemoryRateLimitStore(), config);
    headers = {};
    check = { user, tokenId: 't1', scopes: ['generations:read', 'account:read'] };
  });

  it('admits a token on a route that names a scope it has', async () => {
    await expect(gate.admit('frk_x', options('reads'), req('/api/generations'), res)).resolves.toBe(user);
    expect(headers).toMatchObject({ 'Cache-Control': 'no-store', 'RateLimit-Limit': '3', 'RateLimit-Remaining': '2' });
  });

  it('answers 403 INSUFFICIENT_SCOPE, naming the scope, when the token lacks one', async () => {
    await expect(gate.admit('frk_x', options('both'), req('/api/generations'), res)).rejects.toMatchObject({
      statusCode: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: 'This API token does not have the scope generations:write.',
    });
  });

  it('answers 403 API_TOKEN_NOT_ALLOWED on a route that takes sessions only, and on the console, whatever the scopes', async () => {
    check = { user, tokenId: 't1', scopes: ['account:read', 'uploads:read', 'uploads:write', 'generations:read', 'generations:write'] };
    for (const [handler, path] of [
      ['sessionOnly', '/api/me/password'],
      ['console', '/api/admin/users'],
    ] as const) {
      await expect(gate.admit('frk_x', options(handler), req(path), res)).rejects.toMatchObject({
        statusCode: 403,
        code: 'API_TOKEN_NOT_ALLOWED',
      });
    }
    // a route under /api/admin that (by mistake) named a scope still refuses it
    await expect(gate.admit('frk_x', options('reads'), req('/api/admin/whatever'), res)).rejects.toMatchObject({
      code: 'API_TOKEN_NOT_ALLOWED',
    });
  });

  it('serves a public route that does not take the token as anonymous, and identifies the caller where it does', async () => {
    await expect(gate.admit('frk_x', options('publicNoScope'), req('/api/auth/sign-out'), res)).resolves.toBeUndefined();
    await expect(gate.admit('frk_x', options('publicWithScope'), req('/api/catalog'), res)).resolves.toBe(user);
    check = { user, tokenId: 't1', scopes: ['generations:read'] };
    await expect(gate.admit('frk_x', options('publicWithScope'), req('/api/catalog'), res)).resolves.toBeUndefined();
  });

  it('answers 401 for a token that does not work, on any route (never anonymous), and says so when the account is suspended', async () => {
    check = null;
    for (const handler of ['reads', 'publicNoScope', 'sessionOnly'] as const) {
      await expect(gate.admit('frk_x', options(handler), req('/api/x'), res)).rejects.toMatchObject({
        statusCode: 401,
        code: 'AUTH_ERROR',
      });
    }
    check = 'suspended';
    await expect(gate.admit('frk_x', options('reads'), req('/api/x'), res)).rejects.toMatchObject({ statusCode: 401, code: 'AUTH_ERROR' });
  });

  it('limits each token to API_TOKEN_RATE_LIMIT_MAX requests a window: 429 with Retry-After beyond, other tokens unaffected', async () => {
    for (let i = 0; i < 3; i++) await gate.admit('frk_x', options('reads'), req('/api/generations'), res);
    const refused = await gate.admit('frk_x', options('reads'), req('/api/generations'), res).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
    check = { user, tokenId: 't2', scopes: ['generations:read'] };
    await expect(gate.admit('frk_y', options('reads'), req('/api/generations'), res)).resolves.toBe(user);
  });

  it('refuses a staff route that names scopes when it is declared', () => {
    expect(() => Authenticated({ roles: [UserRole.Admin], scopes: ['account:read'] })).toThrow(/never takes an API token/);
  });
});
