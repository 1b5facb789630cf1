import sharp from 'sharp';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiApp } from '../../src/bootstrap/api';
import { AppError, ErrorCode } from '../../src/common/errors';
import { ConfigurationError } from '../../src/config/app-config';
import { FORBIDDEN_WORDS } from '../../src/modules/catalog/catalog-text.policy';
import { CatalogService } from '../../src/modules/catalog/catalog.service';
import { generationCost } from '../../src/modules/catalog/generation-cost';
import { TIERS, tierAtLeast, type Tier } from '../../src/modules/catalog/tiers';
import { bearer, signUp } from '../helpers/auth';
import { createTestApp, testConfig, type TestApp } from '../helpers/test-app';
import type { CatalogResponseDto } from '../../src/modules/catalog/dto/catalog-response.dto';
import type { NextFunction, Request, Response } from 'express';

const SPLIT: Record<string, number[]> = {
  bikini: [2, 6, 4, 0],
  lingerie: [0, 0, 12, 0],
  active_wear: [2, 6, 4, 0],
  dress: [2, 4, 6, 0],
  pajamas: [2, 6, 4, 0],
  spicy: [0, 0, 0, 12],
};

function errorCode(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('GET /api/catalog (everything switched on)', () => {
  let t: TestApp;
  let catalog: CatalogResponseDto;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.http.get('/api/catalog').expect(200);
    catalog = res.body;
  });
  afterAll(() => t.close());

  it('answers anonymous callers as free tier, cacheable by anyone for 60 s', async () => {
    const res = await t.http.get('/api/catalog').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=5');
    expect(res.headers['vary']).toMatch(/Authorization/);
    expect(res.body.viewer).toEqual({ tier: 'free', canGenerateVideo: false, watermarked: true });
    for (const item of [...res.body.templates, ...res.body.scenes])
      expect({ id: item.id, locked: item.locked }).toEqual({ id: item.id, locked: item.requiredTier !== 'free' });
  });

  it('answers a signed-in caller without letting any cache keep it (and a bad token as anonymous, not 401)', async () => {
    const user = await signUp(t.http);
    const res = await t.http.get('/api/catalog').set(bearer(user.accessToken)).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.viewer.tier).toBe('free');
    const bad = await t.http.get('/api/catalog').set(bearer('not-a-token')).expect(200);
    expect(bad.headers['cache-control']).toBe('no-store');
    expect(bad.body.viewer.tier).toBe('free');
  });

  it('sends the same answer as brotli, gzip or plain as the browser asks, and 304 to a matching ETag', async () => {
    // superagent decodes brotli and gzip as a browser does: the header says what travelled
    const bodies: Record<string, unknown> = {};
    let etag = '';
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await t.http.get('/api/catalog').set('Accept-Encoding', encoding).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['vary']).toMatch(/Accept-Encoding/);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      bodies[encoding] = res.body;
      etag ||= res.headers['etag'];
      expect(res.headers['etag']).toBe(etag);
    }
    expect(bodies.br).toEqual(catalog);
    expect(bodies.gzip).toEqual(catalog);
    expect(bodies.identity).toEqual(catalog);
    await t.http.get('/api/catalog').set('If-None-Match', etag).expect(304);
    // another tier is another answer
    const user = await signUp(t.http);
    await t.app.get(DataSource).query(`UPDATE users SET tier = 'model_mode' WHERE id = $1`, [user.userId]);
    const paid = await t.http.get('/api/catalog').set(bearer(user.accessToken)).expect(200);
    expect(paid.body.viewer.tier).toBe('model_mode');
    expect(paid.headers['etag']).not.toBe(etag);
  });

  it('has exactly 72 templates, 12 per category, with the tier split of the spec', () => {
    expect(catalog.templates).toHaveLength(72);
    expect(catalog.categories.map((c) => c.id).sort()).toEqual(Object.keys(SPLIT).sort());
    for (const [category, split] of Object.entries(SPLIT)) {
      const list = catalog.templates.filter((t) => t.category === category);
      expect({ category, split: TIERS.map((tier) => list.filter((t) => t.requiredTier === tier).length) }).toEqual({ category, split });
    }
    const ids = [...catalog.templates.map((t) => t.id), ...catalog.scenes.map((s) => s.id)];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has the generic scenes with exactly the spec tiers and costs, offered in every category', () => {
    const generic = catalog.scenes.filter((s) => s.category === null).map((s) => [s.id, s.requiredTier, s.creditCost]);
    expect(generic).toEqual([
      ['beach-standing', 'free', 1],
      ['poolside-standing', 'starter', 2],
      ['poolside-sitting', 'starter', 2],
      ['bedroom-standing', 'glow_up', 2],
      ['bedroom-sitting', 'glow_up', 3],
      ['bathroom-standing', 'model_mode', 2],
    ]);
    for (const c of catalog.categories) for (const [id] of generic) expect(c.sceneIds).toContain(id);
    expect(catalog.customPose).toMatchObject({ id: 'custom', creditCost: 3, requiredTier: 'free', locked: false });
  });

  it('states the cost rule the server applies, for every scene and both types, and the custom pose', () => {
    expect(catalog.videoSurcharge).toBe(3);
    for (const s of catalog.scenes) {
      expect({ id: s.id, image: generationCost({ sceneId: s.id, type: 'image' }) }).toEqual({ id: s.id, image: s.creditCost });
      expect({ id: s.id, video: generationCost({ sceneId: s.id, type: 'video' }) }).toEqual({
        id: s.id,
        video: s.creditCost + catalog.videoSurcharge,
      });
    }
    expect(generationCost({ custom: true, type: 'image' })).toBe(catalog.customPose.creditCost);
    expect(generationCost({ custom: true, type: 'video' })).toBe(catalog.customPose.creditCost + catalog.videoSurcharge);
  });

  it('has the plans and packs of the spec, starter alone most popular', () => {
    expect(catalog.plans.map((p) => [p.id, p.price, p.monthlyCredits, p.mostPopular, p.currency])).toEqual([
      ['free', 0, 3, false, 'USD'],
      ['starter', 4.99, 20, true, 'USD'],
      ['glow_up', 12.99, 70, false, 'USD'],
      ['model_mode', 29.99, 180, false, 'USD'],
    ]);
    expect(catalog.packs.map((p) => [p.credits, p.price, p.bonus, p.totalCredits])).toEqual([
      [20, 4.99, 0, 20],
      [70, 14.99, 5, 75],
      [200, 34.99, 30, 230],
      [500, 74.99, 100, 600],
    ]);
    expect(catalog.tiers).toEqual(['free', 'starter', 'glow_up', 'model_mode']);
    expect(catalog.features).toEqual({ spicy: true, video: true, analytics: true });
  });

  it('contains no text suggesting nudity or a minor', () => {
    const texts = [
      ...catalog.templates.flatMap((t) => [t.id, t.name, t.description, t.promptDescription]),
      ...catalog.scenes.flatMap((s) => [s.id, s.name, s.description, s.promptDescription]),
      ...catalog.categories.flatMap((c) => [c.label, c.customPoseHint]),
    ];
    expect(texts.filter((x) => FORBIDDEN_WORDS.test(x))).toEqual([]);
    expect(JSON.stringify(catalog)).not.toMatch(/isTopless|topless/i);
  });

  it('serves every thumbnail as a long-cached SVG that sharp can rasterise', async () => {
    const urls = [...catalog.templates, ...catalog.scenes, catalog.customPose].map((x) => x.thumbnail);
    expect(urls).toHaveLength(72 + catalog.scenes.length + 1);
    for (const url of urls) {
      expect(url).toMatch(/^\/api\/catalog\/artwork\/[a-z0-9-]+\.svg\?v=[0-9a-f]{12}$/);
      const res = await t.http
        .get(url)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect({ url, status: res.status, type: res.headers['content-type'] }).toEqual({
        url,
        status: 200,
        type: 'image/svg+xml; charset=utf-8',
      });
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(res.body as Buffer).metadata();
      expect({ url, format: meta.format, w: meta.width > 0, h: meta.height > 0 }).toEqual({ url, format: 'svg', w: true, h: true });
    }
    // and really rasterises: a PNG of the first template with visible content
    const first = await t.http
      .get(urls[0])
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    const stats = await sharp(first.body as Buffer)
      .png()
      .toBuffer()
      .then((png) => sharp(png).stats());
    expect(stats.channels[0].stdev).toBeGreaterThan(5);
  });

  it('answers a thumbnail without the current version with a short cache lifetime, and 304 on a matching ETag', async () => {
    const url = catalog.templates[0].thumbnail;
    const plain = url.replace(/\?.*$/, '');
    const stale = await t.http.get(`${plain}?v=000000000000`).expect(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
    const none = await t.http.get(plain).expect(200);
    expect(none.headers['cache-control']).toBe('public, max-age=300');
    const etag = none.headers['etag'];
    expect(etag).toBe(`"${url.split('v=')[1]}"`);
    await t.http.get(url).set('If-None-Match', etag).expect(304);
  });

  it("answers a drawn picture as a 600x800 WebP of the same drawing, under the SVG's version", async () => {
    const url = catalog.templates[0].thumbnail.replace('.svg?', '.webp?');
    const collect = (
      r: { on(event: string, listener: (chunk?: Buffer) => void): unknown },
      done: (err: Error | null, body: Buffer) => void,
    ) => {
      const chunks: Buffer[] = [];
      r.on('data', (c) => chunks.push(c!));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    };
    const res = await t.http
      .get(url)
      .buffer(true)
      .parse((r, done) => collect(r, done))
      .expect(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const webp = res.body as Buffer;
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 600, height: 800 });
    // the same picture: the SVG rendered at the same size is within a few levels of it on average
    const svg = await t.http
      .get(catalog.templates[0].thumbnail)
      .buffer(true)
      .parse((r, done) => collect(r, done))
      .expect(200);
    const [a, b] = await Promise.all(
      [sharp(webp), sharp(svg.body as Buffer, { density: 144 })].map((s) =>
        s.resize(60, 80, { fit: 'fill' }).removeAlpha().raw().toBuffer(),
      ),
    );
    expect(a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length).toBeLessThan(6);
    expect((await t.http.get(url.replace(/\?.*$/, '')).expect(200)).headers['cache-control']).toBe('public, max-age=300');
    await t.http.get('/api/catalog/artwork/does-not-exist.webp').expect(404);
  });

  it('answers 404 NOT_FOUND for an unknown picture', async () => {
    const res = await t.http.get('/api/catalog/artwork/does-not-exist.svg').expect(404);
    expect(res.body.code).toBe(ErrorCode.NOT_FOUND);
    await t.http.get('/api/catalog/artwork/bikini-yellow.png').expect(404);
  });

  it('lets the generation API accept every category (corporate too) and video', () => {
    const service = t.app.get(CatalogService);
    for (const c of [...catalog.categories.map((x) => x.id), 'corporate'])
      expect(errorCode(() => service.assertCategoryEnabled(c))).toBeUndefined();
    expect(errorCode(() => service.assertVideoEnabled())).toBeUndefined();
    expect(errorCode(() => service.assertCategoryEnabled('swimwear'))).toBe(ErrorCode.VALIDATION_ERROR);
  });
});

describe('GET /api/catalog as each tier', () => {
  // The auth guard sets request.user; this app puts a user of the tier named by a test header
  // there, which is what the guard does once it carries the tier.
  let app: Awaited<ReturnType<typeof createApiApp>>;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    app = await createApiApp(testConfig(), { logger: false });
    app.use((req: Request & { user?: unknown }, _res: Response, next: NextFunction) => {
      const tier = req.headers['x-test-tier'];
      if (typeof tier === 'string') req.user = { id: '00000000-0000-4000-8000-000000000000', role: 'user', tier };
      next();
    });
    await app.init();
    http = request(app.getHttpServer());
  });
  afterAll(() => app.close());

  it.each(TIERS)('marks `locked` exactly per the entitlements for a %s caller', async (tier: Tier) => {
    const res = await http.get('/api/catalog').set('x-test-tier', tier).expect(200);
    const body: CatalogResponseDto = res.body;
    expect(res.headers['cache-control']).toBe('no-store');
    expect(body.viewer).toEqual({ tier, canGenerateVideo: tierAtLeast(tier, 'glow_up'), watermarked: tier === 'free' });
    for (const x of [...body.templates, ...body.scenes])
      expect({ id: x.id, locked: x.locked }).toEqual({ id: x.id, locked: !tierAtLeast(tier, x.requiredTier) });
    expect(body.customPose.locked).toBe(false);
  });

  it('treats an unknown tier value as free', async () => {
    const res = await http.get('/api/catalog').set('x-test-tier', 'platinum').expect(200);
    expect(res.body.viewer.tier).toBe('free');
  });
});

describe('feature switches off (FEATURE_SPICY=false, FEATURE_VIDEO=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ FEATURE_SPICY: 'false', FEATURE_VIDEO: 'false', FEATURE_ANALYTICS: 'false' });
  });
  afterAll(() => t.close());

  it('leaves spicy out of the catalogue and its pictures', async () => {
    const res = await t.http.get('/api/catalog').expect(200);
    const body: CatalogResponseDto = res.body;
    expect(body.features).toEqual({ spicy: false, video: false, analytics: false });
    expect(body.categories.map((c) => c.id)).not.toContain('spicy');
    expect(body.templates).toHaveLength(60);
    expect(body.templates.some((x) => x.category === 'spicy')).toBe(false);
    expect(body.scenes.some((x) => x.id.startsWith('spicy-'))).toBe(false);
    await t.http.get('/api/catalog/artwork/spicy-nurse.svg').expect(404);
    await t.http.get('/api/catalog/artwork/spicy-nurse.webp').expect(404);
    await t.http.get('/api/catalog/artwork/spicy-neon-lounge.svg').expect(404);
    await t.http.get('/api/catalog/artwork/bikini-yellow.svg').expect(200);
  });

  it('refuses spicy and video with a VALIDATION_ERROR, so the generation API cannot be asked for them', () => {
    const service = t.app.get(CatalogService);
    expect(errorCode(() => service.assertCategoryEnabled('spicy'))).toBe(ErrorCode.VALIDATION_ERROR);
    expect(errorCode(() => service.assertVideoEnabled())).toBe(ErrorCode.VALIDATION_ERROR);
    expect(errorCode(() => service.assertCategoryEnabled('bikini'))).toBeUndefined();
  });

  it('refuses a value that is not a boolean at start', () => {
    expect(() => testConfig({ FEATURE_VIDEO: 'maybe' })).toThrow(ConfigurationError);
    expect(testConfig({}).features).toEqual({ spicy: true, video: true, analytics: true });
  });
});
