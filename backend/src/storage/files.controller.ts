import { Controller, Get, Inject, Param, Query, Res, StreamableFile } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorResponseDto, ForbiddenError } from '../common/errors';
import { APP_CONFIG } from '../config/config.module';
import { attachmentDisposition, verifyLocalSignature } from './signed-url';
import { STORAGE, type StoragePort } from './storage.port';
import type { AppConfig } from '../config/app-config';
import type { Response } from 'express';

export const INVALID_LINK_MESSAGE = 'This link has expired or is invalid.';

/**
 * Serves objects of the local storage driver through the links LocalStorageDriver.signedUrl() makes.
 * Registered by StorageModule.forRoot() only when the local driver is configured: S3 links point
 * at the bucket.
 */
@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Express 5 / path-to-regexp 8: `*key` matches one or more segments and arrives as an array of them.
  @Get('*key')
  @ApiOperation({
    summary: 'Download a private file through a signed link',
    description:
      'Links come from the API (upload and generation responses) and expire, by default after 900 s. ' +
      'The key may contain "/". An invalid, tampered or expired link answers 403.',
  })
  @ApiParam({ name: 'key', type: String, description: 'storage key, e.g. users/<id>/uploads/<id>.jpg' })
  @ApiQuery({ name: 'exp', type: String, required: true, description: 'expiry, unix seconds' })
  @ApiQuery({ name: 'dl', type: String, required: false, description: 'download file name: answers as an attachment' })
  @ApiQuery({ name: 'sig', type: String, required: true, description: 'base64url HMAC-SHA256 of key, exp and dl' })
  @ApiProduces('image/jpeg', 'image/png', 'image/webp', 'video/mp4', 'application/octet-stream')
  @ApiOkResponse({ description: 'the file, with its stored Content-Type', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: INVALID_LINK_MESSAGE, type: ErrorResponseDto })
  @ApiNotFoundResponse({ description: 'the file was deleted since the link was made', type: ErrorResponseDto })
  async downloadSignedFile(
    @Param('key') keyParam: string[] | string,
    @Query('exp') exp: string | string[] | undefined,
    @Query('dl') dl: string | string[] | undefined,
    @Query('sig') sig: string | string[] | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const key = Array.isArray(keyParam) ? keyParam.join('/') : String(keyParam ?? '');
    // the signature is checked before anything else, so a forged key never reaches the storage
    const check = verifyLocalSignature({ key, exp, dl, sig }, this.config.storage.signingSecret);
    if (!check.valid) throw new ForbiddenError(INVALID_LINK_MESSAGE);

    const object = await this.storage.get(key);
    res.setHeader('Cache-Control', `private, max-age=${check.remainingSeconds}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'; media-src 'self'");
    return new StreamableFile(object.body, {
      type: object.contentType,
      length: object.size,
      disposition: check.dl ? attachmentDisposition(check.dl) : undefined,
    });
  }
}
