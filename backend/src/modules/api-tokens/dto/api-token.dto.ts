import { API_TOKEN_SCOPE_NAMES, type ApiTokenScope } from '@fitting-room/shared/developer-api';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDateString,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { ApiTokenRevokeReason } from '../api-token.entity';

export const API_TOKEN_NAME_MAX = 100;

export const ApiTokenMessages = {
  name: `Name a token in 1 to ${API_TOKEN_NAME_MAX} characters`,
  scopes: `Choose one or more scopes among ${API_TOKEN_SCOPE_NAMES.join(', ')}`,
  expiresAt: 'expires_at must be a date and time in the future (ISO 8601), or null for a token that does not expire',
  tooMany: (max: number) => `You have ${max} API tokens: revoke one before creating another.`,
} as const;

/** POST /api/me/tokens */
export class ApiTokenCreateDto {
  @ApiProperty({ example: 'Nightly export script', minLength: 1, maxLength: API_TOKEN_NAME_MAX, description: 'to tell tokens apart' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: ApiTokenMessages.name })
  @MinLength(1, { message: ApiTokenMessages.name })
  @MaxLength(API_TOKEN_NAME_MAX, { message: ApiTokenMessages.name })
  name: string;

  @ApiProperty({
    enum: API_TOKEN_SCOPE_NAMES,
    enumName: 'ApiTokenScope',
    isArray: true,
    minItems: 1,
    example: ['uploads:write', 'generations:write', 'generations:read'],
    description: 'what the token may do; each route that takes a token names the scope it needs',
  })
  @IsArray({ message: ApiTokenMessages.scopes })
  @ArrayMinSize(1, { message: ApiTokenMessages.scopes })
  @ArrayMaxSize(API_TOKEN_SCOPE_NAMES.length, { message: ApiTokenMessages.scopes })
  @ArrayUnique({ message: ApiTokenMessages.scopes })
  @IsIn(API_TOKEN_SCOPE_NAMES, { each: true, message: ApiTokenMessages.scopes })
  scopes: ApiTokenScope[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2027-03-01T00:00:00Z',
    description: 'when the token stops working; omitted or null: never',
  })
  @IsOptional()
  @IsDateString({ strict: true }, { message: ApiTokenMessages.expiresAt })
  expires_at?: string | null;
}

/** A personal API token as its lists show it (never the token itself). */
export class ApiTokenDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Nightly export script' })
  name: string;

  @ApiProperty({ example: 'frk_x7Kq', description: "the token's first characters, to tell tokens apart" })
  prefix: string;

  @ApiProperty({ enum: API_TOKEN_SCOPE_NAMES, enumName: 'ApiTokenScope', isArray: true })
  scopes: ApiTokenScope[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null: never expires' })
  expires_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'recorded at most once a minute; null: never used' })
  last_used_at: string | null;
}

/** What POST /api/me/tokens answers: the token, this once. */
export class ApiTokenCreatedDto extends ApiTokenDto {
  @ApiProperty({
    example: 'frk_x7KqS0m3RandomBase62Characters0AbC12',
    description: 'the token: shown this once (only its hash is kept). Send it as `Authorization: Bearer <token>`',
  })
  token: string;
}

/** A user's token as the console lists it: revoked and expired ones too. */
export class AdminApiTokenDto extends ApiTokenDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at: string | null;

  @ApiProperty({ type: String, enum: ApiTokenRevokeReason, nullable: true })
  revoke_reason: ApiTokenRevokeReason | null;
}
