export { GenerationsModule } from './generations.module';
export { GenerationsService, downloadPrefix } from './generations.service';
export { GenerationEntity, GenerationStatus, GenerationStage } from './generation.entity';
export { GENERATION_MESSAGES, PROGRESS_MESSAGES } from './generation-progress';
