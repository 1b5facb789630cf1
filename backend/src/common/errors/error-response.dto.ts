import { ApiProperty } from '@nestjs/swagger';
import { API_ERROR_CODES, type ApiErrorCode, ErrorCode } from './error-catalogue';

/** The body of every error the API answers (docs/product.md). */
export class ErrorResponseDto {
  @ApiProperty({ example: 400 })
  statusCode: number;

  @ApiProperty({
    enum: API_ERROR_CODES,
    enumName: 'ErrorCode',
    example: ErrorCode.VALIDATION_ERROR,
    description:
      'A code of the error catalogue (common/errors/error-catalogue.ts): the general ones, then those of features (auth, the custom pose)',
  })
  code: ApiErrorCode;

  @ApiProperty({ example: 'Insufficient credits. Required: 3, Available: 1.' })
  message: string;
}
