import * as fs from 'node:fs';
import * as path from 'node:path';
import { ErrorMessages } from '../../src/common/errors';
import { waitFor } from '../generations/generation-test-kit';
import { bearer, PASSWORD, signUp, uniqueEmail, type SignedIn } from '../helpers/auth';
import { linkTo } from '../helpers/mail';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { FakeS3Server } from '../storage/fake-s3.server';

/**
 * Mail without SMTP across hosts: with S3 file storage the outbox is the bucket's `outbox/`, so a
 * message that one host's worker writes is on the console's Outbox page of another host, which
 * shares no disk with it (each app here has its own DATA_DIR), and goes with the account it was for.
 */
const CREDENTIALS = { accessKeyId: 'AKIAOUTBOXHOSTS', secretAccessKey: 'outbox-hosts-secret-0123456789ab' };
const BUCKET = 'outbox-hosts';

interface Listed {
  id: string;
  to: string;
  template: string;
  links: string[];
}

describe('the outbox on S3 file storage, two hosts', () => {
  let s3: FakeS3Server;
  let writer: TestApp;
  let reader: TestApp;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('outbox-hosts-admin');

  beforeAll(async () => {
    // pages of 2 keys: listing the outbox follows ListObjectsV2's continuation
    s3 = await FakeS3Server.start({ ...CREDENTIALS, buckets: [BUCKET], maxKeys: 2 });
    const env = {
      ADMIN_EMAILS: adminEmail,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3.url,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    writer = await createTestApp(env);
    reader = await createTestApp(env);
    admin = await signUp(reader.http, { email: adminEmail });
  });
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
    await s3?.stop();
  });

  const objects = () => [...(s3.buckets.get(BUCKET)?.entries() ?? [])].filter(([key]) => key.startsWith('outbox/'));
  const listed = async (on: TestApp) =>
    (await on.http.get('/api/admin/outbox').query({ range: '[0,999]' }).set(bearer(admin.accessToken)).expect(200)).body as Listed[];

  it("writes one host's mail to the bucket, where another host's console lists, shows and follows it, and deletes it with the account", async () => {
    const person = await signUp(writer.http, { full_name: 'Hana Twohosts', verified: false });
    const mail = await waitFor('the verification mail on the other host', async () =>
      (await listed(reader)).find((m) => m.to.includes(person.email) && m.template === 'verify-email'),
    );
    // a whole RFC 5322 message in the bucket, private (no ACL), and nothing on either host's disk
    const [[key, object]] = objects().filter(([k]) => k === `outbox/${mail.id}`);
    expect(key).toBe(`outbox/${mail.id}`);
    expect(object.contentType).toBe('message/rfc822');
    expect(object.acl).toBeUndefined();
    expect(object.body.toString('utf8')).toMatch(/^From: .+\r\nTo: .+\r\n[\s\S]*Subject: /);
    for (const host of [writer, reader]) expect(fs.existsSync(path.join(host.config.dataDir, 'mail'))).toBe(false);

    // the other host shows the message, and its link verifies the address there
    const shown = await reader.http
      .get(`/api/admin/outbox/${encodeURIComponent(mail.id)}`)
      .set(bearer(admin.accessToken))
      .expect(200);
    expect(shown.body).toMatchObject({ id: mail.id, template: 'verify-email' });
    const { token } = linkTo({ file: mail.id, links: mail.links } as Parameters<typeof linkTo>[0], '/verify-email');
    expect(shown.body.text).toContain(token);
    await reader.http.post('/api/auth/verify-email').send({ token }).expect(200);

    // more mail for the person and for someone else, listed across pages of the bucket
    await reader.http.post('/api/auth/password/forgot').send({ email: person.email }).expect(202);
    const bystander = await signUp(writer.http, { full_name: 'Bo Bystander', verified: false });
    await waitFor('the reset mail and the bystander mail', async () => {
      const all = await listed(writer);
      return (
        all.some((m) => m.to.includes(person.email) && m.template === 'password-reset') && all.some((m) => m.to.includes(bystander.email))
      );
    });
    expect((await listed(writer)).map((m) => m.id)).toEqual((await listed(reader)).map((m) => m.id));
    expect((await listed(reader)).filter((m) => m.to.includes(person.email))).toHaveLength(2);

    // the account goes, on the first host: so does its mail in the bucket, seen from the second
    await writer.http.delete('/api/me').set(bearer(person.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    expect(objects().filter(([, o]) => o.body.toString('utf8').includes(person.email))).toEqual([]);
    expect((await listed(reader)).filter((m) => m.to.includes(person.email))).toEqual([]);
    await reader.http
      .get(`/api/admin/outbox/${encodeURIComponent(mail.id)}`)
      .set(bearer(admin.accessToken))
      .expect(404);
    expect((await listed(reader)).some((m) => m.to.includes(bystander.email))).toBe(true);
  });

  it('answers the Outbox page with the clear 503 of the catalogue while the storage is down, not a 500', async () => {
    await s3.stop();
    const down = await reader.http.get('/api/admin/outbox').query({ range: '[0,9]' }).set(bearer(admin.accessToken));
    expect(down.status).toBe(503);
    expect(down.body.message).toBe(ErrorMessages.serviceUnavailable);
    expect(down.headers['retry-after']).toBe('5');
  });
});
