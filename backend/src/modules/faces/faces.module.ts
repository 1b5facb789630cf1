import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FaceEngine } from './engine/face-engine';
import { FACE_ENGINE, FaceChecksService } from './face-checks.service';
import { FaceChallengeEntity, FaceCheckEventEntity, FaceConsentEntity, GenerationLikenessEntity, UploadFaceEntity } from './face.entities';
import { FacesController } from './faces.controller';
import { FacesRepository } from './faces.repository';
import { LikenessService } from './likeness.service';

/**
 * "Only you": the face checks of photos, generations and results, the consent and the live selfie
 * (docs/safety.md). One face model per process (FACE_ENGINE: a thread started at its first use).
 * No imports of other feature modules: uploads and generations call it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([FaceConsentEntity, UploadFaceEntity, FaceChallengeEntity, FaceCheckEventEntity, GenerationLikenessEntity]),
  ],
  controllers: [FacesController],
  providers: [{ provide: FACE_ENGINE, useFactory: () => new FaceEngine() }, FacesRepository, FaceChecksService, LikenessService],
  exports: [FaceChecksService, LikenessService, FacesRepository],
})
export class FacesModule {}
