export { UploadsModule } from './uploads.module';
export { UploadsService, uploadStorageKey } from './uploads.service';
export { UploadEntity } from './upload.entity';
export { UPLOAD_LIMITS, UPLOAD_MESSAGES, acceptPhoto, sniffImageFormat } from './image-intake';
export { PhotoTooLargeError } from './photo-upload.interceptor';
export type { AcceptedPhoto } from './image-intake';
