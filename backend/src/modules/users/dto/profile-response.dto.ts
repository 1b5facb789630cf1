import { ApiProperty } from '@nestjs/swagger';
import { UserRole, UserTier } from '../user.entity';

/** The signed-in user's profile: the spec's profiles row with its tier and credits. */
export class ProfileResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ada@example.com', description: 'read-only' })
  email: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  full_name: string;

  @ApiProperty({ enum: UserTier, enumName: 'UserTier' })
  tier: UserTier;

  @ApiProperty({ example: 3, description: 'credits available' })
  credits: number;

  @ApiProperty({ enum: UserRole, enumName: 'UserRole' })
  role: UserRole;

  @ApiProperty({
    description:
      'whether the person has confirmed being 18 or older. Always true after an email sign-up; false for a new Google ' +
      'account until it confirms with PATCH /api/me { age_confirmed: true }',
  })
  age_confirmed: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
