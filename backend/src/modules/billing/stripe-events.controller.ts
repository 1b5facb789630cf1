import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../common/response-headers';
import { setContentRange, SimpleRestQueryDto } from '../../common/simple-rest';
import { StripeEventRowDto } from './dto/stripe-event.dto';
import { StripeEventsService } from './stripe-events.service';
import type { Response } from 'express';

/** The console's Stripe events: what Stripe sent, where each is, and the replay of one that failed (admins only). */
@ApiTags('admin')
@Controller('admin/stripe-events')
export class StripeEventsController {
  constructor(private readonly events: StripeEventsService) {}

  @Get()
  @Authenticated({ roles: rolesFor('stripe-events', 'list') })
  @ApiOperation({
    summary: 'Stripe webhook events as received, newest first',
    description:
      'ra-data-simple-rest dialect: sort, range and filter as JSON; answers an array with a Content-Range header, 50 a page. ' +
      'Filters: status (pending, retrying, failed, applied), type (e.g. invoice.paid), q (an event id). Never the body. Admins only.',
  })
  @ApiOkResponse({ type: [StripeEventRowDto], headers: contentRangeHeader('stripe-events') })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: an unknown filter, status or sort' })
  async listAdminStripeEvents(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<StripeEventRowDto[]> {
    const params = this.events.parse(query);
    const { rows, total } = await this.events.list(params);
    setContentRange(res, 'stripe-events', params.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  @Authenticated({ roles: rolesFor('stripe-events', 'show') })
  @ApiOperation({
    summary: 'One received Stripe event (never its body)',
    description:
      'Its type, when it was received and processed, its attempts and the last error: what an admin needs to decide on a replay.',
  })
  @ApiOkResponse({ type: StripeEventRowDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no event with this id was received' })
  getAdminStripeEvent(@Param('id') id: string): Promise<StripeEventRowDto> {
    return this.events.get(id);
  }

  @Post(':id/replay')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('stripe-events', 'edit') })
  @ApiOperation({
    summary: 'Replay a Stripe event (audited): read it again from Stripe and apply it',
    description:
      "The event is read again from Stripe's Events API (GET /v1/events/{id}; Stripe keeps events for 30 days, and the stored body " +
      'is cleared once applied) and applied as its webhook would be. Applying is idempotent: replaying an applied event changes ' +
      'nothing that is already right. Answers the event as it is now.',
  })
  @ApiOkResponse({ type: StripeEventRowDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no event with this id was received' })
  @ApiConflictResponse({
    type: ErrorResponseDto,
    description: 'it could not be applied (the reason; the event keeps it), or Stripe no longer has it and its body is gone',
  })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'Stripe could not be reached' })
  replayAdminStripeEvent(@CurrentUser() actor: AuthUser, @Param('id') id: string): Promise<StripeEventRowDto> {
    return this.events.replay(actor.id, id);
  }
}
