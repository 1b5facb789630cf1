import sharp from 'sharp';
import { NotFoundError } from '../../../common/errors';
import { ArtworkService } from '../../catalog/artwork.service';
import { ProviderErrorKind, type ProviderStartInput } from './ai-provider';
import { PreviewProvider } from './preview.provider';
import type { StoragePort, StoredObject } from '../../../storage';

/** StoragePort in memory: what several processes sharing one bucket would see. */
class MemoryStorage implements StoragePort {
  readonly kind = 'local' as const;
  readonly objects = new Map<string, StoredObject>();
  async put(key: string, body: Buffer, opts: { contentType: string }) {
    this.objects.set(key, { body, contentType: opts.contentType, size: body.length });
  }
  async get(key: string) {
    const o = this.objects.get(key);
    if (!o) throw new NotFoundError('File not found.');
    return o;
  }
  async exists(key: string) {
    return this.objects.has(key);
  }
  async delete(key: string) {
    this.objects.delete(key);
  }
  async list(prefix: string) {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix));
  }
  async deletePrefix(prefix: string) {
    let n = 0;
    for (const k of [...this.objects.keys()]) if (k.startsWith(prefix) && this.objects.delete(k)) n++;
    return n;
  }
  async signedUrl(key: string) {
    return `http://files.test/${key}`;
  }
  async check() {}
}

const USER = '11111111-2222-4333-8444-555555555555';
const artwork = new ArtworkService();
const svg = (id: string) => artwork.get(id)?.svg;

async function setup(type: 'image' | 'video' = 'image', delayMs = 0) {
  const storage = new MemoryStorage();
  const personKey = `users/${USER}/uploads/photo.jpg`;
  await storage.put(
    personKey,
    await sharp({ create: { width: 600, height: 800, channels: 3, background: '#c8a' } })
      .jpeg()
      .toBuffer(),
    { contentType: 'image/jpeg' },
  );
  const input: ProviderStartInput = {
    generationId: 'gen-1',
    type,
    prompt: 'show the woman ...',
    size: '2953*4096',
    person: { url: 'http://files.test/x', storageKey: personKey },
    garment: { url: 'http://files.test/g' },
    templateId: 'bikini-yellow',
    sceneId: 'beach-standing',
  };
  return { storage, input, provider: new PreviewProvider(storage, { delayMs, artworkSvg: svg }) };
}

async function untilDone(provider: PreviewProvider, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const status = await provider.status(jobId);
    if (status.state !== 'processing') return status;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('preview never finished');
}

describe('PreviewProvider', () => {
  it('answers a job id at once, reports processing, then a JPEG at the output size, kept under the user prefix', async () => {
    const { storage, input, provider } = await setup('image', 200);
    const { jobId } = await provider.start(input);
    expect(jobId).toMatch(new RegExp(`^pv_${USER}_`));
    expect(await provider.status(jobId)).toMatchObject({ state: 'processing' });
    const done = await untilDone(provider, jobId);
    expect(done.state).toBe('completed');
    const result = (done as { result: { buffer: Buffer; contentType: string } }).result;
    expect(result.contentType).toBe('image/jpeg');
    expect(await sharp(result.buffer).metadata()).toMatchObject({ format: 'jpeg', width: 2953, height: 4096 });
    expect([...storage.objects.keys()].every((k) => k.startsWith(`users/${USER}/`))).toBe(true);
    await provider.discard(jobId);
    expect([...storage.objects.keys()].filter((k) => k.includes('preview-jobs'))).toEqual([]);
  }, 20_000);

  it('keeps its state in storage: another process (instance) answers the status and renders a job whose renderer died', async () => {
    const { storage, input } = await setup('image', 60_000);
    let now = Date.now();
    const first = new PreviewProvider(storage, { delayMs: 60_000, artworkSvg: svg, now: () => now });
    const { jobId } = await first.start(input); // its timer would fire in a minute: as good as dead
    const second = new PreviewProvider(storage, { delayMs: 0, artworkSvg: svg, now: () => now });
    expect(await second.status(jobId)).toMatchObject({ state: 'processing', detail: expect.stringContaining('waiting') });
    now += 61_000;
    expect(await untilDone(second, jobId)).toMatchObject({ state: 'completed' });
  }, 20_000);

  it('makes a short MP4 for a video', async () => {
    const { input, provider } = await setup('video');
    const { jobId } = await provider.start(input);
    const done = await untilDone(provider, jobId);
    const result = (done as { result: { buffer: Buffer; contentType: string } }).result;
    expect(result.contentType).toBe('video/mp4');
    expect(result.buffer.toString('latin1', 4, 8)).toBe('ftyp');
  }, 30_000);

  it('fails a cancelled job and does not know a job it never started', async () => {
    const { input, provider } = await setup('image', 60_000);
    const { jobId } = await provider.start(input);
    await provider.cancel(jobId);
    expect(await provider.status(jobId)).toEqual({ state: 'failed', reason: 'Cancelled' });
    await expect(provider.status(`pv_${USER}_00000000-0000-4000-8000-000000000000`)).rejects.toMatchObject({
      kind: ProviderErrorKind.NotFound,
    });
    await expect(provider.status('something-else')).rejects.toMatchObject({ kind: ProviderErrorKind.NotFound });
  });

  it('refuses a photo that is not in our storage', async () => {
    const { input, provider } = await setup();
    await expect(provider.start({ ...input, person: { url: 'https://elsewhere.example/p.jpg' } })).rejects.toMatchObject({
      kind: ProviderErrorKind.Rejected,
    });
  });
});
