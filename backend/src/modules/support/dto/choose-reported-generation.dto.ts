import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsUUID, ValidateIf } from 'class-validator';

/** POST /api/admin/support-inquiries/:id/match: one of the report's candidates, or null for none of them. */
export class ChooseReportedGenerationDto {
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: "one of the ticket's image_candidates (the reported image), or null: none of them is",
  })
  @IsUUID('all', { message: 'generation_id must be the id of one of the candidates, or null' })
  @ValidateIf((_dto, value) => value !== null)
  @IsDefined({ message: 'generation_id is required: the id of one of the candidates, or null for none of them' })
  generation_id: string | null;
}
