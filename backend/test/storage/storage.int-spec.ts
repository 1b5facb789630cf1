import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppExceptionFilter, ConflictError, ErrorCode, NotFoundError, ValidationError } from '../../src/common/errors';
import { AppConfigModule } from '../../src/config/config.module';
import { testConfig } from '../../src/config/test-config';
import {
  INVALID_LINK_MESSAGE,
  LocalStorageDriver,
  S3StorageDriver,
  STORAGE,
  StorageModule,
  computeLocalSignature,
  signLocalUrl,
  verifyLocalSignature,
  type StoragePort,
} from '../../src/storage';
import { FakeS3Server } from './fake-s3.server';
import type { AppConfig } from '../../src/config/app-config';
import type { INestApplication } from '@nestjs/common';

const SECRET = 'test-signing-secret-0123456789-abcdefghij';
const APP_URL = 'http://files.test';
const S3_CREDENTIALS = { accessKeyId: 'AKIATESTFAKE', secretAccessKey: 'fake-secret-key-for-tests' };
const BUCKET = 'fitting-room-test';

function makeConfig(localDir: string, s3?: { endpoint: string; bucket?: string; secretAccessKey?: string }): AppConfig {
  return testConfig({
    appUrl: APP_URL,
    corsOrigins: [APP_URL],
    storage: {
      driver: s3 ? 's3' : 'local',
      localDir,
      signingSecret: SECRET,
      signedUrlTtlSeconds: 900,
      s3: s3 && {
        bucket: s3.bucket ?? BUCKET,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        accessKeyId: S3_CREDENTIALS.accessKeyId,
        secretAccessKey: s3.secretAccessKey ?? S3_CREDENTIALS.secretAccessKey,
        forcePathStyle: true,
      },
    },
    dataDir: localDir,
  });
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.from('not really a jpeg \u0000\u00ff bytes'), 0xff, 0xd9]);
const INVALID_KEYS = [
  '../x',
  '/abs',
  'a//b',
  '',
  'a/../b',
  'a/./b',
  'trailing/',
  'with space',
  'a\\b',
  'ümlaut',
  'x'.repeat(201),
  `${'a/'.repeat(256)}b`,
];

let tmpRoot: string;
let fake: FakeS3Server;

beforeAll(async () => {
  tmpRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'fr-storage-'));
  fake = await FakeS3Server.start({ ...S3_CREDENTIALS, buckets: [BUCKET], maxKeys: 2 });
});

afterAll(async () => {
  await fake?.stop();
  await fs.rm(tmpRoot, { recursive: true, force: true });
});

async function newLocal(): Promise<LocalStorageDriver> {
  // a folder that does not exist yet: the driver creates it
  const driver = new LocalStorageDriver(makeConfig(path.join(await fs.mkdtemp(path.join(tmpRoot, 'local-')), 'data', 'files')));
  await driver.init();
  return driver;
}

describe.each([
  ['local', () => newLocal()],
  ['s3', async () => new S3StorageDriver(makeConfig(tmpRoot, { endpoint: fake.url }))],
] as const)('StoragePort contract: %s driver', (kind, create) => {
  let storage: StoragePort;
  // every test writes under its own user folder, so the drivers can share one bucket
  let n = 0;
  const user = () => `users/${kind}-${++n}`;

  beforeAll(async () => {
    storage = await create();
  });
  afterAll(() => (storage as { onModuleDestroy?: () => void }).onModuleDestroy?.());

  it('reports its kind and passes its health check', async () => {
    expect(storage.kind).toBe(kind);
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('round-trips bytes and content type; exists and delete follow', async () => {
    const key = `${user()}/uploads/photo-1.jpg`;
    expect(await storage.exists(key)).toBe(false);
    await storage.put(key, JPEG, { contentType: 'image/jpeg' });
    expect(await storage.exists(key)).toBe(true);
    const got = await storage.get(key);
    expect(got.body.equals(JPEG)).toBe(true);
    expect(got).toMatchObject({ contentType: 'image/jpeg', size: JPEG.length });

    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.get(key)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('overwrites an object with new bytes and a new content type', async () => {
    const key = `${user()}/results/r.bin`;
    await storage.put(key, Buffer.from('first'), { contentType: 'image/png' });
    await storage.put(key, Buffer.from('second version'), { contentType: 'video/mp4' });
    const got = await storage.get(key);
    expect(got.body.toString()).toBe('second version');
    expect(got.contentType).toBe('video/mp4');
  });

  it('answers NotFoundError for a missing key, and deleting it is no error', async () => {
    const key = `${user()}/missing.jpg`;
    await expect(storage.get(key)).rejects.toMatchObject({ code: ErrorCode.RECORD_NOT_FOUND, statusCode: 404 });
    await expect(storage.delete(key)).resolves.toBeUndefined();
    expect(await storage.exists(`${user()}`)).toBe(false);
  });

  it('keeps an empty object', async () => {
    const key = `${user()}/empty.txt`;
    await storage.put(key, Buffer.alloc(0), { contentType: 'text/plain; charset=utf-8' });
    expect(await storage.get(key)).toMatchObject({ size: 0, contentType: 'text/plain; charset=utf-8' });
  });

  it('deletePrefix removes everything of one user, across pages, and nothing of the others', async () => {
    const a = user();
    const b = `${a}0`; // shares the characters of a's id: must survive `${a}/`
    const keys = [`${a}/uploads/1.jpg`, `${a}/uploads/2.jpg`, `${a}/results/g1/out.jpg`, `${a}/results/g1/out.mp4`, `${a}/avatar.png`];
    for (const key of [...keys, `${b}/uploads/1.jpg`]) await storage.put(key, Buffer.from(key), { contentType: 'image/jpeg' });

    expect(await storage.deletePrefix(`${a}/`)).toBe(keys.length);
    for (const key of keys) expect(await storage.exists(key)).toBe(false);
    expect((await storage.get(`${b}/uploads/1.jpg`)).body.toString()).toBe(`${b}/uploads/1.jpg`);
    expect(await storage.deletePrefix(`${a}/`)).toBe(0);

    // a prefix that is not a whole folder name matches like S3's does
    expect(await storage.deletePrefix(`${b}/up`)).toBe(1);
    expect(await storage.exists(`${b}/uploads/1.jpg`)).toBe(false);
  });

  it('lists every key under a prefix, nested and across pages, and nothing of the others', async () => {
    const a = user();
    const b = `${a}0`;
    const keys = [`${a}/mail/1.eml`, `${a}/mail/2.eml`, `${a}/mail/3.eml`, `${a}/mail/deep/4.eml`, `${a}/other.txt`];
    for (const key of [...keys, `${b}/mail/1.eml`]) await storage.put(key, Buffer.from(key), { contentType: 'message/rfc822' });

    expect((await storage.list(`${a}/`)).sort()).toEqual([...keys].sort());
    expect((await storage.list(`${a}/mail/`)).sort()).toEqual(keys.filter((k) => k.includes('/mail/')).sort());
    // a prefix that is not a whole folder name matches like S3's does
    expect((await storage.list(`${a}/oth`)).sort()).toEqual([`${a}/other.txt`]);
    expect(await storage.list(`${a}/nothing/`)).toEqual([]);
    await storage.deletePrefix(`${a}/`);
    expect(await storage.list(`${a}/`)).toEqual([]);
    expect(await storage.list(`${b}/`)).toEqual([`${b}/mail/1.eml`]);
    await expect(storage.list('')).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.list('../')).rejects.toBeInstanceOf(ValidationError);
  });

  it.each(INVALID_KEYS)('refuses the key %j everywhere with ValidationError', async (key) => {
    await expect(storage.put(key, JPEG, { contentType: 'image/jpeg' })).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.exists(key)).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.delete(key)).rejects.toBeInstanceOf(ValidationError);
    await expect(storage.signedUrl(key)).rejects.toBeInstanceOf(ValidationError);
  });

  it('accepts a key of 512 characters and refuses 513', async () => {
    const base = `${user()}/`;
    const long = base + 'k/'.repeat((512 - base.length - 1) / 2) + 'z'.repeat(((512 - base.length - 1) % 2) + 1);
    expect(long).toHaveLength(512);
    await storage.put(long, JPEG, { contentType: 'image/jpeg' });
    expect(await storage.exists(long)).toBe(true);
    await expect(storage.put(`${long}z`, JPEG, { contentType: 'image/jpeg' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses empty or unsafe prefixes and content types', async () => {
    for (const prefix of ['', '/', '../', 'users//', '/users/']) {
      await expect(storage.deletePrefix(prefix)).rejects.toBeInstanceOf(ValidationError);
    }
    for (const contentType of ['', 'image', 'image/jpeg\r\nSet-Cookie: a=b', 'text/html; x="\n"']) {
      await expect(storage.put(`${user()}/a.jpg`, JPEG, { contentType })).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('refuses signed URL lifetimes outside 1 s .. 7 days', async () => {
    const key = `${user()}/a.jpg`;
    for (const ttlSeconds of [0, -5, 1.5, 7 * 24 * 3600 + 1]) {
      await expect(storage.signedUrl(key, { ttlSeconds })).rejects.toBeInstanceOf(ValidationError);
    }
  });
});

describe('local driver on disk', () => {
  it('keeps its folders 0700 and files 0600, and leaves no temp files', async () => {
    const driver = await newLocal();
    const root = (driver as unknown as { root: string }).root;
    await Promise.all(Array.from({ length: 8 }, (_, i) => driver.put(`users/u1/f${i}.jpg`, JPEG, { contentType: 'image/jpeg' })));
    expect((await fs.stat(root)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(root, 'objects', 'users', 'u1'))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(root, 'objects', 'users', 'u1', 'f0.jpg'))).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(path.join(root, 'tmp'))).toEqual([]);
  });

  it('leaves no folder named after a deleted user', async () => {
    const driver = await newLocal();
    const root = (driver as unknown as { root: string }).root;
    await driver.put('users/gone/uploads/1.jpg', JPEG, { contentType: 'image/jpeg' });
    await driver.put('users/stays/uploads/1.jpg', JPEG, { contentType: 'image/jpeg' });
    await driver.deletePrefix('users/gone/');
    await driver.put('users/once/a.jpg', JPEG, { contentType: 'image/jpeg' });
    await driver.delete('users/once/a.jpg');
    expect(await fs.readdir(path.join(root, 'objects', 'users'))).toEqual(['stays']);
    expect(await fs.readdir(path.join(root, 'meta', 'users'))).toEqual(['stays']);
  });

  it("removes a deleted user's folder even when it is empty, and touches nothing for a folder that never existed", async () => {
    const driver = await newLocal();
    const root = (driver as unknown as { root: string }).root;
    await driver.put('users/stays/uploads/1.jpg', JPEG, { contentType: 'image/jpeg' });
    await fs.mkdir(path.join(root, 'objects', 'users', 'hollow', 'uploads'), { recursive: true });
    expect(await driver.deletePrefix('users/hollow/')).toBe(0);
    expect(await driver.deletePrefix('users/stays/provider-inputs/never-made/')).toBe(0);
    expect(await fs.readdir(path.join(root, 'objects', 'users'))).toEqual(['stays']);
    expect((await driver.get('users/stays/uploads/1.jpg')).size).toBe(JPEG.length);
  });

  it('answers ConflictError when a key would need an existing object to be a folder', async () => {
    const driver = await newLocal();
    await driver.put('users/u/a', JPEG, { contentType: 'image/jpeg' });
    await expect(driver.put('users/u/a/b', JPEG, { contentType: 'image/jpeg' })).rejects.toBeInstanceOf(ConflictError);
    await expect(driver.get('users/u/a/b')).rejects.toBeInstanceOf(NotFoundError);
    expect(await driver.exists('users/u')).toBe(false);
  });

  it('fails its health check when the folder cannot be used', async () => {
    const file = path.join(tmpRoot, 'a-file');
    await fs.writeFile(file, 'x');
    const driver = new LocalStorageDriver(makeConfig(path.join(file, 'storage')));
    await expect(driver.check()).rejects.toThrow(/not usable/);
  });
});

describe('signed URL functions', () => {
  const now = Date.UTC(2030, 0, 1);
  const exp = now / 1000 + 60;
  const sig = computeLocalSignature({ key: 'users/1/a.jpg', exp }, SECRET);

  it('accepts a fresh signature and reports the seconds left', () => {
    expect(verifyLocalSignature({ key: 'users/1/a.jpg', exp: String(exp), sig }, SECRET, now)).toMatchObject({
      valid: true,
      remainingSeconds: 60,
    });
  });

  it.each([
    ['expired', { key: 'users/1/a.jpg', exp: String(exp), sig }, SECRET, now + 60_000, 'expired'],
    ['another key', { key: 'users/2/a.jpg', exp: String(exp), sig }, SECRET, now, 'bad-signature'],
    ['another exp', { key: 'users/1/a.jpg', exp: String(exp + 1), sig }, SECRET, now, 'bad-signature'],
    ['an added dl', { key: 'users/1/a.jpg', exp: String(exp), dl: 'x.jpg', sig }, SECRET, now, 'bad-signature'],
    ['another secret', { key: 'users/1/a.jpg', exp: String(exp), sig }, `${SECRET}x`, now, 'bad-signature'],
    ['a repeated exp', { key: 'users/1/a.jpg', exp: [String(exp), String(exp)], sig }, SECRET, now, 'malformed'],
    ['a short sig', { key: 'users/1/a.jpg', exp: String(exp), sig: sig.slice(1) }, SECRET, now, 'malformed'],
  ])('refuses %s', (_name, input, secret, at, reason) => {
    expect(verifyLocalSignature(input, secret, at)).toEqual({ valid: false, reason });
  });
});

describe('FilesController (local driver, over HTTP)', () => {
  let app: INestApplication;
  let storage: StoragePort;
  const key = 'users/42/uploads/photo.jpg';
  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  const expectInvalidLink = (res: request.Response) => {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, code: ErrorCode.FORBIDDEN, message: INVALID_LINK_MESSAGE });
  };

  beforeAll(async () => {
    const cfg = makeConfig(await fs.mkdtemp(path.join(tmpRoot, 'app-')));
    const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(cfg), StorageModule.forRoot(cfg)] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    app.setGlobalPrefix('api');
    app.useGlobalFilters(new AppExceptionFilter());
    await app.listen(0, '127.0.0.1');
    storage = app.get<StoragePort>(STORAGE);
    await storage.put(key, JPEG, { contentType: 'image/jpeg' });
    await storage.put('users/42/uploads/other.png', Buffer.from('other'), { contentType: 'image/png' });
  });
  afterAll(() => app?.close());

  it('serves a fresh link with the exact bytes, its content type and private caching', async () => {
    const url = await storage.signedUrl(key);
    expect(url).toMatch(new RegExp(`^${APP_URL}/api/files/${key}\\?exp=\\d+&sig=[\\w-]{43}$`));
    const res = await request(app.getHttpServer()).get(pathOf(url));
    expect(res.status).toBe(200);
    expect(Buffer.isBuffer(res.body) && res.body.equals(JPEG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBeUndefined();
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers['cache-control'])?.[1]);
    expect(maxAge).toBeGreaterThan(890);
    expect(maxAge).toBeLessThanOrEqual(900);
  });

  it('gives the browser a host-relative link with the same signature and expiry, refused once altered', async () => {
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now);
    let absolute: string, relative: string;
    try {
      absolute = await storage.signedUrl(key, { downloadName: 'a.jpg' });
      relative = await storage.signedUrl(key, { downloadName: 'a.jpg', hostRelative: true });
    } finally {
      jest.restoreAllMocks();
    }
    // the same link without APP_URL's origin: it loads from whatever host the page came from
    expect(relative).toMatch(new RegExp(`^/api/files/${key}\\?exp=\\d+&dl=a\\.jpg&sig=[\\w-]{43}$`));
    expect(absolute).toBe(`${APP_URL}${relative}`);
    const http = request(app.getHttpServer());
    expect((await http.get(relative)).status).toBe(200);
    expectInvalidLink(await http.get(relative.replace(/exp=(\d+)/, (_, exp: string) => `exp=${Number(exp) + 60}`)));
    expectInvalidLink(await http.get(relative.replace('dl=a.jpg', 'dl=b.jpg')));
  });

  it('answers an attachment with a sanitized file name when dl is given', async () => {
    const url = await storage.signedUrl(key, { downloadName: 'fitting-room-42.jpg' });
    const res = await request(app.getHttpServer()).get(pathOf(url));
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="fitting-room-42.jpg"');

    const nasty = await storage.signedUrl(key, { downloadName: '../../etc/"passwd"\r\nX-Evil: 1.jpg' });
    const res2 = await request(app.getHttpServer()).get(pathOf(nasty));
    expect(res2.status).toBe(200);
    expect(res2.headers['content-disposition']).toBe('attachment; filename="etc_passwd_X-Evil_1.jpg"');
    expect(res2.headers['x-evil']).toBeUndefined();
  });

  it('refuses tampered and expired links with 403 in the catalogue shape', async () => {
    const url = new URL(await storage.signedUrl(key, { downloadName: 'a.jpg' }));
    const http = request(app.getHttpServer());
    const variant = (change: (u: URL) => void) => {
      const u = new URL(url);
      change(u);
      return u.pathname + u.search;
    };
    const sig = url.searchParams.get('sig')!;
    const cases = [
      variant((u) => (u.pathname = u.pathname.replace('photo.jpg', 'other.png'))), // tampered key
      variant((u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600))), // tampered exp
      variant((u) => u.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))), // tampered sig
      variant((u) => u.searchParams.delete('sig')),
      variant((u) => u.searchParams.delete('dl')), // the attachment is part of what was signed
      variant((u) => u.searchParams.set('dl', 'b.jpg')),
      variant((u) => u.searchParams.append('exp', u.searchParams.get('exp')!)),
      '/api/files/..%2F..%2F..%2Fetc%2Fpasswd?exp=9999999999&sig=' + sig,
      pathOf(signLocalUrl({ appUrl: APP_URL, key, secret: SECRET, ttlSeconds: 60, now: Date.now() - 61_000 })), // expired
      pathOf(signLocalUrl({ appUrl: APP_URL, key, secret: 'another-secret-of-enough-length-0123456789', ttlSeconds: 60 })),
    ];
    for (const p of cases) expectInvalidLink(await http.get(p));
  });

  it('answers 403 for a link that expires while it waits', async () => {
    // A link lives until its whole second `exp`: 1 s would leave it 0 to 1,000 ms, less than a slow
    // machine's first request can take. 5 s, then wait until just past `exp`.
    const url = await storage.signedUrl('users/42/uploads/other.png', { ttlSeconds: 5 });
    expect((await request(app.getHttpServer()).get(pathOf(url))).status).toBe(200);
    const expiresAt = Number(new URL(url, 'http://x').searchParams.get('exp')) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt + 100 - Date.now())));
    expectInvalidLink(await request(app.getHttpServer()).get(pathOf(url)));
  });

  it('answers 404 for a valid link to a deleted file', async () => {
    await storage.put('users/42/tmp.jpg', JPEG, { contentType: 'image/jpeg' });
    const url = await storage.signedUrl('users/42/tmp.jpg');
    await storage.delete('users/42/tmp.jpg');
    const res = await request(app.getHttpServer()).get(pathOf(url));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: ErrorCode.RECORD_NOT_FOUND });
  });

  it('is documented as downloadSignedFile under the files tag', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build(), { operationIdFactory: (_c, method) => method });
    const op = doc.paths['/api/files/{key}']?.get;
    expect(op).toMatchObject({ operationId: 'downloadSignedFile', tags: ['files'] });
    expect(op?.parameters?.map((p) => ('name' in p ? p.name : undefined)).sort()).toEqual(['dl', 'exp', 'key', 'sig']);
  });
});

describe('S3 driver against the fake S3', () => {
  let storage: S3StorageDriver;
  beforeAll(() => {
    storage = new S3StorageDriver(makeConfig(tmpRoot, { endpoint: fake.url }));
  });
  afterAll(() => storage.onModuleDestroy());
  afterEach(() => {
    fake.clockOffsetMs = 0;
  });

  it('writes no ACL and no public-read grant', async () => {
    fake.log.length = 0;
    await storage.put('users/s3/private.jpg', JPEG, { contentType: 'image/jpeg' });
    expect(fake.log).toEqual([`PUT /${BUCKET}/users/s3/private.jpg`]);
    expect(fake.buckets.get(BUCKET)!.get('users/s3/private.jpg')).toMatchObject({ contentType: 'image/jpeg', acl: undefined });
  });

  it('serves a presigned URL with the exact bytes, and a download name as an attachment', async () => {
    await storage.put('users/s3/photo.jpg', JPEG, { contentType: 'image/jpeg' });
    const url = await storage.signedUrl('users/s3/photo.jpg', { ttlSeconds: 60, downloadName: 'fitting room "42".jpg' });
    expect(url.startsWith(`${fake.url}/${BUCKET}/users/s3/photo.jpg?`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="fitting_room_42_.jpg"');
  });

  it('refuses tampered and expired presigned URLs with 403', async () => {
    await storage.put('users/s3/other.jpg', JPEG, { contentType: 'image/jpeg' });
    const url = new URL(await storage.signedUrl('users/s3/photo.jpg', { ttlSeconds: 60 }));
    const tamperedKey = new URL(url);
    tamperedKey.pathname = tamperedKey.pathname.replace('photo.jpg', 'other.jpg');
    const tamperedSig = new URL(url);
    const sig = url.searchParams.get('X-Amz-Signature')!;
    tamperedSig.searchParams.set('X-Amz-Signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '3600');
    for (const u of [tamperedKey, tamperedSig, longer]) {
      const res = await fetch(u);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    }
    fake.clockOffsetMs = 61_000;
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('is refused by the server with a wrong secret, and its health check fails on a missing bucket', async () => {
    const wrong = new S3StorageDriver(makeConfig(tmpRoot, { endpoint: fake.url, secretAccessKey: 'not-the-secret' }));
    const missing = new S3StorageDriver(makeConfig(tmpRoot, { endpoint: fake.url, bucket: 'no-such-bucket' }));
    try {
      await expect(wrong.put('users/s3/x.jpg', JPEG, { contentType: 'image/jpeg' })).rejects.toMatchObject({
        name: 'SignatureDoesNotMatch',
      });
      await expect(wrong.check()).rejects.toThrow(/HTTP 403/);
      await expect(missing.check()).rejects.toThrow(/HTTP 404/);
      const forged = await fetch(await wrong.signedUrl('users/s3/photo.jpg'));
      expect(forged.status).toBe(403);
    } finally {
      wrong.onModuleDestroy();
      missing.onModuleDestroy();
    }
  });
});

describe('StorageModule.forRoot', () => {
  it('with S3 provides the S3 driver and registers no /api/files route', async () => {
    const cfg = makeConfig(tmpRoot, { endpoint: fake.url });
    const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(cfg), StorageModule.forRoot(cfg)] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    app.setGlobalPrefix('api');
    app.useGlobalFilters(new AppExceptionFilter());
    await app.init();
    try {
      expect(app.get<StoragePort>(STORAGE).kind).toBe('s3');
      const res = await request(app.getHttpServer()).get('/api/files/users/1/a.jpg?exp=1&sig=x');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, code: ErrorCode.NOT_FOUND });
    } finally {
      await app.close();
    }
  });

  it('refuses to start when its argument and APP_CONFIG name different drivers', async () => {
    const local = makeConfig(tmpRoot);
    const s3 = makeConfig(tmpRoot, { endpoint: fake.url });
    await expect(
      Test.createTestingModule({ imports: [AppConfigModule.forRoot(s3), StorageModule.forRoot(local)] }).compile(),
    ).rejects.toThrow(/given storage driver "local" but APP_CONFIG says "s3"/);
  });
});
