import { ApiProperty } from '@nestjs/swagger';

export class AdminGenerationRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty({ nullable: true, type: String }) user_email: string | null;
  @ApiProperty({ enum: ['image', 'video'] }) type: string;
  @ApiProperty({ enum: ['processing', 'completed', 'failed'] }) status: string;
  @ApiProperty() category: string;
  @ApiProperty() cost: number;
  @ApiProperty({ nullable: true, type: String }) failure_reason: string | null;
  @ApiProperty() stage: string;
  @ApiProperty() provider: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completed_at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'a signed link to the result (expires; host-relative with local storage), when completed',
  })
  thumbnail_url: string | null;
}
