import { ApiProperty } from '@nestjs/swagger';

/** The product's is_admin check, for the caller. */
export class AdminCheckResponseDto {
  @ApiProperty()
  is_admin: boolean;
}
