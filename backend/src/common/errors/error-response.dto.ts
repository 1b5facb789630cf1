import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { API_ERROR_CODES, type ApiErrorCode, type CustomPoseNotUnderstood, ErrorCode, type NotUnderstoodWord } from './error-catalogue';

/** A word of a custom pose that was not understood, with close words the check knows. */
export class NotUnderstoodWordDto implements NotUnderstoodWord {
  @ApiProperty({ example: 'smokey', description: 'the word as typed (never a word of the block lists)' })
  word: string;

  @ApiProperty({ type: [String], example: ['smoky', 'smoke'], description: 'close words the check understands, the closest first' })
  suggestions: string[];
}

/** What the custom-pose check did not understand (CUSTOM_POSE_NOT_UNDERSTOOD, POST /api/generations/custom-pose/check). */
export class CustomPoseNotUnderstoodDto implements CustomPoseNotUnderstood {
  @ApiProperty({ type: [NotUnderstoodWordDto], description: 'unknown words, words of another language and numbers it cannot read' })
  words: NotUnderstoodWordDto[];

  @ApiProperty({ type: [String], example: ['"'], description: 'characters a pose description has no use for' })
  characters: string[];

  @ApiProperty({ example: false, description: 'the text is (partly) in another language or script: custom poses are English-only for now' })
  other_language: boolean;
}

/** The body of every error the API answers (docs/product.md). */
export class ErrorResponseDto {
  @ApiProperty({ type: 'integer', example: 400 })
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

  @ApiPropertyOptional({ type: CustomPoseNotUnderstoodDto, description: 'only with CUSTOM_POSE_NOT_UNDERSTOOD' })
  not_understood?: CustomPoseNotUnderstoodDto;
}
