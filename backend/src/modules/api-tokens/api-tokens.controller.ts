import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { MAX_API_TOKENS_PER_USER, ApiTokensService } from './api-tokens.service';
import { ApiTokenCreateDto, ApiTokenCreatedDto, ApiTokenDto } from './dto/api-token.dto';

/**
 * Settings' "API tokens": a signed-in session only (a token never makes, lists or revokes tokens:
 * these routes declare no scope, so the guard answers a token 403 API_TOKEN_NOT_ALLOWED).
 */
@ApiTags('developer')
@Authenticated()
@Controller('me/tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @ApiOperation({
    summary: 'My personal API tokens that still work, newest first (never the tokens themselves)',
    description: 'Revoked and expired tokens are not listed. A signed-in session only: an API token answers 403 API_TOKEN_NOT_ALLOWED.',
  })
  @ApiOkResponse({ type: [ApiTokenDto] })
  listApiTokens(@CurrentUser() user: AuthUser): Promise<ApiTokenDto[]> {
    return this.tokens.list(user.id);
  }

  @Post()
  @ApiOperation({
    summary: 'Create a personal API token: the answer shows it once',
    description:
      'Only its SHA-256 is kept: copy `token` now. Send it as `Authorization: Bearer <token>` to the routes that name its scopes ' +
      `(docs/api.md). At most ${MAX_API_TOKENS_PER_USER} tokens that still work per account. Recorded in the audit trail. ` +
      'A signed-in session only.',
  })
  @ApiCreatedResponse({ type: ApiTokenCreatedDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: no name, unknown scopes, an expiry in the past, too many tokens',
  })
  createApiToken(@CurrentUser() user: AuthUser, @Body() body: ApiTokenCreateDto): Promise<ApiTokenCreatedDto> {
    return this.tokens.create(user, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke one of my API tokens: it answers 401 from now on',
    description: "Recorded in the audit trail. Another person's token, an unknown or a revoked one answers 404. A signed-in session only.",
  })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, unknown, or already revoked' })
  revokeApiToken(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.tokens.revoke(user, id);
  }
}
