import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { SupportRateLimit } from '../auth/rate-limit/auth-rate-limit';
import { SupportInquiryCreateDto } from './dto/support-inquiry-create.dto';
import { SupportInquiryCreatedDto } from './dto/support-inquiry-created.dto';
import { SupportService } from './support.service';

/** The public contact form. */
@ApiTags('support')
@Controller('support')
export class SupportController {
  constructor(private readonly support: SupportService) {}

  @Post('inquiries')
  @HttpCode(201)
  @Authenticated({ optional: true })
  @SupportRateLimit()
  @ApiOperation({
    summary: 'Send a message to support (public; rate limited per IP)',
    description: 'kind question (default), billing or abuse_report ("Report an image", priority high, optional generation_id). A signed-in sender is linked to the ticket.',
  })
  @ApiCreatedResponse({ type: SupportInquiryCreatedDto })
  createSupportInquiry(@Body() body: SupportInquiryCreateDto, @CurrentUser() user?: AuthUser): Promise<SupportInquiryCreatedDto> {
    return this.support.create(body, user?.id);
  }
}
