import { ApiProperty } from '@nestjs/swagger';
import { ProfileResponseDto } from '../../users/dto/profile-response.dto';

/**
 * The product's Session. The refresh token is never in the body: browsers receive it as the httpOnly
 * cookie `fr_refresh` (path /api/auth), rotated by POST /api/auth/refresh.
 */
export class SessionResponseDto {
  @ApiProperty({ description: 'short-lived JWT for `Authorization: Bearer`' })
  access_token: string;

  @ApiProperty({ example: 1767225600, description: 'when the access token expires, in Unix seconds (refresh before then)' })
  expires_at: number;

  @ApiProperty({ type: ProfileResponseDto })
  user: ProfileResponseDto;
}
