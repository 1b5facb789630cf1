export { FacesModule } from './faces.module';
export { FaceChecksService, FaceCheckError, type PhotoFace } from './face-checks.service';
export { LikenessService, type LikenessVerdict } from './likeness.service';
export { FacesRepository } from './faces.repository';
