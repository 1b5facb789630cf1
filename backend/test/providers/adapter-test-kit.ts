import { AiProvider, ProviderError, ProviderStartInput, ProviderStatus } from '../../src/modules/generations/providers/ai-provider';

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
