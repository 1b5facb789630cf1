import { createDashScopeProvider } from './dashscope.provider';
import { createFalProvider } from './fal.provider';
import { createFashnProvider } from './fashn.provider';
import { PreviewProvider } from './preview.provider';
import type { AppConfig } from '../../../config/app-config';
import type { StoragePort } from '../../../storage';
import type { AiProvider } from './ai-provider';

/** What a provider may be built from. */
export interface AiProviderContext {
  config: AppConfig;
  storage: StoragePort;
  /** the catalogue's SVG artwork of a template, scene or the custom pose (the preview provider draws it) */
  artworkSvg: (id: string) => string | undefined;
}

export type AiProviderFactory = (context: AiProviderContext) => AiProvider;

const FACTORIES = new Map<string, AiProviderFactory>([
  ['preview', (c) => new PreviewProvider(c.storage, { delayMs: c.config.ai.previewDelayMs, artworkSvg: c.artworkSvg })],
  ['dashscope', (c) => createDashScopeProvider(c.config)],
  ['fashn', (c) => createFashnProvider(c.config)],
  ['fal', (c) => createFalProvider(c.config)],
]);

/**
 * Makes a provider available under `name`. AI_PROVIDER selects one of the built-in ones above
 * (preview, dashscope, fashn, fal); the benchmark registers its fake vendor under a name of its own and
 * selects it with `config.ai.provider`.
 */
export function registerAiProvider(name: string, factory: AiProviderFactory): void {
  FACTORIES.set(name, factory);
}

export function registeredAiProviders(): string[] {
  return [...FACTORIES.keys()];
}

/** The provider `config.ai.provider` names (default `preview`); throws when no such provider is registered. */
export function createAiProvider(context: AiProviderContext): AiProvider {
  const name = context.config.ai.provider;
  const factory = FACTORIES.get(name);
  if (!factory) throw new Error(`AI_PROVIDER=${name} is not available (known: ${registeredAiProviders().join(', ')})`);
  return factory(context);
}
