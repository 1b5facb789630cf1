import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { ArtworkService, RenderedArtwork } from './artwork.service';
import { findScene, findTemplate } from './catalog';
import { buildCatalogResponse } from './catalog-response';
import { assertCategoryEnabled, assertVideoEnabled, CatalogFeatures, isCategoryEnabled } from './feature-flags';
import type { AppConfig } from '../../config/app-config';
import type { GenerationCategory } from './catalog.types';
import type { CatalogResponseDto } from './dto/catalog-response.dto';
import type { Tier } from './tiers';

/**
 * The catalogue as the rest of the app sees it: the response of GET /api/catalog for a tier, the
 * feature switches, and the checks the generation API runs before it accepts work.
 */
@Injectable()
export class CatalogService {
  readonly features: CatalogFeatures;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly artwork: ArtworkService,
  ) {
    this.features = { ...config.features };
  }

  getCatalog(tier: Tier): CatalogResponseDto {
    return buildCatalogResponse({ tier, features: this.features, thumbnail: (id) => this.artwork.url(id) });
  }

  /** A picture, unless it belongs to a category that is switched off. */
  getArtwork(id: string): RenderedArtwork | undefined {
    const picture = this.artwork.get(id);
    if (!picture || (picture.category && !isCategoryEnabled(picture.category, this.features))) return undefined;
    return picture;
  }

  /** The private storage key of a template's garment photo (what vendors receive), or undefined: use the artwork. */
  garmentPhotoKey(templateId: string): string | undefined {
    return findTemplate(templateId)?.garmentKey ?? undefined;
  }

  /** The private storage key of a scene's reference photo, or undefined: vendors that take a scene get its artwork. */
  sceneReferenceKey(sceneId: string): string | undefined {
    return findScene(sceneId)?.referenceKey ?? undefined;
  }

  /** VALIDATION_ERROR for an unknown category label or one switched off (FEATURE_SPICY=false). */
  assertCategoryEnabled(category: string): asserts category is GenerationCategory {
    assertCategoryEnabled(category, this.features);
  }

  /** VALIDATION_ERROR when FEATURE_VIDEO=false. */
  assertVideoEnabled(): void {
    assertVideoEnabled(this.features);
  }
}
