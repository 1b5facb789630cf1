export * from './ai-provider';
export {
  createAiProvider,
  registerAiProvider,
  registeredAiProviders,
  type AiProviderContext,
  type AiProviderFactory,
} from './provider-factory';
export { PreviewProvider } from './preview.provider';
