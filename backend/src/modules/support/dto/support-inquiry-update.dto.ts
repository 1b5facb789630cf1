import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { INQUIRY_PRIORITIES, INQUIRY_STATUSES, type InquiryPriority, type InquiryStatus } from '../support.entities';

/** `{ status?, priority? }`: the workflow open -> in_progress -> resolved -> closed (resolved -> in_progress reopens). */
export class SupportInquiryUpdateDto {
  @ApiPropertyOptional({ enum: INQUIRY_STATUSES })
  @IsIn(INQUIRY_STATUSES, { message: `Status must be one of ${INQUIRY_STATUSES.join(', ')}` })
  @IsOptional()
  status?: InquiryStatus;

  @ApiPropertyOptional({ enum: INQUIRY_PRIORITIES })
  @IsIn(INQUIRY_PRIORITIES, { message: `Priority must be one of ${INQUIRY_PRIORITIES.join(', ')}` })
  @IsOptional()
  priority?: InquiryPriority;
}
