import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-catalogue';

/** The body of every error the API answers (product-spec.md section 8). */
export class ErrorResponseDto {
  @ApiProperty({ example: 400 })
  statusCode: number;

  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', example: ErrorCode.VALIDATION_ERROR })
  code: ErrorCode;

  @ApiProperty({ example: 'Insufficient credits. Required: 3, Available: 1.' })
  message: string;
}
