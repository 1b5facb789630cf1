import { FaceErrorCode } from '@fitting-room/shared/error-catalogue';
import { SELFIE_CATEGORIES } from '@fitting-room/shared/face-checks';
import { Body, Controller, Get, HttpCode, Post, UploadedFiles, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { FaceConsentDto, FaceStatusDto, SelfieChallengeDto, SelfieResultDto } from './dto/face-checks.dto';
import { FaceChecksService } from './face-checks.service';
import { TURN_RULES } from './face-geometry';
import { SELFIE_FRAMES_FIELD, SelfieFramesInterceptor } from './selfie-frames.interceptor';

/** "Only you": the consent to the face checks and the live selfie (docs/safety.md). */
@ApiTags('faces')
@Authenticated({ verifiedAdult: true })
@Controller('faces')
export class FacesController {
  constructor(private readonly faces: FaceChecksService) {}

  @Get('status')
  @ApiOperation({
    summary: 'My face checks: consent, and whether a live selfie verified my face',
    description:
      'Whether this server runs the face checks, the consent’s wording and version, and the categories that need the live selfie.',
  })
  @ApiOkResponse({ type: FaceStatusDto })
  async getFaceStatus(@CurrentUser() user: AuthUser): Promise<FaceStatusDto> {
    const status = await this.faces.status(user.id);
    const { text, version } = this.faces.consentText;
    return {
      checks: this.faces.enabled,
      consented: status.consented,
      consent_text: text,
      consent_version: version,
      verified: status.verifiedAt !== null,
      verified_at: status.verifiedAt ? new Date(status.verifiedAt).toISOString() : null,
      selfie_categories: [...SELFIE_CATEGORIES],
    };
  }

  @Post('consent')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Agree to the face checks (recorded with the time and the wording’s version)',
    description: 'Needed before the first photo is checked. The face measurements stay on our servers and are deleted with the photos.',
  })
  @ApiOkResponse({ type: FaceStatusDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: not the current version' })
  async giveFaceConsent(@CurrentUser() user: AuthUser, @Body() body: FaceConsentDto): Promise<FaceStatusDto> {
    await this.faces.consent(user.id, body.version);
    return this.getFaceStatus(user);
  }

  @Post('selfie/challenges')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start a live selfie: the head turn to make (valid 3 minutes, used once)',
    description:
      'At most 10 an hour. The browser then takes `frames` camera frames `interval_ms` apart while the person turns their head as asked and back.',
  })
  @ApiOkResponse({ type: SelfieChallengeDto })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: `${FaceErrorCode.FACE_CONSENT_REQUIRED}` })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'RATE_LIMITED: 10 selfie checks in the last hour' })
  startSelfieChallenge(@CurrentUser() user: AuthUser): Promise<SelfieChallengeDto> {
    return this.faces.challenge(user.id);
  }

  @Post('selfie')
  @HttpCode(200)
  @UseInterceptors(SelfieFramesInterceptor)
  @ApiOperation({
    summary: 'Send a live selfie: the camera frames of a challenge',
    description:
      `Multipart form: \`challenge_id\` and \`${SELFIE_FRAMES_FIELD}\` (${TURN_RULES.minFrames} to ${TURN_RULES.maxFrames} JPEG frames, in order). ` +
      'Judged on this server: one face in every frame, the same person throughout, the asked head turn and back, and the face matching my photos ' +
      '(those it matches become verified). The frames are never stored. A refusal is recorded for the console.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['challenge_id', SELFIE_FRAMES_FIELD],
      properties: {
        challenge_id: { type: 'string', format: 'uuid' },
        [SELFIE_FRAMES_FIELD]: {
          type: 'array',
          items: { type: 'string', format: 'binary' },
          minItems: TURN_RULES.minFrames,
          maxItems: TURN_RULES.maxFrames,
        },
      },
    },
  })
  @ApiOkResponse({ type: SelfieResultDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: `${FaceErrorCode.FACE_SELFIE_FAILED}: another person, no head turn (a still picture), no face, or the challenge expired`,
  })
  async verifySelfie(
    @CurrentUser() user: AuthUser,
    @UploadedFiles() files: Express.Multer.File[] | undefined,
    @Body() body: { challenge_id?: string },
  ): Promise<SelfieResultDto> {
    const result = await this.faces.verifySelfie(
      user.id,
      String(body?.challenge_id ?? ''),
      (files ?? []).map((f) => f.buffer),
    );
    return { verified: true, verified_at: result.verifiedAt.toISOString(), photos_matched: result.photosMatched };
  }
}
