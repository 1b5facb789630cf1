import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `{ mode, amount, reason }`. Validated by the service so that the answers carry the product's exact
 * messages ("Please fill in all fields", "Please enter a valid amount"); @Allow keeps the fields
 * through the global whitelist.
 */
export class AdminCreditsAdjustDto {
  @ApiProperty({ enum: ['add', 'deduct'] })
  @Allow()
  mode: 'add' | 'deduct';

  @ApiProperty({ type: 'integer', description: 'a whole number above 0', example: 5 })
  @Allow()
  amount: number;

  @ApiProperty({ example: 'Apology for a failed generation' })
  @Allow()
  reason: string;
}
