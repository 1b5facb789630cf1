import { ApiProperty } from '@nestjs/swagger';

export class AuditLogRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) actor_id: string;
  @ApiProperty({ nullable: true, type: String }) actor_email: string | null;
  @ApiProperty({ example: 'user.credits.add' }) action: string;
  @ApiProperty({ example: 'user' }) target_type: string;
  @ApiProperty() target_id: string;
  @ApiProperty({ nullable: true, type: String }) target_user_id: string | null;
  @ApiProperty({ nullable: true, type: String }) target_email: string | null;
  @ApiProperty({ nullable: true, type: Object }) before: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: Object }) after: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
