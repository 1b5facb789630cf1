import { aiModeBanner, aiModeOf } from './ai-mode';

describe('what the apps and the banner say renders generations', () => {
  const preview = { name: 'preview' as const, generatesWithAi: false };
  const vendor = { name: 'fashn' as const, generatesWithAi: true };

  it('answers the provider and whether it is an AI', () => {
    expect(aiModeOf(preview)).toEqual({ provider: 'preview', generates_with_ai: false });
    expect(aiModeOf(vendor)).toEqual({ provider: 'fashn', generates_with_ai: true });
  });

  it('the banner says plainly that the preview is no AI, and how to configure one', () => {
    const lines = aiModeBanner(preview);
    expect(lines[0]).toMatch(/^preview: NO AI is configured\. Results are local previews .*not AI try-ons/);
    expect(lines.join(' ')).toContain('Set AI_PROVIDER');
    expect(aiModeBanner(vendor)).toEqual(["fashn (AI_PROVIDER): generations are rendered by the vendor's AI"]);
  });
});
