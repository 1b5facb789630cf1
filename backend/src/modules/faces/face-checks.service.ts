import { randomInt } from 'node:crypto';
import { FACE_CONSENT_TEXT, FACE_CONSENT_VERSION, FaceMessages, SELFIE_CATEGORIES } from '@fitting-room/shared/face-checks';
import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppError, FaceErrorCode, RateLimitError, ValidationError } from '../../common/errors';
import { OpsEvents } from '../../common/ops-events';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { FaceEngine, type DetectedFace, type FaceAnalysis } from './engine/face-engine';
import { descriptorDistance, judgeTurn, nearest, TURN_RULES, type TurnDirection } from './face-geometry';
import { FACE_RULES, faceSharpness } from './face-rules';
import { FacesRepository } from './faces.repository';
import type { AppConfig } from '../../config/app-config';
import type { EntityManager } from 'typeorm';

/** The face model of this process (one thread, loaded once): provided by FacesModule. */
export const FACE_ENGINE = Symbol('FACE_ENGINE');

/** A face check's refusal, in the catalogue's shape. */
export class FaceCheckError extends AppError {
  constructor(code: FaceErrorCode, message: string, status = 400) {
    super(code, message, status);
  }
}

/** The face kept of an accepted photo. */
export interface PhotoFace {
  descriptor: number[];
  faceWidth: number;
  score: number;
}

/** A live selfie's challenge, as the browser gets it. */
export interface SelfieChallenge {
  id: string;
  turn: TurnDirection;
  frames: number;
  interval_ms: number;
  expires_at: string;
}

/** Refused face checks of one account within `hours` that make an admin notification (one a day at most). */
export const FACE_REFUSALS_ALERT = { refusals: 3, hours: 24 } as const;

/** How the browser captures a selfie: 12 frames, 450 ms apart (5 seconds). */
export const SELFIE_CAPTURE = { frames: 12, intervalMs: 450, challengeTtlSeconds: 180, challengesPerHour: 10 } as const;

/** A photo of a generation, as the uploads module keeps it. */
export interface GenerationPhoto {
  id: string;
  storageKey: string;
}

const describe = (d: DetectedFace | undefined) => d?.descriptor;

/**
 * "Only you" (docs/safety.md): the face checks that run before any credit moves.
 * - A photo must show exactly one face, wide and sharp enough (`checkPhotos`, at upload); its
 *   descriptor is kept with it (`upload_faces`, deleted with the photo).
 * - A generation's photos must show one person, and before lingerie, spicy or video the verified
 *   face (`checkGenerationPhotos`, at the start).
 * - The live selfie: a challenge (a head turn), then the frames judged here and matched to the
 *   person's photos (`challenge`, `verifySelfie`). Frames are never stored.
 * Everything runs on this server's face model (FaceEngine: its own thread, weights from the npm
 * package): no picture or descriptor goes to a vendor. Off with FACE_CHECKS=off.
 */
@Injectable()
export class FaceChecksService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Faces');
  readonly enabled: boolean;

  constructor(
    private readonly repo: FacesRepository,
    @Inject(FACE_ENGINE) private readonly engine: FaceEngine,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) config: AppConfig,
    /** the metrics count refusals; the admin notifications hear of an account that keeps failing */
    @Optional() private readonly ops?: OpsEvents,
  ) {
    this.enabled = config.faces?.checks ?? false;
  }

  /** Settles once the model's background load at boot has ended (loaded or failed, logged either way); at once when the checks are off. */
  warmed: Promise<void> = Promise.resolve();

  /** Loads the model in the background at boot, so that the first photo does not wait for it. */
  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    const started = Date.now();
    this.warmed = this.engine.warm().then(
      () => this.logger.log(`Face model loaded in ${Date.now() - started} ms`),
      (error: unknown) => this.logger.error(`The face model could not load: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.engine.close();
  }

  /** Whether a generation of this category and type needs the verified face. */
  needsVerifiedFace(category: string, type: 'image' | 'video'): boolean {
    return type === 'video' || SELFIE_CATEGORIES.includes(category);
  }

  // --- consent

  async status(userId: string): Promise<{ consented: boolean; verifiedAt: Date | null }> {
    const consent = await this.repo.findConsent(userId);
    return { consented: consent?.version === FACE_CONSENT_VERSION, verifiedAt: await this.repo.verifiedAt(userId) };
  }

  async consent(userId: string, version: string): Promise<void> {
    if (version !== FACE_CONSENT_VERSION)
      throw new ValidationError(`Please agree to the current wording of the face check (version ${FACE_CONSENT_VERSION}).`);
    await this.repo.saveConsent(userId, version);
  }

  get consentText(): { text: string; version: string } {
    return { text: FACE_CONSENT_TEXT, version: FACE_CONSENT_VERSION };
  }

  private async requireConsent(userId: string): Promise<void> {
    const consent = await this.repo.findConsent(userId);
    if (consent?.version !== FACE_CONSENT_VERSION)
      throw new FaceCheckError(FaceErrorCode.FACE_CONSENT_REQUIRED, FaceMessages.consentRequired, 403);
  }

  // --- photos

  /**
   * The face of each photo of a batch (clean JPEGs), or the refusal of the first that fails, named
   * "Photo n: ..." in a batch of several. Needs the consent. Nothing is written here.
   */
  async checkPhotos(userId: string, photos: Buffer[]): Promise<PhotoFace[] | null> {
    if (!this.enabled) return null;
    await this.requireConsent(userId);
    const faces: PhotoFace[] = [];
    for (const [i, jpeg] of photos.entries()) {
      try {
        faces.push(await this.checkPhoto(jpeg));
      } catch (error) {
        if (error instanceof FaceCheckError && photos.length > 1)
          throw new FaceCheckError(error.code as FaceErrorCode, FaceMessages.inBatch(i + 1, error.message), error.statusCode);
        throw error;
      }
    }
    return faces;
  }

  /** One photo: exactly one face, at least FACE_RULES.minFaceWidth wide and FACE_RULES.minSharpness sharp. */
  async checkPhoto(jpeg: Buffer): Promise<PhotoFace> {
    const analysis = await this.engine.analyze(jpeg, { minConfidence: FACE_RULES.minConfidence });
    return judgePhoto(analysis, await this.sharpnessOf(jpeg, analysis));
  }

  private async sharpnessOf(jpeg: Buffer, analysis: FaceAnalysis): Promise<number | null> {
    if (analysis.faces.length !== 1) return null;
    return faceSharpness(jpeg, analysis.faces[0].box, analysis);
  }

  /** Keeps the faces of photos just accepted, in the uploads' own transaction. */
  recordPhotoFaces(userId: string, rows: { uploadId: string; face: PhotoFace }[], manager?: EntityManager): Promise<void> {
    return this.repo.insertUploadFaces(
      rows.map((r) => ({ uploadId: r.uploadId, userId, descriptor: r.face.descriptor, faceWidth: r.face.faceWidth, score: r.face.score })),
      manager,
    );
  }

  /**
   * Before a generation starts (before any credit is held): its photos show one face each (photos
   * uploaded while the checks were off are checked now, once), all the same person as the first
   * photo (the one the vendor gets), and, for lingerie, spicy and video, the face the live selfie
   * verified. Refusals name the photo by its place in the request (1 = the first).
   */
  async checkGenerationPhotos(userId: string, photos: GenerationPhoto[], options: { needsVerifiedFace: boolean }): Promise<void> {
    if (!this.enabled || photos.length === 0) return;
    await this.requireConsent(userId);
    const known = new Map(
      (
        await this.repo.uploadFaces(
          userId,
          photos.map((p) => p.id),
        )
      ).map((f) => [f.uploadId, f]),
    );
    const descriptors: number[][] = [];
    for (const [i, photo] of photos.entries()) {
      let face = known.get(photo.id)?.descriptor;
      if (!face) {
        // a photo uploaded before the checks were on: checked now, and its face kept like any other
        const { body } = await this.storage.get(photo.storageKey);
        let checked: PhotoFace;
        try {
          checked = await this.checkPhoto(body);
        } catch (error) {
          if (error instanceof FaceCheckError)
            throw new FaceCheckError(error.code as FaceErrorCode, FaceMessages.inBatch(i + 1, error.message));
          throw error;
        }
        await this.recordPhotoFaces(userId, [{ uploadId: photo.id, face: checked }]).catch(() => undefined); // kept by a concurrent start already
        face = checked.descriptor;
      }
      descriptors.push(face);
    }
    for (let i = 1; i < descriptors.length; i++) {
      if (descriptorDistance(descriptors[i], descriptors[0]) > FACE_RULES.samePerson)
        throw new FaceCheckError(FaceErrorCode.FACE_MIXED_SET, FaceMessages.mixedSet(i + 1, 1));
    }
    if (options.needsVerifiedFace) await this.requireVerifiedFace(userId, photos, descriptors);
  }

  /** Each photo matches a photo the live selfie verified; a photo that does is marked verified too. */
  private async requireVerifiedFace(userId: string, photos: GenerationPhoto[], descriptors: number[][]): Promise<void> {
    const all = await this.repo.allUploadFaces(userId);
    const verified = all.filter((f) => f.verifiedAt);
    if (verified.length === 0) throw new FaceCheckError(FaceErrorCode.FACE_SELFIE_REQUIRED, FaceMessages.selfieRequired, 403);
    const newlyVerified: string[] = [];
    for (const [i, photo] of photos.entries()) {
      if (verified.some((v) => v.uploadId === photo.id)) continue;
      const best = nearest(
        descriptors[i],
        verified.map((v) => v.descriptor),
      );
      if (!best || best.distance > FACE_RULES.samePerson) {
        await this.recordRefusal(userId, 'photo', 'mismatch', best?.distance ?? null);
        throw new FaceCheckError(FaceErrorCode.FACE_NOT_VERIFIED, FaceMessages.notVerifiedFace(i + 1), 403);
      }
      newlyVerified.push(photo.id);
    }
    await this.repo.markVerified(userId, newlyVerified);
  }

  // --- the live selfie

  /** A new challenge: a random head turn, valid SELFIE_CAPTURE.challengeTtlSeconds, at most 10 an hour. */
  async challenge(userId: string): Promise<SelfieChallenge> {
    this.requireEnabled();
    await this.requireConsent(userId);
    if ((await this.repo.countChallengesSince(userId, 60)) >= SELFIE_CAPTURE.challengesPerHour)
      throw new RateLimitError('Too many selfie checks in the last hour. Please try again later.');
    // from the system's secure generator: the turn asked must not be guessable ahead
    const turn: TurnDirection = randomInt(2) === 0 ? 'left' : 'right';
    const row = await this.repo.createChallenge(userId, turn, SELFIE_CAPTURE.challengeTtlSeconds);
    return {
      id: row.id,
      turn,
      frames: SELFIE_CAPTURE.frames,
      interval_ms: SELFIE_CAPTURE.intervalMs,
      expires_at: new Date(row.expiresAt).toISOString(),
    };
  }

  /**
   * Judges a live selfie: the challenge (once, unexpired), one face in every frame, the same person
   * throughout, the asked head turn and back, and the face matching the person's photos (those that
   * match are marked verified). Every refusal is recorded for the console. The frames are analysed
   * in memory and dropped: nothing of them is stored but the outcome and the distance.
   */
  async verifySelfie(
    userId: string,
    challengeId: string,
    frames: Buffer[],
  ): Promise<{ verifiedAt: Date; photosMatched: number; distance: number }> {
    this.requireEnabled();
    await this.requireConsent(userId);
    const challenge = /^[0-9a-f-]{36}$/i.test(challengeId) ? await this.repo.useChallenge(userId, challengeId) : null;
    if (!challenge) throw new FaceCheckError(FaceErrorCode.FACE_SELFIE_FAILED, FaceMessages.challengeExpired);
    if (frames.length < TURN_RULES.minFrames || frames.length > TURN_RULES.maxFrames)
      throw new ValidationError(`Send ${TURN_RULES.minFrames} to ${TURN_RULES.maxFrames} frames of the camera.`);

    const analyses: FaceAnalysis[] = [];
    for (const frame of frames) {
      try {
        analyses.push(await this.engine.analyze(frame, { maxSide: 640, descriptors: 'single' }));
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new ValidationError('Each frame must be a JPEG picture of the camera.');
      }
    }
    const refuse = async (outcome: string, message: string, distance: number | null = null): Promise<never> => {
      await this.recordRefusal(userId, 'selfie', outcome, distance);
      throw new FaceCheckError(FaceErrorCode.FACE_SELFIE_FAILED, message);
    };
    if (analyses.some((a) => a.faces.length > 1)) await refuse('several_faces', FaceMessages.selfieNoFace);
    const single = analyses.map((a) => (a.faces.length === 1 ? a.faces[0] : undefined));
    const verdict = judgeTurn(
      single.map((f) => f?.landmarks ?? null),
      challenge.direction,
    );
    if (!verdict.ok) {
      if (verdict.reason === 'no_face' || verdict.reason === 'too_few_frames') await refuse('no_face', FaceMessages.selfieNoFace);
      await refuse('still', FaceMessages.selfieNoTurn(challenge.direction));
    }
    // the same person in every frame (a face swapped in mid-way is refused), then against the photos
    const seen = single.map(describe).filter((d): d is number[] => Array.isArray(d));
    const first = seen[0];
    if (seen.some((d) => descriptorDistance(d, first) > FACE_RULES.samePerson)) await refuse('mismatch', FaceMessages.selfieMismatch);
    const selfie = first.map((_, k) => seen.reduce((s, d) => s + d[k], 0) / seen.length);
    const photos = await this.repo.allUploadFaces(userId);
    const distances = photos.map((p) => ({ id: p.uploadId, d: descriptorDistance(selfie, p.descriptor) }));
    const matched = distances.filter((x) => x.d <= FACE_RULES.samePerson);
    const best = distances.length ? Math.min(...distances.map((x) => x.d)) : null;
    if (matched.length === 0) await refuse('mismatch', FaceMessages.selfieMismatch, best);
    await this.repo.markVerified(
      userId,
      matched.map((m) => m.id),
    );
    await this.repo.recordEvent(userId, 'selfie', 'verified', best);
    return { verifiedAt: (await this.repo.verifiedAt(userId)) ?? new Date(), photosMatched: matched.length, distance: best ?? 0 };
  }

  /** A refusal, recorded for the console (like a refused custom pose), counted, and told to admins when it repeats. */
  private async recordRefusal(userId: string, kind: 'selfie' | 'photo', outcome: string, distance: number | null): Promise<void> {
    await this.repo.recordEvent(userId, kind, outcome, distance);
    await this.ops?.emit({ type: 'faces.check-refused', kind, outcome });
    const refusals = await this.repo.countRefusalsSince(userId, FACE_REFUSALS_ALERT.hours);
    if (refusals >= FACE_REFUSALS_ALERT.refusals) await this.ops?.emit({ type: 'faces.checks-failing', userId, refusals });
  }

  private requireEnabled(): void {
    if (!this.enabled) throw new FaceCheckError(FaceErrorCode.FACE_SELFIE_FAILED, 'Face checks are turned off on this server.', 400);
  }
}

/** The verdict on one photo's analysis (pure: the unit tests drive it). */
export function judgePhoto(analysis: FaceAnalysis, sharpness: number | null): PhotoFace {
  if (analysis.faces.length === 0) throw new FaceCheckError(FaceErrorCode.FACE_NOT_FOUND, FaceMessages.notFound);
  if (analysis.faces.length > 1) throw new FaceCheckError(FaceErrorCode.FACE_SEVERAL, FaceMessages.several);
  const [face] = analysis.faces;
  if (face.box.width < FACE_RULES.minFaceWidth) throw new FaceCheckError(FaceErrorCode.FACE_UNCLEAR, FaceMessages.tooSmall);
  if (sharpness !== null && sharpness < FACE_RULES.minSharpness) throw new FaceCheckError(FaceErrorCode.FACE_UNCLEAR, FaceMessages.blurry);
  if (!face.descriptor) throw new FaceCheckError(FaceErrorCode.FACE_NOT_FOUND, FaceMessages.notFound);
  return { descriptor: face.descriptor, faceWidth: Math.round(face.box.width), score: face.score };
}
