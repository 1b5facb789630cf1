import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import sharp from 'sharp';
import { IMAGE_WORK_GATE, type WorkGate } from '../../common/concurrency';
import { ValidationError } from '../../common/errors';
import { GenerationsRepository } from '../generations/generations.repository';
import { generationIdFromXmp } from '../generations/rendering/ai-metadata';
import { perceptualHash, SAME_PICTURE_MAX_DISTANCE } from '../generations/rendering/perceptual-hash';
import {
  compareSignature,
  readSignature,
  reportProbe,
  SIGNATURE_VERSION,
  type ReportProbe,
  type SignatureMatch,
} from '../generations/rendering/result-signature';
import { cleanCopy, inspectPhoto, PhotoRejectedError, type InspectedPhoto } from '../uploads/image-intake';
import type { ImageCandidate, ImageMatch } from './support.entities';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Our result links: a signed file link (`.../results/<id>.jpg`) or the download route (`/generations/<id>`). */
const LINKED_ID = [new RegExp(`/results/(${UUID})\\.(?:jpg|mp4)`, 'i'), new RegExp(`/generations/(${UUID})(?:[/?#]|$)`, 'i')];

/**
 * When a copy's picture names one result by itself, and which results it is offered among
 * otherwise. Measured by `npm run bench:takedown` (docs/safety.md, "How the takedown matching
 * decides"): preview results of one template and scene made from different photos, copies cropped,
 * turned, framed, screenshotted and recompressed.
 */
export const MATCH_RULE = {
  /**
   * a result is a candidate only with this many of its corners found in place (the fewest that fix a
   * similarity and check it: the grid that follows is the real test; a flat picture has few corners),
   */
  minInliers: 4,
  /** this share of it inside the copy, */
  minCoverage: 0.2,
  /** and this share of its grid agreeing with the copy */
  minAgreement: 0.6,
  /**
   * the best candidate is taken without asking only when at most this share of its grid disagrees
   * (a copy of a result: at most 2.0% measured, 0.3-1.3% but for crops by a fifth; another person's
   * look-alike photographed at the same place: 3.1% at the least),
   */
  autoMaxDisagreement: 0.015,
  /** the copy shows at least this share of it, */
  autoMinCoverage: 0.3,
  /** and every other result disagrees on at least this much more of the picture (the margin) */
  margin: 0.03,
} as const;

/** Candidates kept on a ticket, best first. */
export const REPORT_CANDIDATES = 5;
/** Signatures read from the database at a time; between pages the process answers other requests. */
const SIGNATURE_PAGE = 500;

/** A result compared with the copy. */
export interface ScoredResult extends SignatureMatch {
  generationId: string;
}

/** What a report's link or copy found. */
export interface ReportMatch {
  /** the generation the report names, when it names one by itself */
  generationId: string | null;
  method: ImageMatch | null;
  /** the results the copy looks like, best first (empty without a copy) */
  candidates: ImageCandidate[];
  /** the copy to keep: re-encoded JPEG, no metadata (absent without a copy) */
  copy?: Buffer;
}

const round = (v: number, digits = 3) => Number(v.toFixed(digits));

function asCandidate(r: ScoredResult): ImageCandidate {
  return {
    generation_id: r.generationId,
    score: Math.round(r.agreement * 100),
    agreement: round(r.agreement),
    coverage: round(r.coverage),
    inliers: r.inliers,
    hash_distance: null,
  };
}

/**
 * The rule, on every result compared with the copy (anyone's): the candidates are the results with
 * enough corners in place, enough of them inside the copy and most of their picture agreeing, best
 * agreement first; the best is taken without asking only when its picture agrees almost everywhere
 * and every other result disagrees clearly more (MATCH_RULE). Otherwise an admin chooses.
 */
export function decideMatch(scored: ScoredResult[]): { best: ScoredResult | null; candidates: ScoredResult[] } {
  const rule = MATCH_RULE;
  const likeness = (r: ScoredResult) => r.inliers >= rule.minInliers || r.aligned === 'frame';
  const ranked = scored
    .filter((r) => likeness(r) && r.coverage >= rule.minCoverage && r.agreement >= rule.minAgreement)
    .sort((a, b) => b.agreement - a.agreement || b.inliers - a.inliers || (a.generationId < b.generationId ? -1 : 1));
  const first = ranked[0];
  const clear =
    first !== undefined &&
    1 - first.agreement <= rule.autoMaxDisagreement &&
    first.coverage >= rule.autoMinCoverage &&
    // the runner-up among every result with as many corners in place, whatever it shows of itself (a collage of two results asks)
    scored.every((r) => r === first || !likeness(r) || 1 - r.agreement >= 1 - first.agreement + rule.margin);
  return { best: clear ? first : null, candidates: ranked.slice(0, REPORT_CANDIDATES) };
}

/**
 * Finds the generation a report of an image is about, from what a victim may have: a link to it,
 * or only a copy that was shared elsewhere. A copy is matched by the generation id in its metadata
 * when that survived, else by its picture against every stored result's signature
 * (result-signature.ts), which takes one without asking only when it is unambiguous (decideMatch);
 * otherwise the ticket lists the candidates for an admin. The copy itself comes back re-encoded
 * without metadata, for the ticket to keep.
 */
@Injectable()
export class ReportedImageMatcher {
  constructor(
    private readonly generations: GenerationsRepository,
    @Inject(IMAGE_WORK_GATE) private readonly imageWork: WorkGate,
  ) {}

  async match(input: { link?: string; image?: Buffer }): Promise<ReportMatch> {
    const linked = input.link ? LINKED_ID.map((re) => re.exec(input.link!)?.[1]).find(Boolean) : undefined;
    const byLink = linked && (await this.exists(linked)) ? linked.toLowerCase() : null;
    if (!input.image) return { generationId: byLink, method: byLink ? 'link' : input.link ? 'none' : null, candidates: [] };
    const image = input.image;
    const inspected = await this.inspect(image);
    return this.imageWork.run(async () => {
      const copy = await this.cleanCopy(image, inspected);
      if (byLink) return { generationId: byLink, method: 'link', candidates: [], copy };
      const xmp = (await sharp(image).metadata()).xmp;
      const fromMetadata = xmp ? generationIdFromXmp(xmp.toString('utf8')) : null;
      if (fromMetadata && (await this.exists(fromMetadata)))
        return { generationId: fromMetadata, method: 'metadata', candidates: [], copy };
      const { best, candidates } = decideMatch(await this.compareWithEveryResult(await reportProbe(image)));
      const older = await this.olderResults(image, REPORT_CANDIDATES - candidates.length);
      const listed = [...candidates.map(asCandidate), ...older];
      if (best) return { generationId: best.generationId, method: 'hash', candidates: listed, copy };
      return { generationId: null, method: listed.length ? 'candidates' : 'none', candidates: listed, copy };
    });
  }

  /** A copy to keep on a report that names its generation itself (nothing matched); nothing without a copy. */
  async keepable(image?: Buffer): Promise<ReportMatch> {
    if (!image) return { generationId: null, method: null, candidates: [] };
    const inspected = await this.inspect(image);
    return { generationId: null, method: null, candidates: [], copy: await this.imageWork.run(() => this.cleanCopy(image, inspected)) };
  }

  /** The copy compared with every stored signature, page by page; only results it could be aligned with come back. */
  async compareWithEveryResult(probe: ReportProbe): Promise<ScoredResult[]> {
    const scored: ScoredResult[] = [];
    let after: string | null = null;
    for (;;) {
      const page = await this.generations.resultSignaturesPage(after, SIGNATURE_PAGE, SIGNATURE_VERSION);
      for (const row of page) {
        const signature = readSignature(row.signature);
        if (!signature) continue;
        const match = compareSignature(probe, signature);
        if (match.agreement > 0) scored.push({ generationId: row.id, ...match });
      }
      if (page.length < SIGNATURE_PAGE) return scored;
      after = page[page.length - 1].id;
      await yieldToEvents(); // the comparing is plain JavaScript: let the process answer others between pages
    }
  }

  /**
   * Results the signature sweep has not reached yet, found by the older 64-bit hash (at most
   * SAME_PICTURE_MAX_DISTANCE bits apart): offered as candidates, never taken without asking.
   */
  private async olderResults(image: Buffer, room: number): Promise<ImageCandidate[]> {
    if (room <= 0) return [];
    const rows = await this.generations.nearestByPhashWithoutSignature(
      await perceptualHash(image),
      SIGNATURE_VERSION,
      SAME_PICTURE_MAX_DISTANCE,
      room,
    );
    return rows.map((r) => ({
      generation_id: r.id,
      score: Math.round((1 - r.distance / 64) * 100),
      agreement: null,
      coverage: null,
      inliers: null,
      hash_distance: r.distance,
    }));
  }

  /** The cheap checks (format by its bytes, dimensions, bytes per pixel): nothing decoded yet. */
  private async inspect(image: Buffer): Promise<InspectedPhoto> {
    try {
      return await inspectPhoto(image);
    } catch (error) {
      if (error instanceof PhotoRejectedError) throw new ValidationError(error.message);
      throw error;
    }
  }

  private async cleanCopy(image: Buffer, inspected: InspectedPhoto): Promise<Buffer> {
    try {
      return (await cleanCopy(image, inspected)).jpeg;
    } catch (error) {
      if (error instanceof PhotoRejectedError) throw new ValidationError(error.message);
      throw error;
    }
  }

  private exists(id: string): Promise<boolean> {
    return this.generations.existsById(id);
  }
}
