import { totpCode } from '../../src/modules/auth/two-factor/totp';
import { PASSWORD, signUp, turnOnTwoFactor } from '../helpers/auth';
import { axeFindings } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { type Account, createAccount, signedInContext, startUserApp, VERIFY_BANNER, VIEWPORTS, watchErrors } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** An account as sign-up leaves it: signed in, its address not confirmed yet. */
async function createUnverifiedAccount(t: TestApp, label: string): Promise<Account> {
  const person = await signUp(t.http, {
    verified: false,
    full_name: 'Una Unconfirmed',
    email: `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`,
  });
  return { userId: person.userId, email: person.email, password: PASSWORD, accessToken: person.accessToken };
}

/**
 * axe-core (through @axe-core/playwright, which drives playwright-core's Page) on the screens the
 * issue names: landing, pricing, a category screen and All Generations, plus the account screens.
 * No violation of any impact (best practices included), on a phone and on a desktop.
 */
describe('accessibility of the user app (axe)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  /** Two-factor on, for the dialog's code step. */
  let twoFactorAccount: Account;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ t, base } = await startUserApp());
    browser = await launchBrowser();
    twoFactorAccount = await createAccount(t, 'axe-2fa');
    await turnOnTwoFactor(t.http, twoFactorAccount.accessToken);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  /**
   * Waits until the screen has its content (not a spinner), with animations finished and the page
   * at rest: a smooth scroll (the generate panel brought into view) is not an animation, and a page
   * caught mid-scroll has its buttons half under the phone's sticky top bar.
   */
  async function settle(page: Page, ready: () => Promise<unknown>): Promise<void> {
    await ready();
    await page.evaluate(async () => {
      const g = globalThis as unknown as {
        document: { getAnimations(): { finished: Promise<unknown>; effect: { getTiming(): { iterations: number } } | null }[] };
        requestAnimationFrame(callback: () => void): number;
        scrollY: number;
      };
      const ending = g.document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
      await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
      // at rest: the same scroll position for 5 frames in a row
      let last = -1;
      let still = 0;
      while (still < 5) {
        await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
        still = g.scrollY === last ? still + 1 : 0;
        last = g.scrollY;
      }
    });
  }

  describe.each(VIEWPORTS)('at $width px', (viewport) => {
    it('finds nothing on the landing, pricing, legal and not-found pages', async () => {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      await page.goto(`${base}/`);
      await settle(page, () => page.getByRole('heading', { level: 1, name: 'See Yourself in Any Outfit Before You Buy' }).waitFor());
      expect({ page: '/', findings: await axeFindings(page) }).toEqual({ page: '/', findings: [] });

      await page.goto(`${base}/pricing`);
      await settle(page, () => page.getByText('Most popular', { exact: true }).waitFor());
      expect({ page: '/pricing', findings: await axeFindings(page) }).toEqual({ page: '/pricing', findings: [] });

      for (const path of ['/terms', '/privacy', '/refund', '/no-such-page']) {
        await page.goto(`${base}${path}`);
        await settle(page, () => page.locator('h1').first().waitFor());
        expect({ page: path, findings: await axeFindings(page) }).toEqual({ page: path, findings: [] });
      }

      // The pages mailed links open: a dead verification link (its message), the reset form with
      // its errors, and the unsubscribe page.
      await page.goto(`${base}/verify-email?token=not-a-real-token`);
      await settle(page, () => page.getByRole('alert').waitFor());
      expect({ page: 'verify-email (dead link)', findings: await axeFindings(page) }).toEqual({
        page: 'verify-email (dead link)',
        findings: [],
      });
      await page.goto(`${base}/reset-password?token=not-a-real-token`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await settle(page, () => page.getByText('Password is required').waitFor());
      expect({ page: 'reset-password (errors)', findings: await axeFindings(page) }).toEqual({
        page: 'reset-password (errors)',
        findings: [],
      });
      await page.goto(`${base}/unsubscribe?token=not-a-real-token`);
      await settle(page, () => page.getByRole('button', { name: 'Unsubscribe' }).waitFor());
      expect({ page: 'unsubscribe', findings: await axeFindings(page) }).toEqual({ page: 'unsubscribe', findings: [] });

      // The auth dialog's steps: Log in (with a failure), Create account, Forgot password and its answer,
      // and the two-factor code step (a real account with two-factor on).
      const dialogState = async (name: string, ready: () => Promise<unknown>) => {
        await settle(page, ready);
        expect({ page: name, findings: await axeFindings(page) }).toEqual({ page: name, findings: [] });
      };
      await page.goto(`${base}/?auth=login`);
      const logIn = page.getByRole('dialog', { name: 'Log in' });
      await logIn.getByLabel(/^Email/).fill(twoFactorAccount.email);
      await logIn.getByLabel(/^Password/).fill('not-the-password-1');
      await logIn.getByRole('button', { name: 'Log in', exact: true }).click();
      await dialogState('log in (failed)', () => logIn.getByRole('alert').waitFor());
      await logIn.getByRole('button', { name: 'Create account' }).click();
      await dialogState('create account', () => page.getByRole('dialog', { name: 'Create account' }).waitFor());
      await page.goto(`${base}/?auth=forgot`);
      const forgot = page.getByRole('dialog', { name: 'Reset your password' });
      await dialogState('forgot password', () => forgot.waitFor());
      await forgot.getByLabel(/^Email/).fill(twoFactorAccount.email);
      await forgot.getByRole('button', { name: 'Send reset link' }).click();
      await dialogState('forgot password (sent)', () => forgot.getByRole('status').waitFor());
      await page.goto(`${base}/?auth=login`);
      await logIn.getByLabel(/^Email/).fill(twoFactorAccount.email);
      await logIn.getByLabel(/^Password/).fill(twoFactorAccount.password);
      await logIn.getByRole('button', { name: 'Log in', exact: true }).click();
      const code = page.getByRole('dialog', { name: 'Two-factor authentication' });
      await code.getByLabel(/^Authentication code/).fill('000000');
      await code.getByRole('button', { name: 'Verify' }).click();
      await dialogState('two-factor code (wrong)', () => code.getByRole('alert').waitFor());
      await code.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await dialogState('two-factor recovery code', () => code.getByLabel(/^Recovery code/).waitFor());

      // failures the pages are about: the dead link (400), the wrong password (401) and code (400)
      const expected = /status of (400|401) .*\/api\/(auth\/verify-email|auth\/sign-in|auth\/sign-in\/2fa)\)$/;
      expect(errors.filter((e) => !expected.test(e))).toEqual([]);
    });

    it('finds nothing on a category screen, All Generations and the account screens', async () => {
      // its own account: two-factor is turned on below
      const context = await signedInContext(browser, t, base, await createAccount(t, `axe-${viewport.width}`), viewport);
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      const screens: [string, () => Promise<unknown>][] = [
        [
          '/dashboard/bikini',
          () =>
            page
              .getByRole('heading', { level: 2, name: 'Your Bikini Generations' })
              .waitFor()
              .then(() => page.getByText('Your Bikini Generations').waitFor()),
        ],
        ['/dashboard/generations', () => page.getByText('No generations yet. Start creating in any category!').waitFor()],
        ['/dashboard/subscription', () => page.getByRole('heading', { name: 'Your Plan Includes' }).waitFor()],
        ['/dashboard/settings', () => page.getByRole('button', { name: 'Save All Settings' }).waitFor()],
        ['/dashboard/profile', () => page.getByRole('button', { name: 'Save Changes' }).waitFor()],
      ];
      for (const [path, ready] of screens) {
        await page.goto(`${base}${path}`);
        await settle(page, ready);
        expect({ page: path, findings: await axeFindings(page) }).toEqual({ page: path, findings: [] });
      }

      // A picked template shows the generate panel; and the upgrade dialog of a locked one.
      await page.goto(`${base}/dashboard/bikini`);
      const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
      await templates.filter({ hasNotText: 'Locked' }).first().getByRole('button').click();
      await settle(page, () => page.getByRole('heading', { name: 'Generate Your Look' }).waitFor());
      expect({ page: 'generate panel', findings: await axeFindings(page) }).toEqual({ page: 'generate panel', findings: [] });
      await templates.filter({ hasText: 'Locked' }).first().getByRole('button').first().click();
      await settle(page, () => page.getByRole('dialog').getByText('Cancel anytime • No hidden fees • Instant access').waitFor());
      expect({ page: 'upgrade dialog', findings: await axeFindings(page) }).toEqual({ page: 'upgrade dialog', findings: [] });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      // Settings' security dialogs: Change Password (with an error), two-factor on (QR code and key,
      // then the recovery codes, with a code computed from the key on the screen), two-factor off.
      await page.goto(`${base}/dashboard/settings`);
      await page.getByRole('button', { name: 'Change Password' }).click();
      const change = page.getByRole('dialog', { name: 'Change password' });
      await change.getByRole('button', { name: 'Change password' }).click();
      await settle(page, () => change.getByText('Your current password is required').waitFor());
      expect({ page: 'change password (errors)', findings: await axeFindings(page) }).toEqual({
        page: 'change password (errors)',
        findings: [],
      });
      await page.keyboard.press('Escape');
      await change.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      const setup = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
      const key = setup.locator('[data-setup-key]');
      await settle(page, () => key.waitFor());
      expect({ page: 'two-factor setup', findings: await axeFindings(page) }).toEqual({ page: 'two-factor setup', findings: [] });
      await setup.getByLabel(/^6-digit code from the app/).fill(totpCode(((await key.textContent()) ?? '').replace(/\s+/g, '')));
      await setup.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
      await settle(page, () => codes.getByRole('list', { name: 'Recovery codes' }).waitFor());
      expect({ page: 'recovery codes', findings: await axeFindings(page) }).toEqual({ page: 'recovery codes', findings: [] });
      await codes.getByText('I have saved my recovery codes').click();
      await codes.getByRole('button', { name: 'Done' }).click();
      await codes.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
      const off = page.getByRole('alertdialog', { name: 'Turn off two-factor authentication?' });
      await settle(page, () => off.getByLabel(/^Code from your app, or a recovery code/).waitFor());
      expect({ page: 'two-factor off', findings: await axeFindings(page) }).toEqual({ page: 'two-factor off', findings: [] });
      await page.keyboard.press('Escape');
      await off.waitFor({ state: 'hidden' });

      // The confirm dialog of Delete All My Data, and (on a phone) the menu drawer.
      await page.goto(`${base}/dashboard/settings`);
      await page.getByRole('button', { name: 'Delete All My Data' }).click();
      await settle(page, () =>
        page
          .getByRole('alertdialog')
          .getByText(/Type DELETE to confirm/)
          .waitFor(),
      );
      expect({ page: 'delete dialog', findings: await axeFindings(page) }).toEqual({ page: 'delete dialog', findings: [] });
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
      if (viewport.width < 1024) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await settle(page, () => page.getByRole('dialog', { name: 'Menu' }).waitFor());
        expect({ page: 'menu', findings: await axeFindings(page) }).toEqual({ page: 'menu', findings: [] });
      }
      expect(errors).toEqual([]);
    }, 180_000); // twelve screens and dialogs, each read by axe: over a minute on a slow CI machine

    it('finds nothing while the address is unconfirmed: the banner, the generate panel, a dead link with Resend', async () => {
      const newcomer = await createUnverifiedAccount(t, 'axe-unverified');
      const context = await signedInContext(browser, t, base, newcomer, viewport);
      contexts.push(context);
      const page = await context.newPage();
      const errors = watchErrors(page);

      await page.goto(`${base}/dashboard/generations`);
      await settle(page, () => page.getByRole('region', { name: VERIFY_BANNER }).waitFor());
      expect({ page: 'banner', findings: await axeFindings(page) }).toEqual({ page: 'banner', findings: [] });
      await page.getByRole('region', { name: VERIFY_BANNER }).getByRole('button', { name: 'Resend link' }).click();
      await settle(page, () => page.getByRole('region', { name: VERIFY_BANNER }).getByRole('status').waitFor());
      expect({ page: 'banner (resent)', findings: await axeFindings(page) }).toEqual({ page: 'banner (resent)', findings: [] });

      await page.goto(`${base}/dashboard/bikini`);
      const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
      await templates.filter({ hasNotText: 'Locked' }).first().getByRole('button').click();
      await settle(page, () => page.getByRole('note').filter({ hasText: VERIFY_BANNER }).waitFor());
      expect({ page: 'generate panel (unconfirmed)', findings: await axeFindings(page) }).toEqual({
        page: 'generate panel (unconfirmed)',
        findings: [],
      });

      await page.goto(`${base}/verify-email?token=not-a-real-token`);
      await settle(page, () => page.getByRole('button', { name: 'Resend confirmation link' }).waitFor());
      expect({ page: 'verify-email (dead link, signed in)', findings: await axeFindings(page) }).toEqual({
        page: 'verify-email (dead link, signed in)',
        findings: [],
      });
      expect(errors.filter((e) => !/status of 400 .*\/api\/auth\/verify-email\)$/.test(e))).toEqual([]);
    });
  });
});
