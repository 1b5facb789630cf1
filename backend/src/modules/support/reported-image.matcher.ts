import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { IMAGE_WORK_GATE, type WorkGate } from '../../common/concurrency';
import { ValidationError } from '../../common/errors';
import { GenerationsRepository } from '../generations/generations.repository';
import { generationIdFromXmp } from '../generations/rendering/ai-metadata';
import { perceptualHash, SAME_PICTURE_MAX_DISTANCE } from '../generations/rendering/perceptual-hash';
import { inspectPhoto, PhotoRejectedError } from '../uploads/image-intake';

export type ImageMatch = 'id' | 'link' | 'metadata' | 'hash' | 'none';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Our result links: a signed file link (`.../results/<id>.jpg`) or the download route (`/generations/<id>`). */
const LINKED_ID = [new RegExp(`/results/(${UUID})\\.(?:jpg|mp4)`, 'i'), new RegExp(`/generations/(${UUID})(?:[/?#]|$)`, 'i')];

/**
 * Finds the generation a report of an image is about, from what a victim may have: a link to it,
 * or only a copy that was shared elsewhere. A copy is matched by the generation id in its metadata
 * when that survived, else by its picture (perceptual hash, SAME_PICTURE_MAX_DISTANCE bits). The
 * copy is read in memory and never stored.
 */
@Injectable()
export class ReportedImageMatcher {
  constructor(
    private readonly generations: GenerationsRepository,
    @Inject(IMAGE_WORK_GATE) private readonly imageWork: WorkGate,
  ) {}

  async match(input: { link?: string; image?: Buffer }): Promise<{ generationId: string | null; method: ImageMatch }> {
    if (input.link) {
      const id = LINKED_ID.map((re) => re.exec(input.link!)?.[1]).find(Boolean);
      if (id && (await this.exists(id))) return { generationId: id.toLowerCase(), method: 'link' };
    }
    if (input.image) {
      const image = input.image;
      try {
        await inspectPhoto(image); // format by its bytes, dimensions, bytes per pixel: nothing decoded yet
      } catch (error) {
        if (error instanceof PhotoRejectedError) throw new ValidationError(error.message);
        throw error;
      }
      const { xmp, hash } = await this.imageWork.run(async () => {
        const meta = await sharp(image).metadata();
        return { xmp: meta.xmp, hash: await perceptualHash(image) };
      });
      const fromMetadata = xmp ? generationIdFromXmp(xmp.toString('utf8')) : null;
      if (fromMetadata && (await this.exists(fromMetadata))) return { generationId: fromMetadata, method: 'metadata' };
      const nearest = await this.generations.nearestByPhash(hash);
      if (nearest && nearest.distance <= SAME_PICTURE_MAX_DISTANCE) return { generationId: nearest.id, method: 'hash' };
    }
    return { generationId: null, method: 'none' };
  }

  private exists(id: string): Promise<boolean> {
    return this.generations.existsById(id);
  }
}
