import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { ErrorResponseDto, ValidationError } from '../../common/errors';
import { ApiTokensService } from './api-tokens.service';
import { AdminApiTokenDto } from './dto/api-token.dto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function userId(id: string): string {
  if (!UUID.test(id)) throw new ValidationError('Invalid id');
  return id;
}

/** The console's "API tokens" tab of a user's page: every token of the account, and revoking one (audited). */
@ApiTags('admin')
@Controller('admin/users/:id/api-tokens')
export class AdminApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Get()
  @Authenticated({ roles: rolesFor('user-api-tokens', 'list') })
  @ApiOperation({
    summary: "A user's personal API tokens, revoked and expired ones too, newest first (never the tokens themselves)",
    description: 'An id that is not a UUID answers 400, an unknown one 404.',
  })
  @ApiOkResponse({ type: [AdminApiTokenDto] })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such user' })
  listAdminUserApiTokens(@Param('id') id: string): Promise<AdminApiTokenDto[]> {
    return this.tokens.listForAdmin(userId(id));
  }

  @Delete(':tokenId')
  @HttpCode(204)
  @Authenticated({ roles: rolesFor('user-api-tokens', 'delete') })
  @ApiOperation({
    summary: "Revoke a user's API token (audited): it answers 401 from now on",
    description: 'A token of another user, an unknown or a revoked one answers 404.',
  })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such token of this user' })
  revokeAdminUserApiToken(@CurrentUser() admin: AuthUser, @Param('id') id: string, @Param('tokenId') tokenId: string): Promise<void> {
    return this.tokens.revokeForAdmin(admin, userId(id), tokenId);
  }
}
