import { Inject, Injectable, Logger } from '@nestjs/common';
import { firstFrame } from '../generations/rendering/ffmpeg';
import { FACE_ENGINE, FaceChecksService } from './face-checks.service';
import { nearest } from './face-geometry';
import { FACE_RULES } from './face-rules';
import { FacesRepository } from './faces.repository';
import type { FaceEngine } from './engine/face-engine';

/** How many tries a generation gets when its result does not look like the person: the first, and one more. */
export const LIKENESS_TRIES = 2;

/** What the likeness guard decided about one result. */
export type LikenessVerdict =
  { outcome: 'passed' | 'no_face' | 'unchecked'; distance: number | null } | { outcome: 'retry' | 'failed'; distance: number };

/**
 * The likeness guard (docs/safety.md "Only you"): after the vendor's result is fetched and before
 * it is stored or charged, its face is compared with the person's photos of that generation. Too
 * far (FACE_RULES.likeness): the generation is tried once more, then it fails with its credits
 * released. A result where no face is found (a back view) passes, with no figure. Each try's
 * figure is kept with the generation (`generation_likeness`) for the console. Runs on this server's
 * face model only.
 */
@Injectable()
export class LikenessService {
  private readonly logger = new Logger('Likeness');

  constructor(
    private readonly checks: FaceChecksService,
    private readonly repo: FacesRepository,
    @Inject(FACE_ENGINE) private readonly engine: FaceEngine,
  ) {}

  get enabled(): boolean {
    return this.checks.enabled;
  }

  /**
   * Judges a result against the generation's photos (`uploadIds`, the person's own faces kept at
   * upload). Photos with no kept face (uploaded while the checks were off) give nothing to compare:
   * the result passes unchecked. Records the try; `retry` when another try is allowed.
   */
  async judge(
    generation: { id: string; userId: string; type: 'image' | 'video'; uploadIds: string[] },
    result: Buffer,
  ): Promise<LikenessVerdict> {
    if (!this.enabled) return { outcome: 'unchecked', distance: null };
    const photos = await this.repo.uploadFaces(generation.userId, generation.uploadIds);
    if (photos.length === 0) return { outcome: 'unchecked', distance: null };
    const picture = generation.type === 'video' ? await firstFrame(result) : result;
    const analysis = await this.engine.analyze(picture, { descriptors: 'all', maxSide: 1024 });
    const candidates = analysis.faces.filter((f) => f.descriptor);
    const distances = candidates.map(
      (f) =>
        nearest(
          f.descriptor!,
          photos.map((p) => p.descriptor),
        )?.distance ?? Number.POSITIVE_INFINITY,
    );
    if (distances.length === 0) {
      await this.repo.recordLikenessTry(generation.id, null, 'no_face', FACE_RULES.likeness);
      return { outcome: 'no_face', distance: null };
    }
    const distance = Math.min(...distances);
    if (distance <= FACE_RULES.likeness) {
      await this.repo.recordLikenessTry(generation.id, distance, 'passed', FACE_RULES.likeness);
      return { outcome: 'passed', distance };
    }
    const previous = await this.repo.findLikeness(generation.id);
    const tries = (previous?.tries.length ?? 0) + 1;
    const outcome = tries < LIKENESS_TRIES ? 'retried' : 'failed';
    await this.repo.recordLikenessTry(generation.id, distance, outcome, FACE_RULES.likeness);
    this.logger.log(
      `Generation ${generation.id}: the result's face is ${distance.toFixed(2)} from the person's (try ${tries}): ${outcome}`,
    );
    return { outcome: outcome === 'retried' ? 'retry' : 'failed', distance };
  }

  /** The figure shown to admins. */
  async figureOf(
    generationId: string,
  ): Promise<{ distance: number | null; tries: (number | null)[]; outcome: string; threshold: number } | null> {
    const row = await this.repo.findLikeness(generationId);
    return row ? { distance: row.distance, tries: row.tries, outcome: row.outcome, threshold: row.threshold } : null;
  }
}
