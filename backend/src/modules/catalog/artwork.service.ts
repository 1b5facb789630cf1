import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { artworkEntries } from './artwork/artwork-registry';
import type { CategoryId } from './catalog.types';

export interface RenderedArtwork {
  id: string;
  category: CategoryId | null;
  svg: string;
  /** content hash: goes into the URL (?v=) so a changed picture gets a new URL */
  version: string;
}

export const ARTWORK_URL_PREFIX = '/api/catalog/artwork';

/**
 * Renders every catalogue picture once (the SVG text is deterministic) and keeps the strings in
 * memory: about 110 pictures of a few kB each.
 */
@Injectable()
export class ArtworkService {
  private readonly pictures = new Map<string, RenderedArtwork>();

  constructor() {
    for (const entry of artworkEntries()) {
      const svg = entry.render();
      const version = createHash('sha256').update(svg).digest('hex').slice(0, 12);
      this.pictures.set(entry.id, { id: entry.id, category: entry.category, svg, version });
    }
  }

  get(id: string): RenderedArtwork | undefined {
    return this.pictures.get(id);
  }

  /** `/api/catalog/artwork/<id>.svg?v=<content hash>` */
  url(id: string): string {
    const picture = this.pictures.get(id);
    if (!picture) throw new Error(`No artwork for ${id}`);
    return `${ARTWORK_URL_PREFIX}/${encodeURIComponent(id)}.svg?v=${picture.version}`;
  }

  ids(): string[] {
    return [...this.pictures.keys()];
  }
}
