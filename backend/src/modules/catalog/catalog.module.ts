import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PhotoIntakeModule } from '../uploads/photo-intake.service';
import { CatalogAdminController } from './admin/catalog-admin.controller';
import { CatalogAdminService } from './admin/catalog-admin.service';
import { ArtworkService } from './artwork.service';
import { CatalogController } from './catalog.controller';
import { CatalogService } from './catalog.service';
import { CatalogSceneEntity, CatalogTemplateEntity, CatalogVersionEntity } from './store/catalog.entities';
import { CatalogRepository } from './store/catalog.repository';
import { CatalogStore } from './store/catalog.store';

/**
 * The catalogue: categories, templates, scenes, plans, packs, entitlements and the cost rule, read
 * by the server and by both UIs through GET /api/catalog, plus the thumbnails it links to.
 * Templates and scenes live in PostgreSQL (seeded from data/), kept in memory by CatalogStore and
 * managed by admins through /api/admin/templates and /api/admin/scenes.
 */
@Module({
  imports: [TypeOrmModule.forFeature([CatalogTemplateEntity, CatalogSceneEntity, CatalogVersionEntity]), PhotoIntakeModule],
  controllers: [CatalogController, CatalogAdminController],
  providers: [ArtworkService, CatalogService, CatalogRepository, CatalogStore, CatalogAdminService],
  exports: [CatalogService, CatalogStore],
})
export class CatalogModule {}
