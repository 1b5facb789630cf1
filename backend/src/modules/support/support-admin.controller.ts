import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../common/response-headers';
import { setContentRange, SimpleRestQueryDto } from '../../common/simple-rest';
import { AdminGenerationsService } from '../admin/admin-generations.service';
import { ChooseReportedGenerationDto } from './dto/choose-reported-generation.dto';
import { RemoveReportedGenerationDto } from './dto/remove-reported-generation.dto';
import { SupportInquiryDetailsDto, SupportInquiryRowDto, SupportMessageDto } from './dto/support-inquiry-row.dto';
import { SupportInquiryUpdateDto } from './dto/support-inquiry-update.dto';
import { SupportMessageCreateDto } from './dto/support-message-create.dto';
import { SupportService } from './support.service';
import type { Response } from 'express';

const LIST_NOTE =
  'ra-data-simple-rest dialect: sort, range and filter (status, priority, kind, q) as JSON; answers an array with a Content-Range header. 50 a page, newest first.';

/** The console's support desk (admin and support). */
@ApiTags('admin')
@Controller('admin/support-inquiries')
export class SupportAdminController {
  constructor(
    private readonly support: SupportService,
    private readonly generations: AdminGenerationsService,
  ) {}

  @Get()
  @Authenticated({ roles: rolesFor('support-inquiries', 'list') })
  @ApiOperation({ summary: 'Support tickets, newest first, with their age against the 24-48 h promise', description: LIST_NOTE })
  @ApiOkResponse({ type: [SupportInquiryRowDto], headers: contentRangeHeader('support-inquiries') })
  async listSupportInquiries(
    @Query() query: SimpleRestQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SupportInquiryRowDto[]> {
    const params = this.support.parse(query);
    const { rows, total } = await this.support.list(params);
    setContentRange(res, 'support-inquiries', params.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  @Authenticated({ roles: rolesFor('support-inquiries', 'show') })
  @ApiOperation({
    summary: 'A support ticket with its replies and notes',
    description:
      'Messages oldest first, each reply with its mail delivery state (queued, sent, logged or failed). A report of an image comes with the copy it ' +
      'uploaded (a signed link valid 5 minutes), the generation it names and the candidates its copy looked like, each with a link to its result ' +
      'for admins (support sees the copy and the figures, not the results). An id that is not a UUID answers 400, an unknown one 404.',
  })
  @ApiOkResponse({ type: SupportInquiryDetailsDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket' })
  getSupportInquiry(@CurrentUser() viewer: AuthUser, @Param('id') id: string): Promise<SupportInquiryDetailsDto> {
    return this.support.details(id, viewer.role);
  }

  @Patch(':id')
  @Authenticated({ roles: rolesFor('support-inquiries', 'edit') })
  @ApiOperation({
    summary: 'Change the status (open -> in_progress -> resolved -> closed; resolved -> in_progress reopens) or priority (audited)',
    description:
      'Send status, priority or both; each change writes its own audit row. A move the workflow does not allow, or a body with ' +
      'neither field, answers 400. Answers the ticket as GET /api/admin/support-inquiries/{id} does.',
  })
  @ApiOkResponse({ type: SupportInquiryDetailsDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: the id is not a UUID, nothing to change, or a status move the workflow does not allow',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket' })
  updateSupportInquiry(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: SupportInquiryUpdateDto,
  ): Promise<SupportInquiryDetailsDto> {
    return this.support.update(actor.id, actor.role, id, body);
  }

  @Put(':id')
  @Authenticated({ roles: rolesFor('support-inquiries', 'edit') })
  @ApiOperation({
    summary: 'Change the status or priority (PUT, as ra-data-simple-rest sends it)',
    description: "The same as PATCH /api/admin/support-inquiries/{id}: react-admin's update sends PUT.",
  })
  @ApiOkResponse({ type: SupportInquiryDetailsDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: the id is not a UUID, nothing to change, or a status move the workflow does not allow',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket' })
  replaceSupportInquiry(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: SupportInquiryUpdateDto,
  ): Promise<SupportInquiryDetailsDto> {
    return this.support.update(actor.id, actor.role, id, body);
  }

  @Post(':id/messages')
  @HttpCode(201)
  @Authenticated({ roles: rolesFor('support-inquiries', 'create') })
  @ApiOperation({
    summary: 'Reply to the requester (mailed through SMTP when configured, else logged) or add an internal note (audited)',
    description:
      'kind reply or note. A reply is mailed by a queue job with retries: its `delivered` starts as queued, then becomes sent (SMTP), ' +
      'logged (the outbox, without SMTP) or failed (with the reason). A note is never mailed.',
  })
  @ApiCreatedResponse({ type: SupportMessageDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or a bad kind or body' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket' })
  createSupportMessage(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: SupportMessageCreateDto,
  ): Promise<SupportMessageDto> {
    return this.support.addMessage(actor.id, id, body);
  }

  @Post(':id/match')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('generations', 'delete') })
  @ApiOperation({
    summary: "Choose which of a report's candidates is the reported image, or none of them (admins; audited)",
    description:
      'When the copy a report uploaded looked like several results and none was clearly ahead, the ticket lists them (image_candidates) and names ' +
      'none; an admin compares each with the copy and chooses: `generation_id` one of the candidates (image_match becomes chosen and the ticket ' +
      'names it, ready for remove-generation), or null (none of them: image_match none). The choice can change until the named generation is ' +
      'removed. Noted on the ticket.',
  })
  @ApiOkResponse({ type: SupportInquiryDetailsDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: the id is not a UUID, the ticket has no candidates, or generation_id is not one of them',
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the generation the ticket names was removed already' })
  chooseReportedGeneration(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: ChooseReportedGenerationDto,
  ): Promise<SupportInquiryDetailsDto> {
    return this.support.chooseReportedGeneration(actor.id, actor.role, id, body.generation_id);
  }

  @Post(':id/remove-generation')
  @HttpCode(200)
  @Authenticated({ roles: rolesFor('generations', 'delete') })
  @ApiOperation({
    summary: 'Remove the generation an abuse report names, files included, and note it on the ticket (admins; audited)',
    description:
      'With `include_source: true`, also the photo(s) it was made from and every generation made from them, in one action. ' +
      'The ticket records when and by whom (`generation_removed_at`, `generation_removed_by_email`); a second call answers 409.',
  })
  @ApiOkResponse({ type: SupportInquiryDetailsDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such ticket, or the generation is gone (removed elsewhere)' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: this ticket removed its generation already' })
  removeReportedGeneration(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: RemoveReportedGenerationDto,
  ): Promise<SupportInquiryDetailsDto> {
    return this.support.removeReportedGeneration(actor.id, actor.role, id, async (actorId, generationId, reason) => {
      if (body?.include_source) return this.generations.takedown(actorId, generationId, reason);
      await this.generations.remove(actorId, generationId, reason);
      return { generations: [generationId], photos: [] };
    });
  }
}
