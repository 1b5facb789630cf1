import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { ArtworkService, RenderedArtwork, thumbnailVersion, uploadedThumbnailUrl } from './artwork.service';
import { catalogScenes, catalogTemplates, findScene, findTemplate } from './catalog';
import { buildCatalogResponse } from './catalog-response';
import { assertCategoryEnabled, assertVideoEnabled, CatalogFeatures, isCategoryEnabled } from './feature-flags';
import type { AppConfig } from '../../config/app-config';
import type { GenerationCategory } from './catalog.types';
import type { CatalogResponseDto } from './dto/catalog-response.dto';
import type { Tier } from './tiers';

/** How GET /api/catalog's answer travels: brotli, gzip or as is. */
export type CatalogEncoding = 'br' | 'gzip' | 'identity';

/** GET /api/catalog's answer as bytes, and its validator (the same for every encoding of one answer). */
export interface EncodedCatalog {
  bytes: Buffer;
  etag: string;
}

/**
 * The catalogue as the rest of the app sees it: the response of GET /api/catalog for a tier, the
 * feature switches, and the checks the generation API runs before it accepts work.
 */
@Injectable()
export class CatalogService {
  readonly features: CatalogFeatures;

  /** Uploaded thumbnails read from storage, one per template (a few dozen kB each; a replaced one is dropped). */
  private readonly thumbnails = new Map<string, { key: string; body: Promise<Buffer> }>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly artwork: ArtworkService,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {
    this.features = { ...config.features };
  }

  getCatalog(tier: Tier): CatalogResponseDto {
    return buildCatalogResponse({ tier, features: this.features, thumbnail: (id) => this.thumbnailUrl(id) });
  }

  /** A template's or scene's thumbnail URL: the template's uploaded thumbnail when an admin set one, else the drawn artwork. */
  thumbnailUrl(id: string): string {
    const key = findTemplate(id)?.thumbnailKey;
    return key ? uploadedThumbnailUrl(id, key) : this.artwork.url(id);
  }

  /** A template's uploaded thumbnail (JPEG) and its version, unless it has none or its category is switched off. */
  async getThumbnailPhoto(id: string): Promise<{ body: Buffer; version: string } | undefined> {
    const template = findTemplate(id);
    if (!template?.thumbnailKey || !isCategoryEnabled(template.category, this.features)) return undefined;
    const key = template.thumbnailKey;
    let kept = this.thumbnails.get(id);
    if (kept?.key !== key) {
      const body = this.storage.get(key).then((o) => o.body);
      kept = { key, body };
      this.thumbnails.set(id, kept);
      body.catch(() => this.thumbnails.delete(id)); // asked again next time
    }
    const body = kept.body;
    return { body: await body, version: thumbnailVersion(key) };
  }

  /**
   * The answer for a tier as JSON bytes in the asked encoding, made once per snapshot of the
   * catalogue: it is the same for every caller of a tier until an admin changes the catalogue, and
   * building, serialising and compressing it cost far more than the rest of the request.
   */
  encodedCatalog(tier: Tier, encoding: CatalogEncoding): EncodedCatalog {
    const templates = catalogTemplates();
    const scenes = catalogScenes();
    if (this.encoded?.templates !== templates || this.encoded.scenes !== scenes) this.encoded = { templates, scenes, bodies: new Map() };
    const key = `${tier}:${encoding}`;
    let body = this.encoded.bodies.get(key);
    if (!body) {
      const json = Buffer.from(JSON.stringify(this.getCatalog(tier)));
      const bytes =
        encoding === 'br'
          ? brotliCompressSync(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: json.length } })
          : encoding === 'gzip'
            ? gzipSync(json, { level: 9 })
            : json;
      body = { bytes, etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
      this.encoded.bodies.set(key, body);
    }
    return body;
  }

  private encoded?: { templates: unknown; scenes: unknown; bodies: Map<string, EncodedCatalog> };

  /** A picture, unless it belongs to a category that is switched off. */
  getArtwork(id: string): RenderedArtwork | undefined {
    const picture = this.artwork.get(id);
    if (!picture || (picture.category && !isCategoryEnabled(picture.category, this.features))) return undefined;
    return picture;
  }

  /** A drawn picture as WebP (the landing page's pictures), with its version; undefined like getArtwork. */
  async getArtworkWebp(id: string): Promise<{ body: Buffer; version: string } | undefined> {
    const picture = this.getArtwork(id);
    return picture ? { body: await this.artwork.webp(picture), version: picture.version } : undefined;
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
