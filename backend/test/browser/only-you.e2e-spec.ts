/**
 * "Only you" in the user app (issue 33), with the face checks on and Chromium's fake camera playing
 * a y4m made with ffmpeg from a still fixture face: the consent asked before the first photo is
 * checked, the live selfie opened when the API asks for it before a first lingerie look, and a still
 * picture held to the camera refused with the "turn your head" message, recorded, no credit moved.
 * A real head turn cannot be faked from stills: the selfie's success is tested at the API level
 * (test/faces/only-you.int-spec.ts), with a warped photo.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FACE_CONSENT_TEXT, FACE_CONSENT_VERSION, FaceMessages } from '@fitting-room/shared/face-checks';
import { chromium, type Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { readFixture } from '../../src/modules/faces/testing/face-fixtures';
import { books, waitFor } from '../generations/generation-test-kit';
import { bearer, markEmailVerified, PASSWORD, uniqueEmail } from '../helpers/auth';
import { CHROMIUM, mouseClick } from '../helpers/browser';
import { type Account, createAccount, shot, signedInContext, startUserApp, watchErrors } from '../helpers/user-app';
import type { TestApp } from '../helpers/test-app';

jest.setTimeout(240_000);

const click = mouseClick;

/** A 640 x 480 y4m of a still photo (3 s at 15 frames a second; Chromium plays it in a loop). */
function stillY4m(jpeg: Buffer, dir: string): string {
  const input = path.join(dir, 'face.jpg');
  const output = path.join(dir, 'face.y4m');
  fs.writeFileSync(input, jpeg);
  const ffmpeg = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-loop',
      '1',
      '-i',
      input,
      '-t',
      '3',
      '-r',
      '15',
      '-vf',
      'scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=gray,format=yuv420p',
      '-f',
      'yuv4mpegpipe',
      output,
    ],
    { encoding: 'utf8' },
  );
  if (ffmpeg.status !== 0) throw new Error(`ffmpeg failed: ${ffmpeg.stderr}`);
  return output;
}

describe('Only you in the user app: the consent and the live selfie', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let tmp: string;
  const face = readFixture('s2-f1.jpg');
  const adminEmail = uniqueEmail('likeness-admin');

  beforeAll(async () => {
    ({ t, base } = await startUserApp({ FACE_CHECKS: 'on', ADMIN_EMAILS: adminEmail }));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-selfie-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${stillY4m(face, tmp)}`,
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('asks for the consent, then for the live selfie before a first lingerie look; a still photo held to the camera fails with the turn message', async () => {
    const db = t.app.get(DataSource);
    const account: Account = await createAccount(t, 'selfie', 'Selfie Person');
    await db.query(`UPDATE users SET tier = 'glow_up' WHERE id = $1`, [account.userId]);
    await t.app
      .get(CreditsService)
      .adjust({ userId: account.userId, mode: 'add', amount: 10, reason: 'test credits', actorId: account.userId });
    const before = await books(db, account.userId);

    const context = await signedInContext(browser, t, base, account, { width: 1280, height: 900 });
    await context.grantPermissions(['camera'], { origin: base });
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const errors = watchErrors(page);
    await page.goto(`${base}/dashboard/lingerie`);
    await page.getByRole('heading', { level: 1, name: 'Lingerie' }).waitFor();

    // a template, the person's photo, the 18+ confirmation and a pose
    const templates = page.getByRole('list', { name: 'Choose a Template' }).getByRole('listitem');
    await click(page, templates.filter({ hasNotText: 'Locked' }).first().getByRole('button'));
    await page.getByRole('heading', { name: 'Generate Your Look' }).waitFor();
    await page.getByLabel('Upload photos').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: face });
    await page.getByRole('img', { name: 'Your photo 1' }).waitFor();
    await click(page, page.getByText('These photos are of me and I am 18 or older'));
    await click(page, page.getByRole('group', { name: /Pose/ }).getByRole('button').first());
    await click(page, page.getByRole('button', { name: 'Generate Image' }));

    // 1. the consent, before the photo is checked: nothing uploaded yet
    const consent = page.getByRole('dialog', { name: 'Only you: a face check' });
    await consent.waitFor();
    await consent.getByText(FACE_CONSENT_TEXT).waitFor();
    expect(Number((await db.query(`SELECT count(*)::int AS n FROM uploads WHERE user_id = $1`, [account.userId]))[0].n)).toBe(0);
    await shot(page, 'only-you-consent');
    await click(page, consent.getByRole('button', { name: 'I agree' }));

    // 2. the photo is uploaded and checked (one face); the start asks for the live selfie
    const selfie = page.getByRole('dialog', { name: 'It’s really you: a live selfie' });
    await selfie.waitFor({ timeout: 60_000 });
    await page.getByText(FaceMessages.selfieRequired).waitFor();
    const [consentRow] = await db.query(`SELECT version FROM face_consents WHERE user_id = $1`, [account.userId]);
    expect(consentRow).toBeDefined();
    expect(Number((await db.query(`SELECT count(*)::int AS n FROM upload_faces WHERE user_id = $1`, [account.userId]))[0].n)).toBe(1);

    // 3. the camera (Chromium's fake one, playing the still photo), then the check with its asked turn
    await click(page, selfie.getByRole('button', { name: 'Turn on the camera' }));
    const video = selfie.getByLabel('Your camera');
    await video.waitFor();
    await page.waitForFunction(
      () => {
        const v = (
          globalThis as unknown as { document: { querySelector(s: string): { readyState: number; videoWidth: number } | null } }
        ).document.querySelector('[data-selfie-dialog] video');
        return !!v && v.readyState >= 2 && v.videoWidth > 0;
      },
      undefined,
      { timeout: 20_000 },
    );
    await click(page, selfie.getByRole('button', { name: 'Start' }));
    const asked = selfie.locator('[data-selfie-turn]');
    await asked.waitFor();
    const turn = (await asked.getAttribute('data-selfie-turn')) as 'left' | 'right';
    expect(await asked.textContent()).toBe(`Look at the camera, turn your head to your ${turn}, then back.`);
    await shot(page, 'only-you-selfie-turn');

    // 4. a still picture never turns: refused with the turn message, recorded, nothing charged
    await selfie
      .getByRole('alert')
      .filter({ hasText: FaceMessages.selfieNoTurn(turn) })
      .waitFor({ timeout: 120_000 });
    await shot(page, 'only-you-selfie-refused');
    const events = await db.query(`SELECT kind, outcome FROM face_check_events WHERE user_id = $1`, [account.userId]);
    expect(events).toEqual([{ kind: 'selfie', outcome: 'still' }]);
    expect(Number((await db.query(`SELECT count(*)::int AS n FROM user_generations WHERE user_id = $1`, [account.userId]))[0].n)).toBe(0);
    expect(await books(db, account.userId)).toEqual(before);
    // the person can try again with the camera still on
    await selfie.getByRole('button', { name: 'Try again' }).waitFor();
    expect(errors.filter((e) => !/status of 40[03]/.test(e))).toEqual([]);
    await context.close();
  });
  it('shows an admin the likeness of a result: a generation of the person’s photo, opened from the console’s Generations', async () => {
    // a person who agreed, with a photo of one face, and a bikini look (no selfie needed) by the preview renderer
    const person = await createAccount(t, 'likeness', 'Likeness Person');
    await t.http.post('/api/faces/consent').set(bearer(person.accessToken)).send({ version: FACE_CONSENT_VERSION }).expect(200);
    const uploaded = await t.http
      .post('/api/uploads')
      .set(bearer(person.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', face, { filename: 'me.jpg', contentType: 'image/jpeg' })
      .expect(201);
    const started = await t.http
      .post('/api/generations')
      .set(bearer(person.accessToken))
      .send({
        type: 'image',
        category: 'bikini',
        template_id: 'bikini-yellow',
        scene_id: 'beach-standing',
        upload_ids: [uploaded.body.uploads[0].id],
      })
      .expect(202);
    const ended = await waitFor(
      'the generation to end',
      async () => {
        const res = await t.http.get(`/api/generations/${started.body.id}`).set(bearer(person.accessToken));
        return res.body.status === 'completed' || res.body.status === 'failed' ? (res.body as { status: string }) : undefined;
      },
      60_000,
      250,
    );
    expect(ended.status).toBe('completed');

    // an admin (ADMIN_EMAILS: promoted at sign-in) opens the console's Generations, then the row
    const signedUp = await t.http
      .post('/api/auth/sign-up')
      .send({ full_name: 'Likeness Admin', email: adminEmail, password: PASSWORD, age_confirmed: true })
      .expect(201);
    await markEmailVerified(signedUp.body.user.id);
    const adminAccount: Account = { userId: signedUp.body.user.id, email: adminEmail, password: PASSWORD, accessToken: '' };
    const context = await signedInContext(browser, t, base, adminAccount, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${base}/admin/generations`);
    const row = page.getByRole('row').filter({ hasText: person.email });
    await row.waitFor({ timeout: 30_000 });
    await click(page, row.getByRole('cell').nth(2));
    const card = page.locator('[data-likeness-card]');
    await card.waitFor();
    await card.getByText('Looks like the person').waitFor();
    const distance = Number((await card.getByText(/passes; smaller is closer/).textContent())!.split(' ')[0]);
    expect(distance).toBeGreaterThanOrEqual(0);
    expect(distance).toBeLessThanOrEqual(0.5);
    await shot(page, 'only-you-console-likeness');
    await context.close();
  });
});
