import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../common/response-headers';
import { parseListQuery, setContentRange, SimpleRestQueryDto } from '../../common/simple-rest';
import { OutboxMessageDetailDto, OutboxMessageDto } from './dto/outbox-message.dto';
import { OutboxService } from './outbox.service';
import type { Response } from 'express';

/** The console's Outbox page: mail kept in the outbox (Mailer.outbox) because SMTP_HOST is not set. */
@ApiTags('admin')
@Controller('admin/outbox')
export class OutboxController {
  constructor(private readonly outbox: OutboxService) {}

  @Get()
  @Authenticated({ roles: rolesFor('outbox', 'list') })
  @ApiOperation({
    summary: 'Mail written to the outbox (no SMTP_HOST), newest first',
    description: 'ra-data-simple-rest dialect (range only; sorted newest first). Empty when mail goes through SMTP.',
  })
  @ApiOkResponse({ type: [OutboxMessageDto], headers: contentRangeHeader('outbox') })
  async listOutboxMessages(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<OutboxMessageDto[]> {
    const params = parseListQuery(query, {
      sortable: { created_at: 'created_at', id: 'id' },
      defaultSort: ['created_at', 'DESC'],
      defaultPageSize: 50,
      filters: [],
    });
    const { rows, total } = await this.outbox.list(params.offset, params.limit);
    setContentRange(res, 'outbox', params.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  @Authenticated({ roles: rolesFor('outbox', 'show') })
  @ApiOperation({
    summary: 'One message of the outbox, with its text and HTML parts',
    description: 'The id is the file name the list answers; an unknown one (or a message removed from the folder meanwhile) answers 404.',
  })
  @ApiOkResponse({ type: OutboxMessageDetailDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  getOutboxMessage(@Param('id') id: string): Promise<OutboxMessageDetailDto> {
    return this.outbox.get(id);
  }
}
