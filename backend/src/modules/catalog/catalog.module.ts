import { Module } from '@nestjs/common';
import { ArtworkService } from './artwork.service';
import { CatalogController } from './catalog.controller';
import { CatalogService } from './catalog.service';

/**
 * The catalogue: categories, templates, scenes, plans, packs, entitlements and the cost rule, read
 * by the server and by both UIs through GET /api/catalog, plus the thumbnails it links to.
 */
@Module({
  controllers: [CatalogController],
  providers: [ArtworkService, CatalogService],
  exports: [CatalogService],
})
export class CatalogModule {}
