import { ApiProperty } from '@nestjs/swagger';
import { ProfileResponseDto } from '../../users/dto/profile-response.dto';

/**
 * The product's Session. The refresh token is never in the body: browsers receive it as the httpOnly
 * cookie `fr_refresh` (path /api/auth), rotated by POST /api/auth/refresh.
 */
export class SessionResponseDto {
  @ApiProperty({ description: 'short-lived JWT for `Authorization: Bearer`' })
  access_token: string;

  @ApiProperty({
    type: 'integer',
    example: 1767225600,
    description: 'when the access token expires, in Unix seconds (refresh before then)',
  })
  expires_at: number;

  @ApiProperty({ type: ProfileResponseDto })
  user: ProfileResponseDto;
}

/** POST /api/auth/sign-up with a new address (201): the account's session, and the words every sign-up answers with. */
export class SignUpSessionResponseDto extends SessionResponseDto {
  @ApiProperty({ example: "We've sent a link to ada@example.com. Please check your inbox to continue." })
  message: string;
}

/**
 * POST /api/auth/sign-up with an address that has an account already (202): no account is made and
 * nobody is signed in; the address was mailed a way to sign in or choose a password.
 */
export class SignUpCheckEmailResponseDto {
  @ApiProperty({ example: "We've sent a link to ada@example.com. Please check your inbox to continue." })
  message: string;

  @ApiProperty({ enum: [true], description: 'always true: no session, the person goes on from the mail' })
  check_email: true;
}
