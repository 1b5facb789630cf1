export { GenerationsModule } from './generations.module';
export { GenerationsService } from './generations.service';
export { downloadPrefix } from './generation-presenter';
export { GenerationEntity, GenerationStatus, GenerationStage } from './generation.entity';
export { GENERATION_MESSAGES, PROGRESS_MESSAGES } from './generation-progress';
export { aiModeBanner, aiModeOf, type AiMode } from './ai-mode';
export { AI_PROVIDER, type AiProvider } from './providers/ai-provider';
