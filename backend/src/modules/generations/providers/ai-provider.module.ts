import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../../../config/config.module';
import { STORAGE, type StoragePort } from '../../../storage';
import { CatalogModule, CatalogService } from '../../catalog';
import { AI_PROVIDER } from './ai-provider';
import { createAiProvider } from './provider-factory';
import type { AppConfig } from '../../../config/app-config';

/**
 * The configured AI provider (AI_PROVIDER), one instance per process. Generations drive it; uploads
 * read its input spec (a photo smaller than the vendor's minimum is refused at upload).
 */
@Module({
  imports: [CatalogModule],
  providers: [
    {
      provide: AI_PROVIDER,
      inject: [APP_CONFIG, STORAGE, CatalogService],
      useFactory: (config: AppConfig, storage: StoragePort, catalog: CatalogService) =>
        createAiProvider({ config, storage, artworkSvg: (id) => catalog.getArtwork(id)?.svg }),
    },
  ],
  exports: [AI_PROVIDER],
})
export class AiProviderModule {}
