export { STORAGE, type StoragePort, type StoredObject, type SignedUrlOptions } from './storage.port';
export {
  assertValidKey,
  assertValidPrefix,
  assertValidContentType,
  assertValidTtl,
  isValidKey,
  isValidContentType,
  MAX_KEY_LENGTH,
  MAX_KEY_SEGMENT_LENGTH,
} from './storage-key';
export {
  signLocalUrl,
  verifyLocalSignature,
  computeLocalSignature,
  canonicalLocalSignatureString,
  sanitizeDownloadName,
  attachmentDisposition,
  type LocalSignatureCheck,
  type LocalSignatureFields,
  type SignLocalUrlInput,
} from './signed-url';
export { isStorageOutage, storageCall, StorageUnavailableError } from './storage-unavailable';
export { LocalStorageDriver } from './drivers/local-storage.driver';
export { S3StorageDriver } from './drivers/s3-storage.driver';
export { FilesController, INVALID_LINK_MESSAGE } from './files.controller';
export { StorageModule, createStorageDriver } from './storage.module';
