import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../../common/auth';
import { understandCustomPose } from './custom-pose-safety';
import { BuildingBlocksResponseDto, CustomPoseCheckDto, CustomPoseCheckResponseDto } from './custom-pose.dto';
import { BUILDING_BLOCKS } from './vocabulary/building-blocks.data';

/**
 * The help for writing a custom pose the check understands (docs/safety.md "The help in the
 * generate panel"): the words it did not understand as the person types, with close words it
 * knows, and the building blocks offered as chips. Nothing here is recorded or counted.
 */
@ApiTags('generations')
@Controller('generations/custom-pose')
export class CustomPoseController {
  @Post('check')
  @HttpCode(200)
  @Authenticated({ scopes: ['generations:write'] })
  @ApiOperation({
    summary: 'Which words of a custom pose the check does not understand, with close words it knows (as I type)',
    description:
      'Answers the words, numbers and characters it did not understand, each word with up to three close words it knows, and ' +
      'whether the text is in another language (custom poses are English-only for now). Safety is not judged and nothing is ' +
      'recorded: a start (or POST /api/generations/check) judges it.',
  })
  @ApiOkResponse({ type: CustomPoseCheckResponseDto })
  checkCustomPose(@Body() body: CustomPoseCheckDto): CustomPoseCheckResponseDto {
    return understandCustomPose(body.text);
  }

  @Get('building-blocks')
  @ApiOperation({
    summary: 'Short phrases the check understands, to build a custom pose from (poses, places, light, mood, props)',
    description: 'Public and the same for everyone: the generate panel offers them as chips. Nothing is recorded.',
  })
  @ApiOkResponse({ type: BuildingBlocksResponseDto })
  getCustomPoseBuildingBlocks(): BuildingBlocksResponseDto {
    return { groups: BUILDING_BLOCKS.map((g) => ({ id: g.id, label: g.label, phrases: [...g.phrases] })) };
  }
}
