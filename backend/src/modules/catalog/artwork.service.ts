import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { ArtworkEntry, artworkEntries } from './artwork/artwork-registry';
import { catalogScenes, catalogTemplates } from './catalog';
import type { CategoryId } from './catalog.types';

export interface RenderedArtwork {
  id: string;
  category: CategoryId | null;
  svg: string;
  /** content hash: goes into the URL (?v=) so a changed picture gets a new URL */
  version: string;
}

export const ARTWORK_URL_PREFIX = '/api/catalog/artwork';

/** An uploaded thumbnail is stored as a JPEG fitted inside this box (the catalogue shows 3:4 cards). */
export const THUMBNAIL_PHOTO_BOX = { width: 600, height: 800 } as const;

/** The size of a drawn picture's WebP rendition (its drawing is 300x400). */
export const ARTWORK_RASTER_BOX = { width: 600, height: 800 } as const;

/** The version of an uploaded thumbnail in its URL: each upload has a new storage key, so a new version. */
export function thumbnailVersion(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** `/api/catalog/artwork/<id>.jpg?v=<version>`: a template's uploaded thumbnail. */
export function uploadedThumbnailUrl(id: string, key: string): string {
  return `${ARTWORK_URL_PREFIX}/${encodeURIComponent(id)}.jpg?v=${thumbnailVersion(key)}`;
}

/**
 * The catalogue's pictures, drawn from the live snapshot: a picture is rendered once per set of
 * inputs (id, name, artwork parameters) and kept in memory, so an admin's rename draws a new
 * picture with a new URL. About 110 pictures of a few kB each.
 */
@Injectable()
export class ArtworkService {
  private readonly pictures = new Map<string, { inputs: string; picture: RenderedArtwork }>();
  private readonly rasters = new Map<string, { version: string; webp: Promise<Buffer> }>();
  private entries: { templates: unknown; scenes: unknown; byId: Map<string, ArtworkEntry> } | undefined;

  /** The entries of the current snapshot, listed again only when the snapshot changed. */
  private entry(id: string): ArtworkEntry | undefined {
    const templates = catalogTemplates();
    const scenes = catalogScenes();
    if (this.entries?.templates !== templates || this.entries.scenes !== scenes) {
      this.entries = { templates, scenes, byId: new Map(artworkEntries().map((e) => [e.id, e])) };
    }
    return this.entries.byId.get(id);
  }

  get(id: string): RenderedArtwork | undefined {
    const entry = this.entry(id);
    if (!entry) return undefined;
    const kept = this.pictures.get(id);
    if (kept?.inputs === entry.inputs) return kept.picture;
    const svg = entry.render();
    const version = createHash('sha256').update(svg).digest('hex').slice(0, 12);
    const picture = { id: entry.id, category: entry.category, svg, version };
    this.pictures.set(id, { inputs: entry.inputs, picture });
    return picture;
  }

  /**
   * The picture as a WebP of 600x800 (twice its drawing), made once per version. The landing page
   * shows these: a browser decodes a WebP off its main thread, but builds each SVG picture as a
   * document on it (about 10 ms a picture on a phone, most of the page's Total Blocking Time).
   */
  webp(picture: RenderedArtwork): Promise<Buffer> {
    const kept = this.rasters.get(picture.id);
    if (kept?.version === picture.version) return kept.webp;
    const webp = sharp(Buffer.from(picture.svg), { density: 144 })
      .resize(ARTWORK_RASTER_BOX.width, ARTWORK_RASTER_BOX.height, { fit: 'fill' })
      .webp({ quality: 70 })
      .toBuffer();
    this.rasters.set(picture.id, { version: picture.version, webp });
    webp.catch(() => this.rasters.delete(picture.id)); // the next request tries again
    return webp;
  }

  /** `/api/catalog/artwork/<id>.svg?v=<content hash>` */
  url(id: string): string {
    const picture = this.get(id);
    if (!picture) throw new Error(`No artwork for ${id}`);
    return `${ARTWORK_URL_PREFIX}/${encodeURIComponent(id)}.svg?v=${picture.version}`;
  }

  ids(): string[] {
    return artworkEntries().map((e) => e.id);
  }
}
