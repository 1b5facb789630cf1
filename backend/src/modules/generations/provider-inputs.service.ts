import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { CatalogService, CUSTOM_POSE } from '../catalog';
import { OUTPUT_SIZE } from './rendering/preview-render';
import type { AppConfig } from '../../config/app-config';
import type { GenerationEntity } from './generation.entity';
import type { AiProvider, ProviderImage, ProviderStartInput } from './providers/ai-provider';

/** How long the links given to a vendor live at least (or SIGNED_URL_TTL_SECONDS if longer): it may queue the job before it reads them. */
export const VENDOR_URL_TTL_SECONDS = 3600;
/** Vendors read raster images: the catalogue's SVG artwork is given to them as a PNG of this size. */
const ARTWORK_PNG = { width: 768, height: 1024 } as const;

export class PhotoMissingError extends Error {
  constructor() {
    super('the photo of the generation no longer exists');
  }
}

/** Builds what the provider's start receives: signed links to the photo and to raster copies of the artwork. */
@Injectable()
export class ProviderInputsService {
  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: CatalogService,
  ) {}

  private get vendorTtl(): number {
    return Math.max(VENDOR_URL_TTL_SECONDS, this.config.storage.signedUrlTtlSeconds);
  }

  async startInput(row: GenerationEntity, provider: AiProvider): Promise<Omit<ProviderStartInput, 'signal'>> {
    const personKey = row.metadata.upload_path;
    if (!(await this.storage.exists(personKey))) throw new PhotoMissingError();
    const sceneId = row.metadata.scene_id;
    return {
      generationId: row.id,
      type: row.type,
      prompt: row.prompt,
      size: OUTPUT_SIZE,
      person: {
        url: await this.storage.signedUrl(personKey, { ttlSeconds: this.vendorTtl }),
        storageKey: personKey,
        contentType: 'image/jpeg',
      },
      garment: await this.garment(row.metadata.outfit_id),
      scene: sceneId === CUSTOM_POSE.id ? undefined : await this.artwork(sceneId),
      templateId: row.metadata.outfit_id,
      sceneId,
      webhookUrl: provider.supportsWebhooks ? `${this.config.appUrl}/api/webhooks/ai/${encodeURIComponent(provider.name)}` : undefined,
    };
  }

  /** `catalog/artwork/<id>-<version>.png`, rendered once from the SVG and kept (it changes only with a new version). */
  private async artwork(id: string): Promise<ProviderImage> {
    const picture = this.catalog.getArtwork(id);
    if (!picture) throw new Error(`no artwork for ${id}`);
    const key = `catalog/artwork/${picture.id}-${picture.version}.png`;
    if (!(await this.storage.exists(key))) {
      const png = await sharp(Buffer.from(picture.svg), { density: (72 * ARTWORK_PNG.width) / 300 })
        .resize(ARTWORK_PNG.width, ARTWORK_PNG.height, { fit: 'cover' })
        .png()
        .toBuffer();
      await this.storage.put(key, png, { contentType: 'image/png' });
    }
    return { url: await this.storage.signedUrl(key, { ttlSeconds: this.vendorTtl }), storageKey: key, contentType: 'image/png' };
  }

  /**
   * The template's garment photo when an admin uploaded one (private, through a signed link), else
   * its artwork. Try-on vendors take a packshot, flat-lay or on-model photo of the garment
   * (https://docs.fashn.ai/guides/tryon-parameters-guide, "Garment Image"); a JPEG served with its
   * Content-Type.
   */
  private async garment(templateId: string): Promise<ProviderImage> {
    const key = this.catalog.garmentPhotoKey(templateId);
    if (!key || !(await this.storage.exists(key))) return this.artwork(templateId);
    return { url: await this.storage.signedUrl(key, { ttlSeconds: this.vendorTtl }), storageKey: key, contentType: 'image/jpeg' };
  }
}
