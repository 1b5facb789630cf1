import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CustomPoseNotUnderstoodDto } from '../../../common/errors';

/** POST /api/generations/custom-pose/check: the custom pose as typed so far. */
export class CustomPoseCheckDto {
  @ApiProperty({ example: 'smokey eyes at sunset', description: 'the custom pose as typed so far (at most 300 characters are checked)' })
  @IsString()
  @MaxLength(2000)
  text: string;
}

/** What the check understood of a custom pose: the words, numbers and characters it did not, with close words it knows. */
export class CustomPoseCheckResponseDto {
  @ApiProperty({
    example: false,
    description:
      'every word, number and character was understood. Safety is not judged here (a start or POST /api/generations/check does): ' +
      'a word the block lists know is never named, and a text may be understood and still refused.',
  })
  understood: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example:
      'The word "smokey" wasn\'t understood. Describe the pose in everyday English words, for example: walking on the beach at sunset',
    description: 'what a start would say about it, when it was not understood',
  })
  message: string | null;

  @ApiProperty({ type: CustomPoseNotUnderstoodDto })
  not_understood: CustomPoseNotUnderstoodDto;
}

export class BuildingBlockGroupDto {
  @ApiProperty({ enum: ['pose', 'place', 'light', 'mood', 'props'], example: 'pose' })
  id: string;

  @ApiProperty({ example: 'Pose' })
  label: string;

  @ApiProperty({ type: [String], example: ['walking towards the camera', 'hands on hips'] })
  phrases: string[];
}

/** GET /api/generations/custom-pose/building-blocks */
export class BuildingBlocksResponseDto {
  @ApiProperty({ type: [BuildingBlockGroupDto] })
  groups: BuildingBlockGroupDto[];
}
