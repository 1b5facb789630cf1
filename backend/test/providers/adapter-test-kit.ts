import sharp from 'sharp';
import { AiProvider, ProviderError, ProviderStartInput, ProviderStatus } from '../../src/modules/generations/providers/ai-provider';
import type { FakeVendorServer } from './fake-vendor-server';

/** What the pipeline hands an adapter's `start`: signed URLs of the person, the garment and the scene. */
export function startInput(overrides: Partial<ProviderStartInput> = {}): ProviderStartInput {
  return {
    generationId: 'gen-1',
    type: 'image',
    prompt: 'show the woman in a red linen summer dress on a sunny beach',
    size: '2953*4096',
    person: { url: 'https://files.example/signed/person.jpg' },
    garment: { url: 'https://files.example/signed/garment.png' },
    scene: { url: 'https://files.example/signed/scene.jpg' },
    templateId: 'tpl-1',
    sceneId: 'scene-1',
    ...overrides,
  };
}

/** A picture as the server sends it: an opaque JPEG of `width` x `height` with some shapes (so it weighs what a picture weighs). */
export function inputJpeg(width: number, height: number, background = '#d8b49c'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/><circle cx="${width / 2}" cy="${height / 3}" r="${width / 5}" fill="#8d5a44"/><rect x="${width / 4}" y="${height / 2}" width="${width / 2}" height="${height / 3}" fill="#e0c020"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** Puts the pictures `startInput()` links to on the fake vendor's pretend internet. */
export async function publishStartInputs(vendor: FakeVendorServer): Promise<void> {
  vendor.publish('https://files.example/signed/person.jpg', await inputJpeg(800, 1000));
  vendor.publish('https://files.example/signed/garment.png', await inputJpeg(768, 1024, '#f4f4f4'));
  vendor.publish('https://files.example/signed/scene.jpg', await inputJpeg(768, 1024, '#7aa6c2'));
}

/**
 * The provider error `promise` rejects with; fails the test when it resolves, throws something
 * else, or the message carries the API key.
 */
export async function expectProviderError(promise: Promise<unknown>, apiKey: string): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as Error).message).not.toContain(apiKey);
  return error as ProviderError;
}

/** Polls `status` until the job leaves processing; every state seen and the final one. */
export async function pollUntilDone(
  provider: AiProvider,
  jobId: string,
  max = 10,
): Promise<{ states: ProviderStatus[]; final: ProviderStatus }> {
  const states: ProviderStatus[] = [];
  for (let i = 0; i < max; i++) {
    const s = await provider.status(jobId);
    states.push(s);
    if (s.state !== 'processing') return { states, final: s };
  }
  throw new Error('never finished');
}
