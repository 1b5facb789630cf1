import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiFoundResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { sendKeptJson } from '../../common/http/json-answer';
import { Idempotent } from '../../common/idempotency';
import { locationHeader } from '../../common/response-headers';
import { GenerationCheckDto, GenerationCheckResponseDto } from './dto/generation-check.dto';
import { GenerationListQueryDto } from './dto/generation-list-query.dto';
import { GenerationListResponseDto, GenerationResponseDto } from './dto/generation-response.dto';
import { GenerationStartDto } from './dto/generation-start.dto';
import { GENERATION_MESSAGES } from './generation-progress';
import { GenerationStreamService } from './generation-stream.service';
import { GenerationsService } from './generations.service';
import type { Request, Response } from 'express';

@ApiTags('generations')
@Controller('generations')
export class GenerationsController {
  constructor(
    private readonly generations: GenerationsService,
    private readonly streams: GenerationStreamService,
  ) {}

  @Post()
  @Authenticated({ verifiedAdult: true, scopes: ['generations:write'] })
  @Idempotent()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Start a generation',
    description:
      'Needs at least one of my uploads, a template of the category and a pose of the category (scene_id) or a custom pose (custom_pose), ' +
      "each allowed for my tier; video only from Glow Up and when video is enabled. The cost (the scene's creditCost, +3 for video, " +
      'custom pose 3) is held at once and charged when the result is stored. One generation at a time: a second start answers 409. ' +
      'Answers at once (202) with the record in `processing`; follow it with GET /api/generations/{id}/events or GET /api/generations/{id}.',
  })
  @ApiAcceptedResponse({ type: GenerationResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `VALIDATION_ERROR ("${GENERATION_MESSAGES.missingInput}", a refused custom pose, ...), CUSTOM_POSE_NOT_UNDERSTOOD (with not_understood) or INSUFFICIENT_CREDITS`,
  })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'FORBIDDEN: the template, pose or video needs a higher plan' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `CONFLICT: "${GENERATION_MESSAGES.alreadyRunning}"` })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description: 'CUSTOM_POSE_PAUSED: custom poses are paused for the account, until the time the message says',
    headers: { 'Retry-After': { description: 'seconds until custom poses are allowed again', schema: { type: 'integer' } } },
  })
  @ApiServiceUnavailableResponse({
    type: ErrorResponseDto,
    description: 'SERVICE_UNAVAILABLE: the job queue refused the start (Redis away); the generation is failed and its credits released',
  })
  startGeneration(@CurrentUser() user: AuthUser, @Body() body: GenerationStartDto): Promise<GenerationResponseDto> {
    return this.generations.start(user, body);
  }

  @Post('check')
  @HttpCode(200)
  @Authenticated({ verifiedAdult: true, scopes: ['generations:write'] })
  @ApiOperation({
    summary: 'Check a start before uploading anything: the cost and my credits, or the refusal',
    description:
      "The same body as a start, without upload_ids, and the same checks (catalogue, tier, video, the custom pose's safety, a running " +
      'generation, the balance). Changes nothing, except that a refused custom pose is recorded like one at a start: more than 5 ' +
      'refusals within an hour pause custom poses for 24 hours (429 CUSTOM_POSE_PAUSED, with Retry-After). A custom pose the check ' +
      'does not understand (400 CUSTOM_POSE_NOT_UNDERSTOOD) is neither recorded nor counted.',
  })
  @ApiOkResponse({ type: GenerationCheckResponseDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR (a refused custom pose, ...), CUSTOM_POSE_NOT_UNDERSTOOD (with not_understood) or INSUFFICIENT_CREDITS',
  })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'FORBIDDEN: the template, pose or video needs a higher plan' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `CONFLICT: "${GENERATION_MESSAGES.alreadyRunning}"` })
  @ApiTooManyRequestsResponse({
    type: ErrorResponseDto,
    description: 'CUSTOM_POSE_PAUSED: custom poses are paused for the account, until the time the message says',
    headers: { 'Retry-After': { description: 'seconds until custom poses are allowed again', schema: { type: 'integer' } } },
  })
  checkGeneration(@CurrentUser() user: AuthUser, @Body() body: GenerationCheckDto): Promise<GenerationCheckResponseDto> {
    return this.generations.check(user, body);
  }

  @Get()
  @Authenticated({ scopes: ['generations:read'] })
  @ApiOperation({
    summary: 'My completed generations, newest first, a page at a time',
    description:
      'Only completed ones, optionally of one category. `page` starts at 1; `page_size` is 24 by default and at most 100. ' +
      '`total` counts the matching generations over all pages. Each result URL is signed and expires.',
  })
  @ApiOkResponse({ type: GenerationListResponseDto })
  async listGenerations(
    @CurrentUser() user: AuthUser,
    @Query() query: GenerationListQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // a kept page (unchanged gallery) is sent as the bytes made when it was first sent
    sendKeptJson(req, res, await this.generations.list(user, query));
  }

  @Get(':id')
  @Authenticated({ scopes: ['generations:read'] })
  @ApiOperation({
    summary: 'One of my generations: its state and progress (the polling fallback of the event stream)',
    description: "In any state (processing, completed, failed). Another person's generation answers 404, like an unknown id.",
  })
  @ApiOkResponse({ type: GenerationResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such generation' })
  getGeneration(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<GenerationResponseDto> {
    return this.generations.get(user.id, id);
  }

  /**
   * EventSource cannot send an Authorization header, so this route (and only this one) also takes
   * the access token as `?access_token=` (`queryToken`: the guard reads it). Access tokens live 15
   * minutes, request logs never record query strings, and the answer is only ever the caller's own
   * generation.
   */
  @Get(':id/events')
  @Authenticated({ queryToken: true, scopes: ['generations:read'] })
  @ApiOperation({
    summary: 'Follow one of my generations live (server-sent events)',
    description:
      'text/event-stream. Events: `progress` {stage, message, poll, max_polls}; then `completed` {generation} or `failed` {reason}, ' +
      'after which the server closes the stream. A comment line every 15 s keeps the connection open. The current state is sent first. ' +
      'Authenticate with the bearer header, or, from an EventSource (which cannot send headers), with `?access_token=<access token>`.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'the event stream', schema: { type: 'string' } })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such generation' })
  async streamGenerationEvents(@CurrentUser() user: AuthUser, @Param('id') id: string, @Res() res: Response): Promise<void> {
    await this.streams.open(user.id, id, res);
  }

  @Post(':id/cancel')
  @Authenticated({ scopes: ['generations:write'] })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel my running generation: it fails with "Cancelled" and its held credits are released',
    description:
      'The AI provider is asked to stop its job too. A generation that already ended answers 409. Answers the generation, now failed.',
  })
  @ApiOkResponse({ type: GenerationResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `CONFLICT: "${GENERATION_MESSAGES.notRunning}"` })
  cancelGeneration(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<GenerationResponseDto> {
    return this.generations.cancel(user.id, id);
  }

  @Delete(':id')
  @Authenticated({ scopes: ['generations:write'] })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete my generation and its file (a running one is cancelled first)',
    description:
      'The record goes at once; when the storage does not answer, a queue job retries deleting the file. Credits already charged are ' +
      "not given back. Another person's generation answers 404, like an unknown id.",
  })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  deleteGeneration(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.generations.remove(user.id, id);
  }

  @Get(':id/download')
  @Authenticated({ scopes: ['generations:read'] })
  @ApiOperation({
    summary: 'Download my result',
    description: 'Redirects (302) to a signed link that expires, answered as an attachment named `<prefix>-<id>.jpg` or `.mp4`.',
  })
  @ApiFoundResponse({
    description: 'to the signed link of the file',
    headers: locationHeader('the signed link of the result (expires; host-relative with local storage), answered as an attachment'),
  })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: `CONFLICT: "${GENERATION_MESSAGES.noResult}"` })
  async downloadGeneration(@CurrentUser() user: AuthUser, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const url = await this.generations.downloadUrl(user.id, id);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, url);
  }
}
