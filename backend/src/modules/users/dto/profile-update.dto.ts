import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export const AGE_CONFIRMATION_MESSAGE = 'You must confirm that you are 18 or older';

/** PATCH /api/me. The email cannot be changed: sending it is refused like any unknown field. */
export class ProfileUpdateDto {
  @ApiPropertyOptional({ example: 'Ada Lovelace', maxLength: 200 })
  @MaxLength(200, { message: 'full_name must be at most 200 characters' })
  @IsString({ message: 'full_name must be a string' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  full_name?: string;

  @ApiPropertyOptional({
    enum: [true],
    description: 'confirms once that the person is 18 or older (Google accounts are created unconfirmed); cannot be undone',
  })
  @Equals(true, { message: AGE_CONFIRMATION_MESSAGE })
  @IsBoolean({ message: AGE_CONFIRMATION_MESSAGE })
  @IsOptional()
  age_confirmed?: true;
}
