import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** Where the person stands with the face checks. */
export class FaceStatusDto {
  @ApiProperty({ description: 'whether this server runs the face checks (FACE_CHECKS)' })
  checks: boolean;

  @ApiProperty({ description: 'whether the person agreed to the current wording (consent_version)' })
  consented: boolean;

  @ApiProperty({ description: 'the sentence the person agrees to before the first check' })
  consent_text: string;

  @ApiProperty({ example: '2026-11-28' })
  consent_version: string;

  @ApiProperty({ description: 'whether a live selfie verified the face of at least one photo still kept' })
  verified: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verified_at: string | null;

  @ApiProperty({
    type: [String],
    example: ['lingerie', 'spicy'],
    description: 'categories whose generations need the verified face (and every video)',
  })
  selfie_categories: string[];
}

export class FaceConsentDto {
  @ApiProperty({ example: '2026-11-28', description: 'the consent_version of GET /api/faces/status the person agreed to' })
  @IsString()
  @MaxLength(40)
  version: string;
}

/** A live selfie's challenge: turn the head as asked, then back, while the browser takes `frames` frames `interval_ms` apart. */
export class SelfieChallengeDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ['left', 'right'], description: "the person's own left or right" })
  turn: 'left' | 'right';

  @ApiProperty({ type: 'integer', example: 12 })
  frames: number;

  @ApiProperty({ type: 'integer', example: 450 })
  interval_ms: number;

  @ApiProperty({ format: 'date-time' })
  expires_at: string;
}

export class SelfieResultDto {
  @ApiProperty({ enum: [true] })
  verified: true;

  @ApiProperty({ format: 'date-time' })
  verified_at: string;

  @ApiProperty({ type: 'integer', description: 'how many of the person’s photos the selfie matched (they are now verified)' })
  photos_matched: number;
}
