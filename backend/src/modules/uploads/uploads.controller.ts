import { Body, Controller, Delete, Get, HttpCode, Param, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { Idempotent } from '../../common/idempotency';
import { RETRY_AFTER_HEADER } from '../../common/response-headers';
import { UploadCreateDto } from './dto/upload-create.dto';
import { UploadBatchResponseDto, UploadResponseDto } from './dto/upload-response.dto';
import { UploadUsageDto } from './dto/upload-usage.dto';
import { UPLOAD_LIMITS, UPLOAD_MESSAGES } from './image-intake';
import { PHOTO_FIELD, PhotoUploadInterceptor } from './photo-upload.interceptor';
import { UploadQuotaService } from './upload-quota.service';
import { UploadsService } from './uploads.service';

@ApiTags('uploads')
@Authenticated({ verifiedAdult: true })
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly uploads: UploadsService,
    private readonly quota: UploadQuotaService,
  ) {}

  @Post()
  @Authenticated({ verifiedAdult: true, scopes: ['uploads:write'] })
  // below the idempotency: the multipart body is read first, so that its files count in the request's hash
  @Idempotent()
  @UseInterceptors(PhotoUploadInterceptor)
  @ApiOperation({
    summary: 'Upload 1 to 5 photos of myself',
    description:
      `Multipart form: field \`${PHOTO_FIELD}\` (1 to ${UPLOAD_LIMITS.maxFiles} files) and \`confirm_own_photos=true\` (the photos show me and I am 18 or older). ` +
      'Each file must be a JPEG, PNG or WebP (judged by its bytes, not its name or type) under 10MB and at most 40 megapixels. ' +
      'Every photo is re-encoded as JPEG (orientation applied, long side at most 2048 px, all metadata such as GPS removed) and stored privately. ' +
      'One refused file refuses the whole batch and nothing is stored. ' +
      'Quotas per account, counted on the bytes received: UPLOAD_QUOTA_PHOTOS_PER_HOUR photos (50) and UPLOAD_QUOTA_MB_PER_HOUR MB (50) an hour ' +
      '(429 RATE_LIMITED with Retry-After), UPLOAD_QUOTA_MB_KEPT MB kept (1024; 413 PAYLOAD_TOO_LARGE). See GET /api/uploads/usage.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: [PHOTO_FIELD, 'confirm_own_photos'],
      properties: {
        [PHOTO_FIELD]: { type: 'array', items: { type: 'string', format: 'binary' }, minItems: 1, maxItems: UPLOAD_LIMITS.maxFiles },
        confirm_own_photos: { type: 'string', enum: ['true'] },
      },
    },
  })
  @ApiCreatedResponse({ type: UploadBatchResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `VALIDATION_ERROR: "${UPLOAD_MESSAGES.notAnImage}", "${UPLOAD_MESSAGES.tooMany}", ...`,
  })
  @ApiPayloadTooLargeResponse({
    type: ErrorResponseDto,
    description: `PAYLOAD_TOO_LARGE: "${UPLOAD_MESSAGES.tooLarge}", or the photos kept would pass the storage allowance`,
  })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description: 'RATE_LIMITED: the hourly upload allowance is used up (Retry-After says when it starts again)',
    headers: RETRY_AFTER_HEADER,
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: 'SERVICE_UNAVAILABLE: too many photos are being processed right now (Retry-After)',
    headers: RETRY_AFTER_HEADER,
  })
  async uploadPhotos(
    @CurrentUser() user: AuthUser,
    @UploadedFiles() files: Express.Multer.File[] | undefined,
    @Body() _body: UploadCreateDto,
  ): Promise<UploadBatchResponseDto> {
    return { uploads: await this.uploads.create(user.id, files) };
  }

  @Get('usage')
  @Authenticated({ verifiedAdult: true, scopes: ['uploads:read'] })
  @ApiOperation({
    summary: 'How much of my upload allowance I have used: photos and MB this hour, MB kept',
    description:
      'Counts in bytes, with the limits beside them; `hour_resets_at` says when the hourly allowance starts again (null when nothing was uploaded this hour).',
  })
  @ApiOkResponse({ type: UploadUsageDto })
  getUploadUsage(@CurrentUser() user: AuthUser): Promise<UploadUsageDto> {
    return this.quota.usage(user.id);
  }

  @Get(':id')
  @Authenticated({ verifiedAdult: true, scopes: ['uploads:read'] })
  @ApiOperation({
    summary: 'One of my photos, with a fresh signed URL',
    description:
      "The URL points at the re-encoded JPEG and expires; ask again for a new one. Another person's photo answers 404, like an unknown id.",
  })
  @ApiOkResponse({ type: UploadResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such photo' })
  getUpload(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<UploadResponseDto> {
    return this.uploads.get(user.id, id);
  }

  @Delete(':id')
  @Authenticated({ verifiedAdult: true, scopes: ['uploads:write'] })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete one of my photos (the stored file too)',
    description: "Generations made from the photo stay. Another person's photo answers 404, like an unknown id.",
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such photo' })
  deleteUpload(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.uploads.delete(user.id, id);
  }
}
