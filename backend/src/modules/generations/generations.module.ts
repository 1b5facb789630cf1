import { Module, type MiddlewareConsumer, type NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import express from 'express';
import { AuthModule } from '../auth/auth.module';
import { CatalogModule } from '../catalog';
import { FacesModule } from '../faces/faces.module';
import { UploadsModule } from '../uploads/uploads.module';
import { UsersModule } from '../users/users.module';
import { GenerationEventsService } from './generation-events.service';
import { GenerationEventBus } from './generation-lifecycle';
import { GenerationOutcomesService } from './generation-outcomes.service';
import { GenerationPipeline } from './generation-pipeline';
import { GenerationPlanner } from './generation-planner';
import { GenerationPresenter } from './generation-presenter';
import { GenerationStreamService } from './generation-stream.service';
import { GenerationWorkerService } from './generation-worker.service';
import { GenerationEntity } from './generation.entity';
import { GenerationsController } from './generations.controller';
import { GenerationsRepository } from './generations.repository';
import { GenerationsService } from './generations.service';
import { ProviderInputsService } from './provider-inputs.service';
import { ProviderWebhooksController } from './provider-webhooks.controller';
import { ProviderWebhooksService } from './provider-webhooks.service';
import { AiProviderModule } from './providers/ai-provider.module';
import { FfmpegCheck } from './rendering/ffmpeg-check';
import { CustomPoseController } from './safety/custom-pose.controller';
import { SafetyRefusalsRepository } from './safety-refusals.repository';
import { SafetyRefusalsService } from './safety-refusals.service';

/**
 * Generations: the API (start, read, list, events, cancel, delete, download), the provider's
 * webhooks, the queue jobs that drive the AI provider (AI_PROVIDER, all queued by GenerationPipeline),
 * and the events of a generation (generation-lifecycle.ts) that other modules listen to.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([GenerationEntity]),
    AiProviderModule,
    UploadsModule,
    UsersModule,
    CatalogModule,
    AuthModule,
    FacesModule,
  ],
  controllers: [GenerationsController, CustomPoseController, ProviderWebhooksController],
  providers: [
    GenerationsRepository,
    GenerationEventBus,
    GenerationEventsService,
    GenerationPipeline,
    GenerationOutcomesService,
    ProviderInputsService,
    GenerationPlanner,
    GenerationPresenter,
    GenerationsService,
    ProviderWebhooksService,
    SafetyRefusalsRepository,
    SafetyRefusalsService,
    GenerationStreamService,
    GenerationWorkerService,
    FfmpegCheck,
  ],
  exports: [GenerationsService, GenerationEventsService, SafetyRefusalsService, AiProviderModule, GenerationsRepository],
})
export class GenerationsModule implements NestModule {
  /** Webhook bodies that are not JSON (which keeps its raw bytes as rawBody) arrive as raw bytes. */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(express.raw({ type: () => true, limit: '1mb' }))
      .forRoutes({ path: 'webhooks/ai/:provider', method: RequestMethod.POST });
  }
}
