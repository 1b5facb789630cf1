import { ApiProperty } from '@nestjs/swagger';

/** The spec's is_admin check, for the caller. */
export class AdminCheckResponseDto {
  @ApiProperty()
  is_admin: boolean;
}
