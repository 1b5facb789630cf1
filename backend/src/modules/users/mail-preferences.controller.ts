import { Body, Controller, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidationError } from '../../common/errors';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { MAIL_CATEGORIES, type MailCategory } from './mail-preferences';
import { UserMailService } from './user-mail.service';

/** The body of a one-click unsubscribe: RFC 8058's `List-Unsubscribe=One-Click` (form) from a mail client, or the token from the user app's page. */
export class MailUnsubscribeDto {
  @ApiPropertyOptional({ description: 'the token of the unsubscribe link (when not in the query)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @ApiPropertyOptional({ example: 'One-Click', description: 'sent by mail clients (RFC 8058)', name: 'List-Unsubscribe' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  'List-Unsubscribe'?: string;
}

export class MailUnsubscribeResponseDto {
  @ApiProperty({ enum: Object.keys(MAIL_CATEGORIES) })
  category: MailCategory;

  @ApiProperty({ example: 'You will no longer get marketing emails.' })
  message: string;
}

const INVALID = 'This unsubscribe link is not valid. You can turn emails off in your settings.';

@ApiTags('me')
@Controller('mail')
export class MailPreferencesController {
  constructor(private readonly mail: UserMailService) {}

  @Post('unsubscribe')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'One-click unsubscribe (RFC 8058): turns off the kind of mail the token names; no sign-in needed',
    description:
      "The List-Unsubscribe header of each mail points here with `?token=`; the user app's /unsubscribe page sends the token in the body.",
  })
  @ApiQuery({ name: 'token', required: false })
  @ApiOkResponse({ type: MailUnsubscribeResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: INVALID })
  async unsubscribeFromMail(
    @Query('token') queryToken: string | undefined,
    @Body() body: MailUnsubscribeDto,
  ): Promise<MailUnsubscribeResponseDto> {
    const token = typeof queryToken === 'string' && queryToken ? queryToken : body?.token;
    const category = token ? await this.mail.unsubscribeWith(token) : null;
    if (!category) throw new ValidationError(INVALID);
    return { category, message: `You will no longer get ${MAIL_CATEGORIES[category].label}.` };
  }
}
