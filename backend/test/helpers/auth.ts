import { Client } from 'pg';
import { hashPassword } from '../../src/common/security/password';
import { AuthService } from '../../src/modules/auth/auth.service';
import { SessionsService } from '../../src/modules/auth/sessions.service';
import { totpCode } from '../../src/modules/auth/two-factor/totp';
import { UsersService } from '../../src/modules/users/users.service';
import { testDatabaseUrl, uniqueId } from './test-app';
import type { INestApplication } from '@nestjs/common';
import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';

/** A password that is long enough and on no common-password list. */
export const PASSWORD = 'violet-harbour-lantern-42';

export function uniqueEmail(label = 'user'): string {
  return `${uniqueId(label).toLowerCase()}@example.com`;
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

function setCookies(res: Response): string[] {
  const header = res.headers['set-cookie'] as unknown;
  return Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];
}

/** The raw Set-Cookie line for a cookie, if the response set it. */
export function setCookieLine(res: Response, name: string): string | undefined {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

/** The value a response set for a cookie ('' when it cleared it), undefined when it did not touch it. */
export function cookieValue(res: Response, name: string): string | undefined {
  const line = setCookieLine(res, name);
  if (line === undefined) return undefined;
  return decodeURIComponent(line.slice(name.length + 1).split(';')[0]);
}

/** Max-Age of a Set-Cookie line, in seconds. */
export function cookieMaxAge(res: Response, name: string): number | undefined {
  const match = /;\s*Max-Age=(-?\d+)/i.exec(setCookieLine(res, name) ?? '');
  return match ? Number(match[1]) : undefined;
}

export interface SignedIn {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  res: Response;
}

function signedIn(res: Response, email: string, password: string): SignedIn {
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`sign-up/sign-in of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return {
    userId: res.body.user.id,
    email,
    password,
    accessToken: res.body.access_token,
    refreshToken: cookieValue(res, 'fr_refresh')!,
    res,
  };
}

/**
 * Marks an account's address as verified, as the mailed link would: a factory for tests about
 * something else (uploads, generations, the console). Tests of verification itself open the link
 * from the outbox (test/auth/email-verification.int-spec.ts).
 */
export async function markEmailVerified(userId: string): Promise<void> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1`, [userId]);
  } finally {
    await client.end();
  }
}

/**
 * Signs up through the API. Unless `verified: false`, the address then counts as verified and the
 * person signs in again, as after opening the mailed link (so ADMIN_EMAILS promotes a listed one).
 */
export async function signUp(
  http: TestAgent,
  options: { email?: string; full_name?: string; password?: string; verified?: boolean } = {},
): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const res = await http
    .post('/api/auth/sign-up')
    .send({ full_name: options.full_name ?? 'Test Person', email, password, age_confirmed: true });
  const account = signedIn(res, email, password);
  if (options.verified === false) return account;
  await markEmailVerified(account.userId);
  return signIn(http, email, password);
}

export async function signIn(http: TestAgent, email: string, password = PASSWORD): Promise<SignedIn> {
  const res = await http.post('/api/auth/sign-in').send({ email, password });
  return signedIn(res, email, password);
}

export function refreshWith(http: TestAgent, refreshToken: string) {
  return http.post('/api/auth/refresh').set('Cookie', `fr_refresh=${refreshToken}`);
}

/**
 * Turns two-factor on for the caller as a person with an authenticator app does: set up, compute
 * the current code from the shown secret, enable. Answers the secret and the recovery codes.
 */
export async function turnOnTwoFactor(http: TestAgent, accessToken: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await http.post('/api/me/2fa/setup').set(bearer(accessToken));
  if (setup.status !== 200) throw new Error(`2fa setup answered ${setup.status}: ${JSON.stringify(setup.body)}`);
  const enable = await http
    .post('/api/me/2fa/enable')
    .set(bearer(accessToken))
    .send({ code: totpCode(setup.body.secret) });
  if (enable.status !== 200) throw new Error(`2fa enable answered ${enable.status}: ${JSON.stringify(enable.body)}`);
  return { secret: setup.body.secret, recoveryCodes: enable.body.recovery_codes };
}

/**
 * An unverified sign-up "from before": until sign-up stopped making a second account for an address
 * that has one, several unverified accounts of one address could be made, each signed in and mailed
 * its confirmation link. Such rows remain in databases, and the proofs of an address still settle
 * them (AddressProofService); this makes one the way the old sign-up did, through the app's own
 * services (the API no longer can).
 */
export async function signUpFromBefore(
  app: INestApplication,
  options: { email: string; full_name?: string; password?: string },
): Promise<SignedIn> {
  const password = options.password ?? PASSWORD;
  const users = app.get(UsersService);
  const user = await users.createAccount({
    email: options.email,
    fullName: options.full_name ?? 'Test Person',
    passwordHash: await hashPassword(password),
    ageConfirmedAt: new Date(),
  });
  const issued = await app.get(SessionsService).create(user, {});
  await app.get(AuthService).sendAccountMail({ kind: 'verify-email', userId: user.id });
  return {
    userId: user.id,
    email: options.email,
    password,
    accessToken: issued.accessToken,
    refreshToken: issued.refreshToken,
    res: null as never,
  };
}
