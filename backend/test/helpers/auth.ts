import type { Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { uniqueId } from './test-app';

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
  if (res.status !== 200 && res.status !== 201) throw new Error(`sign-up/sign-in of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { userId: res.body.user.id, email, password, accessToken: res.body.access_token, refreshToken: cookieValue(res, 'fr_refresh')!, res };
}

export async function signUp(http: TestAgent, options: { email?: string; full_name?: string; password?: string } = {}): Promise<SignedIn> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const res = await http.post('/api/auth/sign-up').send({ full_name: options.full_name ?? 'Test Person', email, password, age_confirmed: true });
  return signedIn(res, email, password);
}

export async function signIn(http: TestAgent, email: string, password = PASSWORD): Promise<SignedIn> {
  const res = await http.post('/api/auth/sign-in').send({ email, password });
  return signedIn(res, email, password);
}

export function refreshWith(http: TestAgent, refreshToken: string) {
  return http.post('/api/auth/refresh').set('Cookie', `fr_refresh=${refreshToken}`);
}
