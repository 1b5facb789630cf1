import { isIP } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import sharp from 'sharp';
import { jpegOutput } from '../../common/images/jpeg-output';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { CatalogService, CUSTOM_POSE } from '../catalog';
import { GenerationLifecycle, type GenerationCompletedEvent, type GenerationFailedEvent } from './generation-lifecycle';
import { AI_PROVIDER, type AiProvider, type ProviderImage, type ProviderInputSpec, type ProviderStartInput } from './providers/ai-provider';
import { OUTPUT_SIZE } from './rendering/preview-render';
import type { AppConfig } from '../../config/app-config';
import type { GenerationEntity } from './generation.entity';

/** How long the links given to a vendor live at least (or SIGNED_URL_TTL_SECONDS if longer): it may queue the job before it reads them. */
export const VENDOR_URL_TTL_SECONDS = 3600;
/** Vendors read raster images: the catalogue's SVG artwork is rendered at this size, then fitted like a photo. */
const ARTWORK_SIZE = { width: 768, height: 1024 } as const;
/** JPEG quality of what vendors receive (FASHN advises about 95; 90 keeps a 2000 px photo near 1 MB, far under every limit). */
export const INPUT_JPEG_QUALITY = 90;
/** A key never stored: its signed link tells where our links point (APP_URL's host, or the S3 endpoint). */
const REACHABILITY_PROBE = 'catalog/reachability-probe';
/** Decoding limit of the pictures fitted here (the upload's limit: they were accepted under it). */
const MAX_INPUT_PIXELS = 40_000_000;

export class PhotoMissingError extends Error {
  constructor() {
    super('the photo of the generation no longer exists');
  }
}

/** Where the copies made for one generation's vendor are kept until the generation ends (under the user's prefix). */
export function providerInputsPrefix(userId: string, generationId: string): string {
  return `users/${userId}/provider-inputs/${generationId}/`;
}

/**
 * The size a picture of `width` x `height` is sent at: scaled down until the longer side is at most
 * `maxSide`, or up until the shorter side is `minSide` (a photo uploaded before a vendor with a
 * higher minimum was configured) as far as `maxSide` allows. Never more than `maxSide`.
 */
export function fittedSize(
  width: number,
  height: number,
  spec: Pick<ProviderInputSpec, 'minSide' | 'maxSide'>,
): { width: number; height: number } {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  let scale = Math.min(1, spec.maxSide / long);
  if (short * scale < spec.minSide) scale = Math.min(spec.minSide / short, spec.maxSide / long);
  const side = (n: number) => Math.min(spec.maxSide, Math.max(1, Math.round(n * scale)));
  return { width: side(width), height: side(height) };
}

/** What a vendor is sent: JPEG (opaque by nature), upright (no orientation left to apply), each side within the spec. */
export async function fitsAsIs(bytes: Buffer, spec: ProviderInputSpec): Promise<boolean> {
  return (await asIsSize(bytes, spec)) !== null;
}

/** The size of a picture that can be sent as it is (see fitsAsIs); null when it needs a derived copy. */
export async function asIsSize(bytes: Buffer, spec: ProviderInputSpec): Promise<{ width: number; height: number } | null> {
  const m = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (m.format !== 'jpeg' || !m.width || !m.height || (m.orientation ?? 1) !== 1) return null;
  const size = fittedSize(m.width, m.height, spec);
  return size.width === m.width && size.height === m.height ? size : null;
}

/**
 * A derived copy of `bytes` (any image sharp reads) that `spec` accepts: turned upright by its EXIF
 * orientation, alpha flattened onto white (Wan refuses PNGs with an alpha channel), fitted with
 * `fittedSize`, sRGB JPEG without metadata. The original is not touched.
 */
export async function prepareInputImage(bytes: Buffer, spec: ProviderInputSpec): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const m = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (!m.width || !m.height) throw new Error('the input image has no size');
  const upright = (m.orientation ?? 1) >= 5 ? { width: m.height, height: m.width } : { width: m.width, height: m.height };
  const size = fittedSize(upright.width, upright.height, spec);
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .rotate()
    .resize(size.width, size.height, { fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg(jpegOutput(INPUT_JPEG_QUALITY))
    .toBuffer({ resolveWithObject: true });
  return { jpeg: data, width: info.width, height: info.height };
}

export function jpegDataUri(jpeg: Buffer): string {
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/**
 * Whether a vendor on the internet can fetch `url`: false for loopback, private, link-local,
 * carrier-grade NAT and unique-local addresses, `localhost`, names under .localhost, .local,
 * .internal, .lan, .home.arpa, and single-label names (a docker compose service such as `api`).
 */
export function isPubliclyReachable(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return false;
  }
  if (!host) return false;
  // an IPv4-mapped IPv6 address (URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1) is judged as its IPv4 address
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    host = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const ip = isIP(host);
  if (ip === 4) {
    const [a, b] = host.split('.').map(Number);
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  if (ip === 6) return !(host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host));
  if (!host.includes('.')) return false;
  return !/(^|\.)(localhost|local|internal|lan|home\.arpa)$/.test(host);
}

/**
 * Builds what the provider's start receives. Every input image is an opaque JPEG within the
 * provider's `inputSpec` for the generation's type: the person photo as stored when it already fits
 * (our stored copy is a clean JPEG of at most 2048 px), else a derived copy; the outfit and scene
 * artwork rendered from the catalogue's SVG and fitted the same way.
 *
 * How they travel (PROVIDER_INPUTS, default auto): as signed links the vendor fetches, or, when our
 * file links are not reachable from the internet (a laptop, a private network) and the vendor takes
 * base64, inline as `data:image/jpeg;base64,...` (nothing is then fetched from us).
 *
 * Derived copies of a person photo sent as links are kept under
 * `users/<user>/provider-inputs/<generation>/` and deleted when the generation ends: completed, or
 * failed however it failed (the vendor's failure or refusal, a cancel, the deadline, a start that
 * failed: each ends through generation.failed), and with the account. The artwork copies are not personal: `catalog/artwork/<id>-<version>-<w>x<h>.jpg`,
 * made once and kept.
 */
@Injectable()
export class ProviderInputsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('ProviderInputs');
  private publicFiles?: Promise<boolean>;

  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
    private readonly catalog: CatalogService,
  ) {}

  private get vendorTtl(): number {
    return Math.max(VENDOR_URL_TTL_SECONDS, this.config.storage.signedUrlTtlSeconds);
  }

  private get mode(): 'auto' | 'url' | 'inline' {
    return this.config.ai?.inputs ?? 'auto';
  }

  /** Says once, at boot, how input images will reach a real vendor, and warns when it cannot fetch them. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.provider.generatesWithAi) return; // the preview renderer reads our storage
    try {
      if (await this.filesArePublic()) return;
      const origin = new URL(await this.storage.signedUrl(REACHABILITY_PROBE, { ttlSeconds: 60 })).origin;
      const byLink = (['image', 'video'] as const).filter((t) => !this.sendsInline(this.provider.inputSpec(t), false));
      const couldInline = this.mode === 'url' && byLink.some((t) => this.provider.inputSpec(t).acceptsDataUri);
      if (byLink.length > 0) {
        this.logger.warn(
          `AI_PROVIDER=${this.provider.name} fetches ${byLink.join(' and ')} inputs from our file links, but ${origin} is not ` +
            `reachable from the internet: set APP_URL to a public HTTPS address (or store files in S3)` +
            (couldInline ? ', or PROVIDER_INPUTS=auto to send them inline' : ''),
        );
      } else {
        this.logger.log(`${origin} is not reachable from the internet: input images are sent to ${this.provider.name} inline (data URIs)`);
      }
    } catch (error) {
      this.logger.warn(`Could not tell whether our file links are public: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async startInput(row: GenerationEntity, provider: AiProvider): Promise<Omit<ProviderStartInput, 'signal'>> {
    const spec = provider.inputSpec(row.type);
    const inline = this.sendsInline(spec, await this.filesArePublic());
    const sceneId = row.metadata.scene_id;
    return {
      generationId: row.id,
      type: row.type,
      prompt: row.prompt,
      size: OUTPUT_SIZE,
      person: await this.person(row, spec, inline),
      garment: await this.garment(row, spec, inline),
      scene: sceneId === CUSTOM_POSE.id ? undefined : await this.scene(row, sceneId, spec, inline),
      templateId: row.metadata.outfit_id,
      sceneId,
      webhookUrl: provider.supportsWebhooks ? `${this.config.appUrl}/api/webhooks/ai/${encodeURIComponent(provider.name)}` : undefined,
    };
  }

  /** A generation ended: the copies made for its vendor go. Never throws. */
  @OnEvent(GenerationLifecycle.completed)
  async onCompleted(event: GenerationCompletedEvent): Promise<void> {
    await this.forget(event.userId, event.generationId);
  }

  @OnEvent(GenerationLifecycle.failed)
  async onFailed(event: GenerationFailedEvent): Promise<void> {
    await this.forget(event.userId, event.generationId);
  }

  /** Deletes the copies made for a generation's vendor. Never throws. */
  async forget(userId: string, generationId: string): Promise<void> {
    await this.storage
      .deletePrefix(providerInputsPrefix(userId, generationId))
      .catch((error: unknown) =>
        this.logger.warn(
          `Could not delete the vendor copies of generation ${generationId}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }

  private sendsInline(spec: ProviderInputSpec, filesArePublic: boolean): boolean {
    if (!spec.acceptsDataUri || this.mode === 'url') return false;
    return this.mode === 'inline' || !filesArePublic;
  }

  /** Whether the links storage signs (APP_URL's, or the S3 endpoint's) can be fetched from the internet. */
  private filesArePublic(): Promise<boolean> {
    this.publicFiles ??= this.storage
      .signedUrl(REACHABILITY_PROBE, { ttlSeconds: 60 })
      .then(isPubliclyReachable)
      .catch((error: unknown) => {
        this.publicFiles = undefined; // asked again next time
        throw error;
      });
    return this.publicFiles;
  }

  private async person(row: GenerationEntity, spec: ProviderInputSpec, inline: boolean): Promise<ProviderImage> {
    const key = row.metadata.upload_path;
    if (!(await this.storage.exists(key))) throw new PhotoMissingError();
    return this.photo(key, `${providerInputsPrefix(row.userId, row.id)}person.jpg`, spec, inline);
  }

  /**
   * A stored photo as the vendor takes it: as is when it fits, else a derived copy (kept at `derivedKey`
   * when sent as a link), with the size it is sent at (models that frame a video read its ratio).
   */
  private async photo(key: string, derivedKey: string, spec: ProviderInputSpec, inline: boolean): Promise<ProviderImage> {
    const photo = (await this.storage.get(key)).body;
    const asIs = await asIsSize(photo, spec);
    if (inline) {
      const sent = asIs ? { jpeg: photo, ...asIs } : await prepareInputImage(photo, spec);
      return { url: jpegDataUri(sent.jpeg), storageKey: key, contentType: 'image/jpeg', width: sent.width, height: sent.height };
    }
    if (asIs) return { ...(await this.linked(key)), ...asIs };
    const derived = await prepareInputImage(photo, spec);
    await this.storage.put(derivedKey, derived.jpeg, { contentType: 'image/jpeg' });
    return { ...(await this.linked(derivedKey)), width: derived.width, height: derived.height };
  }

  /** The artwork of a template or scene as a JPEG that fits `spec`, rendered once and kept. */
  private async artwork(id: string, spec: ProviderInputSpec, inline: boolean): Promise<ProviderImage> {
    const picture = this.catalog.getArtwork(id);
    if (!picture) throw new Error(`no artwork for ${id}`);
    const size = fittedSize(ARTWORK_SIZE.width, ARTWORK_SIZE.height, spec);
    const key = `catalog/artwork/${picture.id}-${picture.version}-${size.width}x${size.height}.jpg`;
    let jpeg: Buffer | undefined;
    if (!(await this.storage.exists(key))) {
      // the SVGs are drawn on a 300-wide canvas: render at the density that makes them ARTWORK_SIZE
      const png = await sharp(Buffer.from(picture.svg), { density: (72 * ARTWORK_SIZE.width) / 300 })
        .resize(ARTWORK_SIZE.width, ARTWORK_SIZE.height, { fit: 'cover' })
        .png()
        .toBuffer();
      jpeg = (await prepareInputImage(png, spec)).jpeg;
      await this.storage.put(key, jpeg, { contentType: 'image/jpeg' });
    }
    if (!inline) return { ...(await this.linked(key)), ...size };
    jpeg ??= (await this.storage.get(key)).body;
    return { url: jpegDataUri(jpeg), storageKey: key, contentType: 'image/jpeg', ...size };
  }

  private async linked(key: string): Promise<ProviderImage> {
    return { url: await this.storage.signedUrl(key, { ttlSeconds: this.vendorTtl }), storageKey: key, contentType: 'image/jpeg' };
  }

  /**
   * The template's garment photo when an admin uploaded one (private; fitted to the vendor like the
   * person photo), else its artwork. Try-on vendors take a packshot, flat-lay or on-model photo of the
   * garment (https://docs.fashn.ai/guides/tryon-parameters-guide, "Garment Image").
   */
  private async garment(row: GenerationEntity, spec: ProviderInputSpec, inline: boolean): Promise<ProviderImage> {
    const templateId = row.metadata.outfit_id;
    const key = this.catalog.garmentPhotoKey(templateId);
    if (!key || !(await this.storage.exists(key))) return this.artwork(templateId, spec, inline);
    return this.photo(key, `${providerInputsPrefix(row.userId, row.id)}garment.jpg`, spec, inline);
  }

  /**
   * The scene's reference photo when an admin uploaded one (private; fitted like the person photo),
   * else its artwork. Of the vendors, only DashScope's Wan image editing takes a scene image (image 3
   * with the prompt); FASHN, fal's try-on models and every video model take none and never receive it.
   */
  private async scene(row: GenerationEntity, sceneId: string, spec: ProviderInputSpec, inline: boolean): Promise<ProviderImage> {
    const key = this.catalog.sceneReferenceKey(sceneId);
    if (!key || !(await this.storage.exists(key))) return this.artwork(sceneId, spec, inline);
    return this.photo(key, `${providerInputsPrefix(row.userId, row.id)}scene.jpg`, spec, inline);
  }
}
