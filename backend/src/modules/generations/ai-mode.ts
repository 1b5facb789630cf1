import type { AiProvider } from './providers/ai-provider';

/**
 * What renders generations on this server, as the apps and the start-up banner tell it: a vendor's
 * AI, or the local `preview` renderer (AI_PROVIDER unset or `preview`), whose results are
 * collages labelled as previews, not AI try-ons. `GET /api/health` answers it as `ai`.
 */
export interface AiMode {
  provider: string;
  generates_with_ai: boolean;
}

export function aiModeOf(provider: Pick<AiProvider, 'name' | 'generatesWithAi'>): AiMode {
  return { provider: provider.name, generates_with_ai: provider.generatesWithAi };
}

/** The start-up banner's lines about the AI (README: "With a real AI provider"). */
export function aiModeBanner(provider: Pick<AiProvider, 'name' | 'generatesWithAi'>): string[] {
  return provider.generatesWithAi
    ? [`${provider.name} (AI_PROVIDER): generations are rendered by the vendor's AI`]
    : [
        'preview: NO AI is configured. Results are local previews (a collage), not AI try-ons, and say so.',
        'Set AI_PROVIDER and its key to use a vendor: README.md, "With a real AI provider".',
      ];
}
