import { Body, Controller, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { RETRY_AFTER_HEADER } from '../../common/response-headers';
import { SupportRateLimit } from '../auth/rate-limit/auth-rate-limit';
import { UPLOAD_MESSAGES } from '../uploads/image-intake';
import { SupportInquiryCreateDto } from './dto/support-inquiry-create.dto';
import { SupportInquiryCreatedDto } from './dto/support-inquiry-created.dto';
import { ReportImageInterceptor } from './report-image.interceptor';
import { SupportService } from './support.service';
import type { Request } from 'express';

/** The public contact form. */
@ApiTags('support')
@Controller('support')
export class SupportController {
  constructor(private readonly support: SupportService) {}

  @Post('inquiries')
  @HttpCode(201)
  @Authenticated({ optional: true })
  @SupportRateLimit()
  @UseInterceptors(ReportImageInterceptor)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiOperation({
    summary: 'Send a message to support (public; rate limited per IP)',
    description:
      'kind question (default), billing or abuse_report ("Report an image", priority high). A report names the image by generation_id, ' +
      'by a link to it (image_url), or by a copy of it (multipart, file field `image`, under 10MB), matched against every stored result by the ' +
      'generation id in its metadata or by its picture (crops, small rotations, borders, screenshots and recompression allowed): one result only when ' +
      'it is clearly ahead of every other, else an admin chooses among the candidates. The copy is kept privately for the ticket (re-encoded, no ' +
      'metadata) until REPORTED_IMAGE_RETENTION_DAYS (30) days after the ticket is resolved, or until the sender deletes their account. The ' +
      'reporter gets a receipt by mail. A ' +
      'signed-in sender is linked to the ticket.',
  })
  @ApiCreatedResponse({ type: SupportInquiryCreatedDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description:
      'VALIDATION_ERROR: a missing or bad field, a generation id or image with a kind other than abuse_report, or a copy that is not a usable picture',
  })
  @ApiPayloadTooLargeResponse({
    type: ErrorResponseDto,
    description: `PAYLOAD_TOO_LARGE: "${UPLOAD_MESSAGES.tooLarge}" (the copy of the image)`,
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description:
      'SERVICE_UNAVAILABLE: too many pictures are being processed right now to match the copy (Retry-After), or the storage cannot keep it',
    headers: RETRY_AFTER_HEADER,
  })
  createSupportInquiry(
    @Body() body: SupportInquiryCreateDto,
    @Req() req: Request,
    @CurrentUser() user?: AuthUser,
  ): Promise<SupportInquiryCreatedDto> {
    return this.support.create(body, user?.id, (req as Request & { file?: { buffer: Buffer } }).file?.buffer);
  }
}
