import * as http from 'node:http';
import { testConfig } from '../../src/config/test-config';
import { S3StorageDriver } from '../../src/storage';
import { photoJpeg } from '../generations/generation-test-kit';
import { bearer, signUp } from '../helpers/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { FakeS3Server } from './fake-s3.server';
import type { AddressInfo } from 'node:net';

/**
 * S3_PUBLIC_ENDPOINT: the app reaches the bucket at S3_ENDPOINT (docker-compose: http://storage:9000),
 * browsers and vendors at another address (http://localhost:9000, or a public HTTPS name). Here the
 * fake S3 listens on one port (the inside address) and a reverse proxy on another port (the outside
 * address) forwards to it with the Host header kept, as a proxy in front of MinIO must
 * (https://min.io/docs/minio/linux/integrations/setup-nginx-proxy-with-minio.html). The fake verifies
 * every Signature V4 against the Host it receives, so a URL signed for the wrong host is refused.
 */
const CREDENTIALS = { accessKeyId: 'AKIAPUBLICENDPOINT', secretAccessKey: 'public-endpoint-secret-0123456789' };
const BUCKET = 'public-endpoint';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.from('bytes of a photo'), 0xff, 0xd9]);

/** The outside door: every request forwarded to `target` unchanged, Host header included; counts what passes. */
class PublicDoor {
  readonly seen: string[] = [];
  url = '';
  private readonly server = http.createServer((req, res) => {
    this.seen.push(`${req.method} ${req.url?.split('?')[0]}`);
    const upstream = new URL(this.target);
    const forward = http.request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const withHost = (url: string, origin: string) => {
  const u = new URL(url);
  const o = new URL(origin);
  u.host = o.host;
  return u.toString();
};

let fake: FakeS3Server;
let door: PublicDoor;

beforeAll(async () => {
  fake = await FakeS3Server.start({ ...CREDENTIALS, buckets: [BUCKET] });
  door = await new PublicDoor(fake.url).start();
});

afterAll(async () => {
  await door?.stop();
  await fake?.stop();
});

function driver(publicEndpoint?: string): S3StorageDriver {
  return new S3StorageDriver(
    testConfig({
      storage: {
        driver: 's3',
        s3: { bucket: BUCKET, endpoint: fake.url, publicEndpoint, region: 'us-east-1', ...CREDENTIALS, forcePathStyle: true },
      },
    }),
  );
}

describe('S3 driver with S3_PUBLIC_ENDPOINT', () => {
  let storage: S3StorageDriver;
  let inside: S3StorageDriver;
  beforeAll(() => {
    storage = driver(door.url);
    inside = driver();
  });
  afterAll(() => {
    storage.onModuleDestroy();
    inside.onModuleDestroy();
  });

  it('does its own reads and writes at S3_ENDPOINT: nothing goes through the public address', async () => {
    door.seen.length = 0;
    fake.log.length = 0;
    const key = 'users/pub/uploads/own.jpg';
    await storage.check();
    await storage.put(key, JPEG, { contentType: 'image/jpeg' });
    expect((await storage.get(key)).body.equals(JPEG)).toBe(true);
    expect(await storage.exists(key)).toBe(true);
    await storage.signedUrl(key); // presigning is computed here, it sends nothing
    await storage.delete(key);
    expect(await storage.deletePrefix('users/pub/uploads/')).toBe(0);
    expect(door.seen).toEqual([]);
    expect(fake.log).toEqual([
      `HEAD /${BUCKET}/`,
      `PUT /${BUCKET}/${key}`,
      `GET /${BUCKET}/${key}`,
      `HEAD /${BUCKET}/${key}`,
      `DELETE /${BUCKET}/${key}`,
      `GET /${BUCKET}/`,
    ]);
  });

  it('hands out presigned URLs naming the public host, which the server verifies and answers with the bytes', async () => {
    const key = 'users/pub/uploads/photo.jpg';
    await storage.put(key, JPEG, { contentType: 'image/jpeg' });
    door.seen.length = 0;
    const url = await storage.signedUrl(key, { ttlSeconds: 120, downloadName: 'me.jpg' });
    expect(url.startsWith(`${door.url}/${BUCKET}/${key}?`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="me.jpg"');
    expect(door.seen).toEqual([`GET /${BUCKET}/${key}`]);
  });

  it('signs for the public host: the same URL at the inside address, or an inside URL re-pointed outside, is refused', async () => {
    const key = 'users/pub/uploads/photo.jpg';
    const outside = await storage.signedUrl(key);
    const reachedInside = await fetch(withHost(outside, fake.url));
    expect(reachedInside.status).toBe(403);
    expect(await reachedInside.text()).toContain('<Code>SignatureDoesNotMatch</Code>');

    const insideUrl = await inside.signedUrl(key);
    expect(insideUrl.startsWith(`${fake.url}/`)).toBe(true); // without S3_PUBLIC_ENDPOINT: the S3_ENDPOINT host
    const repointed = await fetch(withHost(insideUrl, door.url));
    expect(repointed.status).toBe(403);
    expect(await repointed.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });
});

describe('the API with S3_PUBLIC_ENDPOINT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: fake.url,
      S3_PUBLIC_ENDPOINT: `${door.url}/`,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    });
  });
  afterAll(async () => t?.close());

  it('stores an upload at S3_ENDPOINT and gives the person a link on the public host that shows the photo', async () => {
    const who = await signUp(t.http);
    door.seen.length = 0;
    const up = await t.http
      .post('/api/uploads')
      .set(bearer(who.accessToken))
      .field('confirm_own_photos', 'true')
      .attach('files', await photoJpeg(), { filename: 'me.jpg', contentType: 'image/jpeg' });
    expect(up.status).toBe(201);
    const { id, url } = up.body.uploads[0] as { id: string; url: string };
    expect(new URL(url).origin).toBe(door.url);
    expect(door.seen).toEqual([]); // the upload itself went inside

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const stored = [...fake.buckets.get(BUCKET)!.entries()].filter(([key]) => key.startsWith(`users/${who.userId}/`));
    expect(stored).toHaveLength(1);
    expect(Buffer.from(await res.arrayBuffer()).equals(stored[0][1].body)).toBe(true);

    const again = await t.http.get(`/api/uploads/${id}`).set(bearer(who.accessToken));
    expect(new URL(again.body.url as string).origin).toBe(door.url);
  });

  it('lets the pages load images and videos from the public host, not from the inside address', async () => {
    const csp = (await t.http.get('/api/health/live')).headers['content-security-policy'] as string;
    const directive = (name: string) => csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
    expect(directive('img-src')).toContain(door.url);
    expect(directive('media-src')).toContain(door.url);
    expect(csp).not.toContain(fake.url);
  });

  it('reports the storage ready through the inside address', async () => {
    door.seen.length = 0;
    const ready = await t.http.get('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.storage).toMatchObject({ status: 'up', driver: 's3' });
    expect(door.seen).toEqual([]);
  });
});
