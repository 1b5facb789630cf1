import { DataSource } from 'typeorm';
import { AdminUsersService } from '../../src/modules/admin/admin-users.service';
import { AuthMessages } from '../../src/modules/auth/auth-messages';
import { REFRESH_COOKIE } from '../../src/modules/auth/refresh-cookie';
import { bearer, PASSWORD, uniqueEmail } from '../helpers/auth';
import { launchBrowser, mouseClick } from '../helpers/browser';
import { outboxFiles, waitForMail } from '../helpers/mail';
import { createAccount, shot, signedInContext, startUserApp } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, ConsoleMessage, Page, Route } from 'playwright-core';

const DESKTOP = { width: 1280, height: 860 };

/**
 * Returning people (issue 32, items 1 and 2), with a real mouse and keyboard: signing up again with
 * a registered address signs nobody in and says "check your email"; a refresh whose answer was lost
 * keeps the session within the grace window and ends it after; a session that ended elsewhere (a
 * password change on another device) says why in the log-in dialog.
 */
describe('returning people: sign-up of a known address, lost refreshes, sessions that say why they ended', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let db: DataSource;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp());
    db = t.app.get(DataSource);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** Console errors, but the refusals and aborted requests these flows cause on purpose. */
  function watch(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      if (/status of 401|ERR_FAILED/.test(m.text()) && /\/api\//.test(m.location().url)) return;
      // the status line's health probe: 503 when a dependency is slow to answer on a loaded machine (helpers/user-app.ts)
      if (/status of 503/.test(m.text()) && /\/api\/health$/.test(m.location().url)) return;
      errors.push(`${m.text()} (${m.location().url})`);
    });
    return errors;
  }

  /** Clicks a field, selects what it holds (the dialog keeps typed values from step to step) and types over it. */
  async function typeInto(page: Page, label: RegExp, text: string, scope = page.getByRole('dialog')): Promise<void> {
    await mouseClick(page, scope.getByLabel(label));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  }

  async function signedInPage(label: string): Promise<{ page: Page; context: BrowserContext; email: string; errors: string[] }> {
    const account = await createAccount(t, label, 'Rita Returning');
    const context = await signedInContext(browser, t, base, account, DESKTOP);
    contexts.push(context);
    const page = await context.newPage();
    const errors = watch(page);
    await page.goto(`${base}/dashboard/generations`);
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    return { page, context, email: account.email, errors };
  }

  /** The refresh cookie as the browser holds it (its path is /api/auth: only requests there carry it). */
  const refreshUrl = () => `${base}/api/auth/refresh`;
  async function refreshCookie(context: BrowserContext): Promise<string | undefined> {
    return (await context.cookies(refreshUrl())).find((c) => c.name === REFRESH_COOKIE)?.value;
  }

  /**
   * The next refresh reaches the server (which rotates the token) but its answer never reaches the
   * page: the request is aborted once the server has answered, and the cookie it set is put back as
   * it was (a closed tab, a dropped connection). `meanwhile` runs before the abort.
   */
  async function loseNextRefreshAnswer(context: BrowserContext, meanwhile: () => Promise<void> = async () => undefined) {
    const before = (await context.cookies(refreshUrl())).find((c) => c.name === REFRESH_COOKIE)!;
    let lost: string | undefined;
    let done!: () => void;
    const happened = new Promise<void>((resolve) => (done = resolve));
    // `times: 1`, not an unroute in the handler: Playwright lets a route in flight go on to the
    // server when its handler is removed, and the page would get the answer after all
    await context.route(
      '**/api/auth/refresh',
      async (route: Route) => {
        const answer = await route.fetch();
        lost = /fr_refresh=([^;]+)/.exec(answer.headers()['set-cookie'] ?? '')?.[1];
        await context.addCookies([before]); // whatever the fetch stored, the browser keeps the old cookie
        await meanwhile();
        await route.abort('failed');
        done();
      },
      { times: 1 },
    );
    return { happened, lost: () => decodeURIComponent(lost ?? ''), before: before.value };
  }

  it('signing up again with a registered address signs nobody in: "check your email", and the mail offers sign in and a reset', async () => {
    const owner = await createAccount(t, 'known', 'Kim Known');
    const context = await browser.newContext({ viewport: DESKTOP });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watch(page);
    await page.goto(`${base}/`);
    await mouseClick(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Create account' });
    await typeInto(page, /^Full name/, 'Kim Again', dialog);
    await typeInto(page, /^Email/, owner.email, dialog);
    await typeInto(page, /^Password/, 'another-good-password-58', dialog);
    await mouseClick(page, dialog.getByText('I confirm I am 18 or older'));
    const seen = outboxFiles(t.config.mail!.outboxDir);
    await mouseClick(page, dialog.getByRole('button', { name: 'Create account', exact: true }));

    const checkEmail = page.getByRole('dialog', { name: 'Check your email' });
    await checkEmail.getByText(AuthMessages.signUpLinkSent(owner.email)).waitFor();
    await shot(page, 'returning-01-check-your-email');
    // nobody signed in, no second account
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await refreshCookie(context)).toBeUndefined();
    expect(await db.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [owner.email])).toEqual([{ n: 1 }]);
    const mail = await waitForMail(t.config.mail!.outboxDir, { to: owner.email, template: 'sign-up-attempt', after: seen });
    expect(mail.text).toContain('Sign in');
    expect(mail.text).toContain('/reset-password?token=');
    // the way on: Log in
    await mouseClick(page, checkEmail.getByRole('button', { name: 'Go to Log in' }));
    await page.getByRole('dialog', { name: 'Log in' }).waitFor();
    expect(errors).toEqual([]);

    // a new address still gets its account at once, with the same words in the banner's place
    const fresh = uniqueEmail('fresh');
    await mouseClick(page, page.getByRole('dialog', { name: 'Log in' }).getByRole('button', { name: 'Create account' }));
    const again = page.getByRole('dialog', { name: 'Create account' });
    await typeInto(page, /^Full name/, 'Nia New', again);
    await typeInto(page, /^Email/, fresh, again);
    await typeInto(page, /^Password/, PASSWORD, again);
    // the dialog kept what was given on its first visit: the 18+ box is still ticked
    expect(await again.getByRole('checkbox', { name: /I confirm I am 18 or older/ }).isChecked()).toBe(true);
    await mouseClick(page, again.getByRole('button', { name: 'Create account', exact: true }));
    await page.waitForURL(`${base}/dashboard/generations`);
    // signed in as the new account: the side bar names it, the banner says where the link went
    await page.getByRole('complementary').getByText(fresh, { exact: true }).waitFor();
    await page
      .getByRole('region')
      .filter({ hasText: `We sent a link to ${fresh}.` })
      .waitFor();
    expect(await db.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [fresh])).toEqual([{ n: 1 }]);
    expect(errors).toEqual([]);
  });

  it('a refresh whose answer is lost keeps the session: the token it replaced, presented again within the window, answers the new one', async () => {
    const { page, context, errors } = await signedInPage('lost-answer');
    const lose = await loseNextRefreshAnswer(context);
    // the next visit restores the session: that refresh's answer is lost, the store retries with the old cookie
    await page.reload();
    await lose.happened;
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    await mouseClick(page, page.getByRole('link', { name: 'Settings', exact: true }).first());
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // the browser now holds the very token the lost answer carried: nothing rotated twice
    expect(await refreshCookie(context)).toBe(lose.lost());
    expect(lose.lost()).not.toBe(lose.before);
    const [row] = await db.query(`SELECT revoked_at, refresh_count FROM sessions WHERE id = $1`, [lose.before.split('.')[0]]);
    expect(row.revoked_at).toBeNull();
    await shot(page, 'returning-02-lost-refresh-kept');
    expect(errors).toEqual([]);
  });

  it('the token a lost refresh replaced, presented after the window, ends the session: "signed out for your safety"', async () => {
    const { page, context, email, errors } = await signedInPage('late-reuse');
    const lose = await loseNextRefreshAnswer(context, async () => {
      // the window passes before the browser tries again
      await db.query(`UPDATE sessions SET rotated_at = now() - interval '1 hour' WHERE id = $1`, [
        (await refreshCookie(context))!.split('.')[0],
      ]);
    });
    await page.reload();
    await lose.happened;
    await page.waitForURL(`${base}/?auth=login&ended=SESSION_REVOKED`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByRole('alert').filter({ hasText: AuthMessages.signedOutForSafety }).waitFor();
    await shot(page, 'returning-03-signed-out-for-safety');
    const [row] = await db.query(`SELECT revoke_reason FROM sessions WHERE id = $1`, [lose.before.split('.')[0]]);
    expect(row.revoke_reason).toBe('refresh_token_reuse');
    // the person signs in again from there
    await typeInto(page, /^Email/, email, dialog);
    await typeInto(page, /^Password/, PASSWORD, dialog);
    await mouseClick(page, dialog.getByRole('button', { name: 'Log in', exact: true }));
    await page.waitForURL(`${base}/dashboard/generations`);
    expect(errors).toEqual([]);
  });

  it('a password changed on another device ends this session, and the log-in dialog says so', async () => {
    const { page, email, errors } = await signedInPage('changed-elsewhere');
    // the phone: signed in, the password changed there
    const phone = await t.http.post('/api/auth/sign-in').send({ email, password: PASSWORD }).expect(200);
    await t.http
      .post('/api/me/password')
      .set(bearer(phone.body.access_token))
      .send({ current_password: PASSWORD, new_password: 'changed-on-the-phone-42' })
      .expect(200);
    // back on the laptop, the next click
    await mouseClick(page, page.getByRole('link', { name: 'Settings', exact: true }).first());
    await page.waitForURL(`${base}/?auth=login&ended=PASSWORD_CHANGED`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByRole('alert').filter({ hasText: AuthMessages.signedOutPasswordChanged }).waitFor();
    await shot(page, 'returning-04-password-changed-elsewhere');
    await typeInto(page, /^Email/, email, dialog);
    await typeInto(page, /^Password/, 'changed-on-the-phone-42', dialog);
    await mouseClick(page, dialog.getByRole('button', { name: 'Log in', exact: true }));
    await page.waitForURL(`${base}/dashboard/generations`);
    expect(errors).toEqual([]);
  });

  it('a suspension while the person is using the app: the next click lands in the log-in dialog, which says the account is suspended', async () => {
    const { page, email, errors } = await signedInPage('suspended-meanwhile');
    const admin = await createAccount(t, 'suspending-admin', 'Ada Admin');
    await db.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
    const [person] = await db.query(`SELECT id FROM users WHERE email = $1`, [email]);
    await t.app.get(AdminUsersService).suspend(admin.userId, person.id, 'Reported photos of someone else');
    // the next click
    await mouseClick(page, page.getByRole('link', { name: 'Settings', exact: true }).first());
    await page.waitForURL(`${base}/?auth=login&ended=ACCOUNT_SUSPENDED`);
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.getByRole('alert').filter({ hasText: AuthMessages.accountSuspended }).waitFor();
    await shot(page, 'returning-05-suspended-meanwhile');
    expect(await refreshCookie(page.context())).toBeUndefined();
    // signing in again says it too, and signs nobody in
    await typeInto(page, /^Email/, email, dialog);
    await typeInto(page, /^Password/, PASSWORD, dialog);
    await mouseClick(page, dialog.getByRole('button', { name: 'Log in', exact: true }));
    await dialog.getByRole('alert').filter({ hasText: AuthMessages.accountSuspended }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors.filter((e) => !/status of 403 .*\/api\/auth\/sign-in\)$/.test(e))).toEqual([]);
  });
});
