import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { AuthMessages } from '../../src/modules/auth/auth-messages';
import { totpCode } from '../../src/modules/auth/two-factor/totp';
import { UserSettingsService } from '../../src/modules/users/user-settings.service';
import { signUp, turnOnTwoFactor, uniqueEmail } from '../helpers/auth';
import { launchBrowser, mouseClick, SCREENSHOT_DIR } from '../helpers/browser';
import { linkTo, outboxFiles, waitForMail } from '../helpers/mail';
import {
  horizontalOverflow,
  pickFreeTemplate,
  shot,
  signedInContext,
  startUserApp,
  uploadPhotoAndGenerate,
  VERIFY_BANNER,
} from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, ConsoleMessage, Locator, Page } from 'playwright-core';

const FIRST_PASSWORD = 'velvet-harbour-lantern-42';
const RESET_PASSWORD = 'copper-meadow-compass-17';
const CHANGED_PASSWORD = 'quiet-orchard-ladder-86';

/** The server's wording (backend/src/modules/auth/auth.exception.ts and the controllers), shown as it is. */
const SAYS = {
  verificationSent: 'We have sent a new confirmation link. Please check your inbox.',
  emailVerified: 'Your email address is confirmed.',
  resetRequested: 'If an account uses that email address, we have sent it a link to choose a new password. The link works for 1 hour.',
  passwordReset: 'Your password was changed. Please sign in with your new password.',
  invalidCode: 'That code is not right. Please check your authenticator app and try again.',
  passwordChanged: 'Your password was changed. Your other devices were signed out.',
  unsubscribed: 'You will no longer get generation notifications.',
};

/**
 * A newcomer's accounts, as one person uses them with a mouse and a keyboard, with no SMTP server
 * (mail lands in the outbox folder, which the test reads as the person's inbox): sign-up, the
 * banner, the mailed link, a first look, the unsubscribe link of the "image ready" mail, "Forgot
 * password?", two-factor on (a code computed from the key on the screen, as an authenticator app
 * does), sign-in with a code and with a recovery code, and a password change that ends the
 * session of another browser.
 */
describe('accounts you can trust: a newcomer from sign-up to two-factor', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let outbox: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ AI_POLL_INTERVAL_MS: '200' }));
    outbox = t.config.mail!.outboxDir;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /** Console errors, except the failed requests this journey expects (by path and status). */
  function watchErrors(page: Page, expected: { status: number; path: RegExp }[]): string[] {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() !== 'error') return;
      const status = Number(/status of (\d{3})/.exec(m.text())?.[1]);
      const path = m.location().url ? new URL(m.location().url).pathname : '';
      if (expected.some((e) => e.status === status && e.path.test(path))) return;
      errors.push(`${m.text()} (${m.location().url})`);
    });
    return errors;
  }

  /** A real click (the shared one): the mouse moves onto the element's middle, presses and releases. */
  const click = mouseClick;

  /** Clicks into a field and types, key by key. */
  async function type(page: Page, field: Locator, text: string): Promise<void> {
    await click(page, field);
    await page.keyboard.type(text);
  }

  const nav = (page: Page, name: 'Dashboard' | 'Account' | 'Main') => page.getByRole('navigation', { name });

  async function openLogIn(page: Page): Promise<Locator> {
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await click(page, nav(page, 'Main').getByRole('link', { name: 'Log in', exact: true }));
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await dialog.waitFor();
    return dialog;
  }

  /** Email and password in the Log in dialog; answers the dialog (now on its next step, or gone). */
  async function logInWithPassword(page: Page, email: string, password: string): Promise<void> {
    const dialog = await openLogIn(page);
    await type(page, dialog.getByLabel(/^Email/), email);
    await type(page, dialog.getByLabel(/^Password/), password);
    await page.keyboard.press('Enter');
  }

  /**
   * The two-factor step a password leads to. It failed to come, once in about 20 CI runs, with
   * nothing to tell why: the error now says where the page was and what its dialogs said.
   */
  async function waitForCodeStep(page: Page, codeStep: Locator): Promise<void> {
    try {
      await codeStep.waitFor();
    } catch (error) {
      const dialogs = await page
        .getByRole('dialog')
        .allInnerTexts()
        .catch(() => []);
      throw new Error(`no two-factor step at ${page.url()}, dialogs: ${JSON.stringify(dialogs)} (${String(error)})`, { cause: error });
    }
  }

  async function signOut(page: Page): Promise<void> {
    await click(page, page.getByRole('button', { name: 'Sign Out' }));
    await page.waitForURL(`${base}/`);
    await nav(page, 'Main').getByRole('link', { name: 'Log in', exact: true }).waitFor();
  }

  /** A code of the authenticator app for a time step not used yet (the server takes each step once). */
  const usedSteps = new Set<number>();
  async function freshCode(secret: string): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      // the server accepts the current step and its neighbours (clock drift)
      const step = [now, now + 1].find((s) => !usedSteps.has(s));
      if (step !== undefined) {
        usedSteps.add(step);
        return totpCode(secret, step * 30_000 + 1_000);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  it('signs up, confirms the address from the mail, generates, unsubscribes, resets the password, turns two-factor on, and a password change ends the other browser', async () => {
    const email = uniqueEmail('trust');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page, [
      { status: 401, path: /^\/api\/auth\/refresh$/ },
      { status: 400, path: /^\/api\/auth\/sign-in\/2fa$/ }, // the wrong code, on purpose
      { status: 400, path: /^\/api\/me\/password$/ }, // the wrong current password, on purpose
    ]);

    // --- Sign up in the dialog: mouse to "Sign up", the fields typed. ---------------------------
    await page.goto(`${base}/`);
    await page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor();
    await click(page, nav(page, 'Main').getByRole('link', { name: 'Sign up', exact: true }));
    const signUp = page.getByRole('dialog', { name: 'Create account' });
    await signUp.waitFor();
    await page.keyboard.type('Tess Trust'); // the first field has the focus
    await type(page, signUp.getByLabel(/^Email/), email);
    await type(page, signUp.getByLabel(/^Password/), FIRST_PASSWORD);
    await click(page, signUp.getByText('I confirm I am 18 or older'));
    await click(page, signUp.getByRole('button', { name: 'Create account', exact: true }));
    await page.waitForURL(`${base}/dashboard/generations`);

    // --- The banner: where the link went; uploading waits for it. -------------------------------
    const banner = page.getByRole('region', { name: VERIFY_BANNER });
    await banner.getByText(email).waitFor();
    await shot(page, 'trust-01-banner-1440');
    const firstMail = await waitForMail(outbox, { to: email, template: 'verify-email' });
    await click(page, nav(page, 'Dashboard').getByRole('link', { name: 'Bikini' }));
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);
    const reason = page.getByRole('note').filter({ hasText: VERIFY_BANNER });
    await reason.getByText(email).waitFor();
    expect(await page.getByLabel('Upload photos', { exact: true }).count()).toBe(0); // no upload area at all
    await reason.scrollIntoViewIfNeeded();
    await shot(page, 'trust-02-generate-waits-1440');

    // Resend: the server's answer, and the button rests for a minute.
    const resend = banner.getByRole('button', { name: 'Resend link' });
    await click(page, resend);
    await banner.getByText(SAYS.verificationSent).waitFor();
    expect(await resend.isDisabled()).toBe(true);
    expect(await reason.getByRole('button', { name: 'Resend link' }).isDisabled()).toBe(true); // one rest for every button
    const resent = await waitForMail(outbox, { to: email, template: 'verify-email', after: [firstMail.file] });

    // --- The mailed link confirms the address; the banner goes. --------------------------------
    await page.goto(linkTo(resent, '/verify-email').url);
    await page.getByRole('heading', { level: 1, name: 'Confirm your email address' }).waitFor();
    await page.getByRole('status').filter({ hasText: SAYS.emailVerified }).waitFor();
    await shot(page, 'trust-03-verified-1440');
    await click(page, page.getByRole('link', { name: 'Continue to your dashboard' }));
    await page.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();
    expect(await banner.count()).toBe(0);

    // --- A first look (the generate helpers pick a template, upload, confirm, pose, generate). --
    await click(page, nav(page, 'Dashboard').getByRole('link', { name: 'Bikini' }));
    await page.getByRole('heading', { level: 1, name: 'Bikini' }).waitFor();
    await pickFreeTemplate(page);
    await uploadPhotoAndGenerate(page);
    await page.getByRole('list', { name: 'Your Bikini Generations' }).getByRole('article').first().waitFor({ timeout: 30_000 });
    await shot(page, 'trust-04-first-look-1440');

    // --- The "image ready" mail's Unsubscribe link: opening it changes nothing; the button does. -
    const ready = await waitForMail(outbox, { to: email, template: 'generation-finished' });
    const [{ id: userId }] = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [email])) as { id: string }[];
    await page.goto(linkTo(ready, '/unsubscribe').url);
    await page.getByRole('heading', { level: 1, name: 'Unsubscribe' }).waitFor();
    expect((await t.app.get(UserSettingsService).get(userId!)).generation_notifications).toBe(true);
    await click(page, page.getByRole('button', { name: 'Unsubscribe' }));
    await page.getByRole('status').filter({ hasText: SAYS.unsubscribed }).waitFor();
    expect((await t.app.get(UserSettingsService).get(userId!)).generation_notifications).toBe(false);
    await shot(page, 'trust-05-unsubscribed-1440');
    await click(page, page.getByRole('link', { name: 'email settings' }));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const generationSwitch = page.getByRole('switch', { name: 'Generation Notifications' });
    await generationSwitch.waitFor({ state: 'attached' });
    expect(await generationSwitch.isChecked()).toBe(false);
    await signOut(page);

    // --- "Forgot password?" -> the mailed link -> a new password -> Log in with it. -------------
    const logIn = await openLogIn(page);
    await click(page, logIn.getByRole('button', { name: 'Forgot password?' }));
    const forgot = page.getByRole('dialog', { name: 'Reset your password' });
    await forgot.waitFor();
    expect(page.url()).toBe(`${base}/?auth=forgot`);
    await type(page, forgot.getByLabel(/^Email/), email);
    await click(page, forgot.getByRole('button', { name: 'Send reset link' }));
    await forgot.getByRole('status').filter({ hasText: SAYS.resetRequested }).waitFor();
    await shot(page, 'trust-06-forgot-sent-1440');
    await page.keyboard.press('Escape');
    await forgot.waitFor({ state: 'hidden' });
    const resetMail = await waitForMail(outbox, { to: email, template: 'password-reset' });
    await page.goto(linkTo(resetMail, '/reset-password').url);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await type(page, page.getByLabel(/^New password/), RESET_PASSWORD);
    await type(page, page.getByLabel(/^Confirm new password/), RESET_PASSWORD.toUpperCase());
    await page.keyboard.press('Enter');
    await page.getByText('The passwords do not match').waitFor(); // checked here, no round trip
    await page.getByLabel(/^Confirm new password/).fill('');
    await page.keyboard.type(RESET_PASSWORD);
    await click(page, page.getByRole('button', { name: 'Set new password' }));
    await page.getByRole('status').filter({ hasText: SAYS.passwordReset }).waitFor();
    await shot(page, 'trust-07-password-reset-1440');
    await click(page, page.getByRole('main').getByRole('link', { name: 'Log in' }));
    const again = page.getByRole('dialog', { name: 'Log in' });
    await again.waitFor();
    await type(page, again.getByLabel(/^Email/), email);
    await type(page, again.getByLabel(/^Password/), RESET_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);

    // --- Settings: two-factor on, with a code computed from the key on the screen. --------------
    await click(page, nav(page, 'Account').getByRole('link', { name: 'Settings' }));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await click(page, page.getByRole('button', { name: 'Turn on two-factor authentication' }));
    const setup = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
    const qr = setup.getByRole('img', { name: /QR code for your authenticator app/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const shownKey = (await setup.locator('[data-setup-key]').textContent()) ?? '';
    expect(shownKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/); // in groups, for typing by hand
    const secret = shownKey.replace(/\s+/g, '');
    await shot(page, 'trust-08-two-factor-setup-1440');
    const codeField = setup.getByLabel(/^6-digit code from the app/);
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    await type(page, codeField, await freshCode(secret));
    await page.keyboard.press('Enter');
    const codesDialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
    const codeList = codesDialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codeList.first().waitFor();
    const recoveryCodes = await codeList.allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await shot(page, 'trust-09-recovery-codes-1440');
    // Download .txt holds every code.
    const downloading = page.waitForEvent('download');
    await click(page, codesDialog.getByRole('button', { name: 'Download .txt' }));
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/recovery-codes\.txt$/);
    const saved = fs.readFileSync(await download.path(), 'utf8');
    for (const code of recoveryCodes) expect(saved).toContain(code);
    // Done waits for "I have saved my recovery codes"; Escape does not close the dialog meanwhile.
    const done = codesDialog.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    expect(await codesDialog.isVisible()).toBe(true);
    await click(page, codesDialog.getByText('I have saved my recovery codes'));
    await click(page, done);
    await codesDialog.waitFor({ state: 'hidden' });
    await page.getByText('Two-factor authentication is on', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Turn off two-factor authentication' }).waitFor();
    await signOut(page);

    // --- Sign in: password, then the code (a wrong one first: red, in the dialog). -------------
    await logInWithPassword(page, email, RESET_PASSWORD);
    const codeStep = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await waitForCodeStep(page, codeStep);
    expect(page.url()).toBe(`${base}/?auth=2fa`);
    const code = codeStep.getByLabel(/^Authentication code/);
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect(await code.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.type('000000');
    await page.keyboard.press('Enter');
    const wrong = codeStep.getByRole('alert').filter({ hasText: SAYS.invalidCode });
    await wrong.waitFor();
    await page.waitForFunction((el) => el === el?.ownerDocument.activeElement, await wrong.elementHandle()); // the focus went to the message
    await shot(page, 'trust-10-wrong-code-1440');
    await type(page, code, await freshCode(secret));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);
    await signOut(page);

    // --- Sign in: password, then a recovery code. ------------------------------------------------
    await logInWithPassword(page, email, RESET_PASSWORD);
    await waitForCodeStep(page, codeStep);
    await click(page, codeStep.getByRole('button', { name: 'Use a recovery code instead' }));
    await codeStep.getByText('Enter one of your recovery codes.').waitFor();
    await type(page, codeStep.getByLabel(/^Recovery code/), recoveryCodes[0]!);
    await shot(page, 'trust-11-recovery-code-1440');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);

    // --- A second browser, signed in as the same person (another recovery code). ---------------
    const otherContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(otherContext);
    const other = await otherContext.newPage();
    const otherErrors = watchErrors(other, [
      { status: 401, path: /^\/api\/auth\/refresh$/ },
      // the Settings page's calls, made together, that find the session ended
      { status: 401, path: /^\/api\/me\/(settings|webhooks|tokens|2fa\/recovery-codes)$/ },
    ]);
    await logInWithPassword(other, email, RESET_PASSWORD);
    const otherCodeStep = other.getByRole('dialog', { name: 'Two-factor authentication' });
    await click(other, otherCodeStep.getByRole('button', { name: 'Use a recovery code instead' }));
    await type(other, otherCodeStep.getByLabel(/^Recovery code/), recoveryCodes[1]!);
    await other.keyboard.press('Enter');
    await other.waitForURL(`${base}/dashboard/generations`);
    await other.getByRole('heading', { level: 1, name: 'All Generations' }).waitFor();

    // --- The first browser changes the password. ---------------------------------------------------
    await click(page, nav(page, 'Account').getByRole('link', { name: 'Settings' }));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await click(page, page.getByRole('button', { name: 'Change Password' }));
    const change = page.getByRole('dialog', { name: 'Change password' });
    await change.waitFor();
    await page.keyboard.type('not-my-password-1'); // the current password field has the focus
    await type(page, change.getByLabel(/^New password/), CHANGED_PASSWORD);
    await type(page, change.getByLabel(/^Confirm new password/), CHANGED_PASSWORD);
    await page.keyboard.press('Enter');
    await change.getByRole('alert').filter({ hasText: 'Your current password is not right.' }).waitFor();
    await change.getByLabel(/^Current password/).fill('');
    await type(page, change.getByLabel(/^Current password/), RESET_PASSWORD);
    await shot(page, 'trust-12-change-password-1440');
    const beforeChange = outboxFiles(outbox);
    await click(page, change.getByRole('button', { name: 'Change password' }));
    await page.getByText(SAYS.passwordChanged).waitFor();
    await change.waitFor({ state: 'hidden' });

    // --- The second browser's next call to the API finds its session ended: on /, Log in says why. ---
    await click(other, other.getByRole('button', { name: 'Open menu' }));
    await click(other, nav(other, 'Account').getByRole('link', { name: 'Settings' })); // its settings: GET /api/me/settings
    await other.waitForURL(`${base}/?auth=login&ended=PASSWORD_CHANGED`);
    await other
      .getByRole('dialog', { name: 'Log in' })
      .getByRole('alert')
      .filter({ hasText: AuthMessages.signedOutPasswordChanged })
      .waitFor();
    // no error toast about the screen it left
    await other.waitForTimeout(1_000);
    expect(await other.getByText(/^Failed to/).count()).toBe(0);
    expect(await horizontalOverflow(other)).toBeLessThanOrEqual(0);
    await other.screenshot({ path: path.join(SCREENSHOT_DIR, 'trust-13-other-device-signed-out-390.png') });
    await other.goto(`${base}/dashboard/generations`);
    await other.waitForURL((url) => url.pathname === '/'); // and it stays signed out
    expect(otherErrors).toEqual([]);

    // The first browser is still signed in, and the new password is the one that works.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect((await t.http.post('/api/auth/sign-in').send({ email, password: RESET_PASSWORD })).status).toBe(401);
    expect((await t.http.post('/api/auth/sign-in').send({ email, password: CHANGED_PASSWORD })).body).toMatchObject({ mfa_required: true });
    // and the person is told by mail
    await waitForMail(outbox, { to: email, template: 'password-changed', after: beforeChange });
    expect(errors).toEqual([]);
  }, 240_000);

  it("lands Google's two-factor redirect on the code step, and sends an expired challenge back to the password step", async () => {
    const person = await signUp(t.http, { full_name: 'Gale Google' });
    const { secret } = await turnOnTwoFactor(t.http, person.accessToken);
    usedSteps.add(Math.floor(Date.now() / 30_000)); // the step turnOnTwoFactor used
    const challenge = async () =>
      (await t.http.post('/api/auth/sign-in').send({ email: person.email, password: person.password }).expect(200)).body
        .mfa_token as string;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page, [
      { status: 401, path: /^\/api\/auth\/refresh$/ },
      { status: 400, path: /^\/api\/auth\/sign-in\/2fa$/ }, // wrong codes, on purpose
      { status: 401, path: /^\/api\/auth\/sign-in\/2fa$/ }, // the spent challenge, on purpose
    ]);

    // Where the API's Google callback sends a person with two-factor on (the token in the fragment).
    await page.goto(`${base}/?auth=2fa#mfa_token=${await challenge()}`);
    const codeStep = page.getByRole('dialog', { name: 'Two-factor authentication' });
    await codeStep.waitFor();
    await page.waitForFunction(() => (globalThis as unknown as { location: { hash: string } }).location.hash === '');
    expect(page.url()).toBe(`${base}/?auth=2fa`); // the token is out of the address bar (and the history)

    // Five wrong codes spend the challenge: back to the password step, with the server's message.
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await page.keyboard.type('000000');
      await page.keyboard.press('Enter');
      if (attempt < 5) {
        await codeStep.getByRole('alert').filter({ hasText: SAYS.invalidCode }).waitFor();
        await click(page, codeStep.getByLabel(/^Authentication code/));
      }
    }
    const logIn = page.getByRole('dialog', { name: 'Log in' });
    await logIn
      .getByRole('alert')
      .filter({ hasText: 'Your sign-in took too long or had too many wrong codes. Please sign in again.' })
      .waitFor();
    expect(page.url()).toBe(`${base}/?auth=login`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'trust-14-challenge-expired-390.png') });

    // A fresh redirect, the right code: signed in.
    await page.goto(`${base}/?auth=2fa#mfa_token=${await challenge()}`);
    await codeStep.getByLabel(/^Authentication code/).waitFor();
    await page.waitForFunction(
      (el) => el === el?.ownerDocument.activeElement,
      await codeStep.getByLabel(/^Authentication code/).elementHandle(),
    );
    await page.keyboard.type(await freshCode(secret));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/dashboard/generations`);

    // The code step with no sign-in waiting (a reload): Log in, saying why.
    await click(page, page.getByRole('button', { name: 'Open menu' }));
    await click(page, page.getByRole('button', { name: 'Sign Out' }));
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/?auth=2fa`);
    await logIn.getByRole('alert').filter({ hasText: 'Please sign in again' }).waitFor();
    expect(page.url()).toBe(`${base}/?auth=login`);
    expect(errors).toEqual([]);
  });

  it('takes the banner away when the link was opened in another tab, once this one is looked at again', async () => {
    const person = await signUp(t.http, { full_name: 'Tabby Tabs', verified: false });
    const account = { userId: person.userId, email: person.email, password: person.password, accessToken: person.accessToken };
    const context = await signedInContext(browser, t, base, account, { width: 1440, height: 900 });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/generations`);
    const banner = page.getByRole('region', { name: VERIFY_BANNER });
    await banner.waitFor();

    // The mail opens in another tab; the person comes back to the first one.
    const mail = await waitForMail(outbox, { to: person.email, template: 'verify-email' });
    const mailTab = await context.newPage();
    await mailTab.goto(linkTo(mail, '/verify-email').url);
    await mailTab.getByRole('status').filter({ hasText: SAYS.emailVerified }).waitFor();
    // Headless Chromium keeps every tab visible and focused, so it never tells a tab it is looked at
    // again: the browser's event on that return (the window regains the focus) is dispatched here.
    await page.bringToFront();
    await page.evaluate(() =>
      (globalThis as unknown as { dispatchEvent(e: unknown): void; Event: new (type: string) => unknown }).dispatchEvent(
        new (globalThis as unknown as { Event: new (type: string) => unknown }).Event('focus'),
      ),
    );
    await banner.waitFor({ state: 'detached' });
  });

  it('tells a Google-only account how to get a password, instead of a Change Password it cannot use', async () => {
    const person = await signUp(t.http, { full_name: 'Gwen Google' });
    const context = await signedInContext(browser, t, base, { ...person }, { width: 390, height: 844 });
    contexts.push(context);
    // as an account made by Google sign-in: no password
    await t.app.get(DataSource).query(`UPDATE users SET password_hash = NULL WHERE id = $1`, [person.userId]);
    const page = await context.newPage();
    const errors = watchErrors(page, []);
    await page.goto(`${base}/dashboard/settings`);
    await page.getByText('You sign in with Google, so your account has no password.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Change Password' }).count()).toBe(0);
    await click(page, page.getByRole('button', { name: 'Email me a link to set a password' }));
    await page.getByRole('status').filter({ hasText: SAYS.resetRequested }).waitFor();
    await waitForMail(outbox, { to: person.email, template: 'password-reset' });
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
});
