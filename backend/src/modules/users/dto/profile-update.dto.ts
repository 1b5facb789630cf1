import { FULL_NAME_MAX_LENGTH, FullNameMessages } from '@fitting-room/shared/profile-rules';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export const AGE_CONFIRMATION_MESSAGE = 'You must confirm that you are 18 or older';

/** PATCH /api/me. The email cannot be changed: sending it is refused like any unknown field. */
export class ProfileUpdateDto {
  @ApiPropertyOptional({ example: 'Ada Lovelace', minLength: 1, maxLength: FULL_NAME_MAX_LENGTH, description: 'trimmed; not empty' })
  @MaxLength(FULL_NAME_MAX_LENGTH, { message: FullNameMessages.tooLong })
  @IsNotEmpty({ message: FullNameMessages.required })
  @IsString({ message: FullNameMessages.required })
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
