import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** POST /api/admin/support-inquiries/:id/remove-generation. */
export class RemoveReportedGenerationDto {
  @ApiPropertyOptional({ default: false, description: 'also remove the photo(s) it was made from and every generation made from them' })
  @IsOptional()
  @IsBoolean({ message: 'include_source must be true or false' })
  include_source?: boolean;
}
