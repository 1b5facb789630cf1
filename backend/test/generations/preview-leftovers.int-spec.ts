import * as fs from 'node:fs';
import * as path from 'node:path';
import { AI_PROVIDER } from '../../src/modules/generations/providers/ai-provider';
import { bearer, PASSWORD } from '../helpers/auth';
import { createGenerationApp, GenerationApp, IMAGE_START, person, startGeneration, uploadPhoto, waitFor } from './generation-test-kit';
import type { PreviewProvider } from '../../src/modules/generations/providers/preview.provider';

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/**
 * The preview renderer (AI_PROVIDER=preview, the default) keeps its work under the user's prefix.
 * Deleting the generation or the whole account while it renders must leave none of it behind: a
 * render that finishes after the deletion sweeps what it wrote.
 */
describe('no leftover files when deleting during a preview render', () => {
  let g: GenerationApp;
  let preview: PreviewProvider;

  beforeAll(async () => {
    g = await createGenerationApp({
      driver: 'in-process',
      env: { AI_PROVIDER: 'preview', AI_PREVIEW_DELAY_MS: '200', AI_POLL_INTERVAL_MS: '100' },
    });
    preview = g.app.get(AI_PROVIDER);
  });
  afterAll(async () => g?.close());

  /** The local storage driver keeps objects under <localDir>/objects/<key> (and their metadata under meta/). */
  const userDir = (userId: string) => path.join(g.config.storage.localDir, 'objects', 'users', userId);

  /** Starts a generation and waits until the renderer has taken it (its lease file exists). */
  async function renderingFor() {
    const who = await person(g);
    const photo = await uploadPhoto(g, who);
    const res = await startGeneration(g, who, { ...IMAGE_START, upload_ids: [photo] });
    expect(res.status).toBe(202);
    await waitFor('the render to start', async () => filesUnder(userDir(who.userId)).some((f) => f.endsWith('.lease.json')), 20_000, 5);
    return { who, generationId: res.body.id as string };
  }

  it.each([1, 2, 3])('leaves nothing of a deleted account (round %i)', async () => {
    const { who } = await renderingFor();
    await g.http.delete('/api/me').set(bearer(who.accessToken)).send({ confirm: 'DELETE', password: PASSWORD }).expect(204);
    await preview.idle();
    await new Promise((r) => setTimeout(r, 100));
    await preview.idle();
    expect(filesUnder(userDir(who.userId))).toEqual([]);
  });

  it.each([1, 2, 3])("leaves nothing of a deleted generation but the person's own photo (round %i)", async () => {
    const { who, generationId } = await renderingFor();
    await g.http.delete(`/api/generations/${generationId}`).set(bearer(who.accessToken)).expect(204);
    await preview.idle();
    await new Promise((r) => setTimeout(r, 100));
    await preview.idle();
    expect(filesUnder(userDir(who.userId)).filter((f) => !f.startsWith('uploads/'))).toEqual([]);
  });

  it.each([1, 2, 3])("leaves nothing of a cancelled generation but the person's own photo (round %i)", async () => {
    const { who, generationId } = await renderingFor();
    const res = await g.http.post(`/api/generations/${generationId}/cancel`).set(bearer(who.accessToken)).expect(200);
    expect(res.body.status).toBe('failed');
    await preview.idle();
    await new Promise((r) => setTimeout(r, 100));
    await preview.idle();
    expect(filesUnder(userDir(who.userId)).filter((f) => !f.startsWith('uploads/'))).toEqual([]);
  });
});
