import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-catalogue';

/** The body of every error the API answers (docs/product.md). */
export class ErrorResponseDto {
  @ApiProperty({ example: 400 })
  statusCode: number;

  @ApiProperty({
    example: ErrorCode.VALIDATION_ERROR,
    description: `A code of the error catalogue (${Object.values(ErrorCode).join(', ')}) or of a feature (for example INVALID_CREDENTIALS, EMAIL_NOT_VERIFIED)`,
  })
  code: string;

  @ApiProperty({ example: 'Insufficient credits. Required: 3, Available: 1.' })
  message: string;
}
