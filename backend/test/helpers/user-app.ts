import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { freePort } from '../../src/common/free-port';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../../src/modules/auth/refresh-cookie';
import { cookieValue, markEmailVerified, PASSWORD, uniqueEmail } from './auth';
import { screenshot } from './browser';
import { linkTo, waitForMail } from './mail';
import { createTestApp, TestApp, testDatabaseUrl } from './test-app';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';

/** The two screens every page must fit: a phone and a desktop. */
export const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

/** What the user app keeps in localStorage to know that it had a session (frontend/src/features/auth/session-hint.ts). */
const SESSION_HINT_KEY = 'fitting-room:had-session';

interface BrowserWindow {
  document: {
    documentElement: { scrollWidth: number };
    getAnimations(): { finished: Promise<unknown>; effect: { getTiming(): { iterations: number } } | null }[];
  };
  innerWidth: number;
  scrollTo(options: { top: number; behavior: 'instant' }): void;
}

/** The API serving the built user app, listening where its APP_URL says (signed file links are absolute). */
export async function startUserApp(overrides: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  if (!fs.existsSync(path.join(REPO_ROOT, 'frontend', 'dist', 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build -w frontend` (or `npm test` at the repository root)');
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ SERVE_UI: 'true', APP_URL: base, AI_PROVIDER: 'preview', ...overrides });
  await t.app.listen(port, '127.0.0.1');
  return { t, base };
}

export interface Account {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
}

/** Creates an account through the API (tests about something else do not click through sign-up). */
export async function createAccount(t: TestApp, label: string, fullName = 'Route Tester'): Promise<Account> {
  const email = uniqueEmail(label);
  const res = await t.http.post('/api/auth/sign-up').send({ full_name: fullName, email, password: PASSWORD, age_confirmed: true });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
  await markEmailVerified(res.body.user.id);
  return { userId: res.body.user.id, email, password: PASSWORD, accessToken: res.body.access_token };
}

/**
 * A browser context signed in as the account: a session of its own (sign-in through the API),
 * whose refresh cookie the app exchanges for an access token as it would after a visit.
 */
export async function signedInContext(
  browser: Browser,
  t: TestApp,
  base: string,
  account: Account,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const res = await t.http.post('/api/auth/sign-in').send({ email: account.email, password: account.password });
  if (res.status !== 200 && res.status !== 201) throw new Error(`sign-in answered ${res.status}`);
  const token = cookieValue(res, REFRESH_COOKIE);
  if (!token) throw new Error('sign-in set no refresh cookie');
  const { hostname } = new URL(base);
  return browser.newContext({
    viewport,
    storageState: {
      cookies: [
        {
          name: REFRESH_COOKIE,
          value: token,
          domain: hostname,
          path: REFRESH_COOKIE_PATH,
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin: base, localStorage: [{ name: SESSION_HINT_KEY, value: '1' }] }],
    },
  });
}

/** Console errors and uncaught errors, except a 401 from the session restore of a signed-out visitor and a 503 from the status line's health probe. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() !== 'error') return;
    if (/status of 401/.test(m.text()) && /\/api\/auth\/refresh$/.test(m.location().url)) return;
    // the status line's health probe: 503 by design when a dependency takes over 2 s to answer, which a
    // loaded CI machine can cause; the status line says so, and the health checks have tests of their own
    if (/status of 503/.test(m.text()) && /\/api\/health$/.test(m.location().url)) return;
    errors.push(`${m.text()} (${m.location().url})`);
  });
  return errors;
}

/** How many pixels the page scrolls sideways (0 when it fits). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = globalThis as unknown as BrowserWindow;
    return w.document.documentElement.scrollWidth - w.innerWidth;
  });
}

/** A full-page screenshot of a settled page (finite animations done), from the top. */
export async function shot(page: Page, name: string): Promise<string> {
  await page.evaluate(async () => {
    const w = globalThis as unknown as BrowserWindow;
    w.scrollTo({ top: 0, behavior: 'instant' });
    const ending = w.document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
  });
  return screenshot(page, name);
}

/** Waits until an <img> has loaded a picture (a broken or expired link never does). */
export async function waitForImage(page: Page, image: Locator): Promise<void> {
  await image.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (el) => {
      const img = el as unknown as { complete: boolean; naturalWidth: number };
      return img.complete && img.naturalWidth > 0;
    },
    await image.elementHandle(),
  );
}

/** A photo as a phone would take it: a JPEG made here, never a file of the repository. */
export async function portraitJpeg(): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
      <rect width="600" height="800" fill="#d9c2a7"/>
      <circle cx="300" cy="220" r="90" fill="#8a5a44"/>
      <rect x="190" y="320" width="220" height="380" rx="90" fill="#8a5a44"/>
    </svg>`,
  );
  return sharp(svg).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Fills in and sends the open "Create account" dialog as a newcomer does (a fresh email, the 18+
 * box), and waits for the empty All Generations screen it leads to. Answers the address used; the
 * account is signed in, its address not yet confirmed (see `confirmEmailFromOutbox`).
 */
export async function signUpInDialog(page: Page, base: string, fullName: string, emailLabel: string): Promise<string> {
  const email = uniqueEmail(emailLabel);
  const signUp = page.getByRole('dialog', { name: 'Create account' });
  await signUp.getByLabel(/^Full name/).fill(fullName);
  await signUp.getByLabel(/^Email/).fill(email);
  await signUp.getByLabel(/^Password/).fill(PASSWORD);
  await signUp.getByText('I confirm I am 18 or older').click();
  await signUp.getByRole('button', { name: 'Create account', exact: true }).click();
  await page.waitForURL(`${base}/dashboard/generations`);
  await page.getByText('No generations yet. Start creating in any category!').waitFor();
  return email;
}

/** The banner of the dashboard while the address is unconfirmed (frontend/src/features/dashboard/VerifyEmailBanner.tsx). */
export const VERIFY_BANNER = 'Confirm your email address to upload photos and generate.';

/**
 * Confirms the address as a person does: opens the link of the newest verification mail to `email`
 * in the outbox ($DATA_DIR/mail, no SMTP) in this page, and waits for the page to say it worked.
 */
export async function confirmEmailFromOutbox(page: Page, t: TestApp, email: string): Promise<void> {
  const mail = await waitForMail(t.config.mail!.outboxDir, { to: email, template: 'verify-email' });
  await page.goto(linkTo(mail, '/verify-email').url);
  await page.getByRole('status').filter({ hasText: 'Your email address is confirmed.' }).waitFor();
}

/**
 * For specs about something else than verification: marks the address of an account made through
 * the dialog as confirmed (as the mailed link would) and reloads, so the app reads the profile again.
 */
export async function markVerifiedAndReload(page: Page, email: string): Promise<void> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]);
    if (rows.length !== 1) throw new Error(`expected one account of ${email}, found ${rows.length}`);
    await markEmailVerified(rows[0]!.id);
  } finally {
    await client.end();
  }
  await page.reload();
  await page.locator('h1').first().waitFor();
}

/** On a category screen: selects the first free template, and the "Generate Your Look" panel appears. */
export async function pickFreeTemplate(page: Page): Promise<void> {
  const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
  const free = templates.filter({ hasNotText: 'Locked' }).first().getByRole('button');
  await free.click();
  expect(await free.getAttribute('aria-pressed')).toBe('true');
  await page.getByRole('heading', { name: 'Generate Your Look' }).waitFor();
}

/** Adds one photo to the panel and waits for its thumbnail. */
export async function uploadPhoto(page: Page): Promise<void> {
  await page.getByLabel('Upload photos').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portraitJpeg() });
  await page.getByRole('img', { name: 'Your photo 1' }).waitFor();
}

/** Ticks "These photos are of me and I am 18 or older". */
export async function confirmPhotos(page: Page): Promise<void> {
  await page.getByText('These photos are of me and I am 18 or older').click();
}

/** Selects the first pose that costs 1 credit. */
export async function pickPose(page: Page): Promise<void> {
  const pose = page.getByRole('group', { name: /Pose/ }).getByRole('button').filter({ hasText: '1 credit' }).first();
  await pose.click();
  expect(await pose.getAttribute('aria-pressed')).toBe('true');
}

/** With a template picked: a photo, the 18+ confirmation, a pose and Generate Image, until the generation has started. */
export async function uploadPhotoAndGenerate(page: Page): Promise<void> {
  await uploadPhoto(page);
  await confirmPhotos(page);
  await pickPose(page);
  await page.getByRole('button', { name: 'Generate Image' }).click();
  await page.getByText('Generation started successfully').waitFor();
}
