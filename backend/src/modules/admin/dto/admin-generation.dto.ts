import { ApiProperty } from '@nestjs/swagger';

export class AdminGenerationRowDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) user_id: string;
  @ApiProperty({ nullable: true, type: String }) user_email: string | null;
  @ApiProperty({ enum: ['image', 'video'] }) type: string;
  @ApiProperty({ enum: ['processing', 'completed', 'failed'] }) status: string;
  @ApiProperty() category: string;
  @ApiProperty({ type: 'integer' }) cost: number;
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

/** The likeness guard's figure: the distance of the result's face to the person's photos (smaller is closer). */
export class AdminGenerationLikenessDto {
  @ApiProperty({ nullable: true, type: Number, example: 0.31, description: 'the last try’s distance; null when the result showed no face' })
  distance: number | null;

  @ApiProperty({ type: [Number], description: 'every try’s distance, in order (null: no face)', example: [0.62, 0.31] })
  tries: (number | null)[];

  @ApiProperty({ enum: ['passed', 'retried', 'failed', 'no_face'] })
  outcome: string;

  @ApiProperty({ example: 0.5, description: 'the distance above which a result is tried again, then refused' })
  threshold: number;

  @ApiProperty({ format: 'date-time' })
  checked_at: string;
}

export class AdminGenerationDto extends AdminGenerationRowDto {
  @ApiProperty({
    type: AdminGenerationLikenessDto,
    nullable: true,
    description:
      'the face check of the result against the person’s photos; null when none ran (face checks off, no face kept, not finished)',
  })
  likeness: AdminGenerationLikenessDto | null;
}
