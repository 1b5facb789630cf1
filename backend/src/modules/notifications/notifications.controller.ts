import { Body, Controller, Get, Param, Patch, Put, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { rolesFor } from '../../common/auth/access-policy';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../common/response-headers';
import { setContentRange, SimpleRestQueryDto } from '../../common/simple-rest';
import { NotificationRowDto } from './dto/notification-row.dto';
import { NotificationUpdateDto } from './dto/notification-update.dto';
import { NotificationsService } from './notifications.service';
import type { Response } from 'express';

const LIST_NOTE =
  'ra-data-simple-rest dialect: sort, range and filter (read, severity, type, q) as JSON; answers an array with a Content-Range header. 50 a page, newest first.';

/** The console's notifications (admins only). */
@ApiTags('admin')
@Controller('admin/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @Authenticated({ roles: rolesFor('notifications', 'list') })
  @ApiOperation({ summary: 'System notifications, newest first', description: LIST_NOTE })
  @ApiOkResponse({ type: [NotificationRowDto], headers: contentRangeHeader('notifications') })
  async listAdminNotifications(
    @Query() query: SimpleRestQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<NotificationRowDto[]> {
    const params = this.notifications.parse(query);
    const { rows, total } = await this.notifications.list(params);
    setContentRange(res, 'notifications', params.offset, rows.length, total);
    return rows;
  }

  @Get(':id')
  @Authenticated({ roles: rolesFor('notifications', 'show') })
  @ApiOperation({
    summary: 'One system notification',
    description:
      'With who read it and when (`read_by`, `read_at`), once someone has. An id that is not a UUID answers 400, an unknown one 404.',
  })
  @ApiOkResponse({ type: NotificationRowDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such notification' })
  getAdminNotification(@Param('id') id: string): Promise<NotificationRowDto> {
    return this.notifications.get(id);
  }

  @Patch(':id')
  @Authenticated({ roles: rolesFor('notifications', 'edit') })
  @ApiOperation({
    summary: 'Mark a notification read ({ read: true }; no way back; audited)',
    description:
      'The first marking records the reader and the time and writes an audit row; marking it again changes nothing and answers it as it is. ' +
      '`read: false` is refused (400): a notification cannot be made unread.',
  })
  @ApiOkResponse({ type: NotificationRowDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or read is not true' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such notification' })
  markAdminNotificationRead(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: NotificationUpdateDto,
  ): Promise<NotificationRowDto> {
    return this.notifications.markRead(actor.id, id, body.read);
  }

  @Put(':id')
  @Authenticated({ roles: rolesFor('notifications', 'edit') })
  @ApiOperation({
    summary: 'Mark a notification read (PUT, as ra-data-simple-rest sends it)',
    description: "The same as PATCH /api/admin/notifications/{id}: react-admin's update sends PUT. Only `{ read: true }` is accepted.",
  })
  @ApiOkResponse({ type: NotificationRowDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: the id is not a UUID, or read is not true' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such notification' })
  replaceAdminNotification(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: NotificationUpdateDto,
  ): Promise<NotificationRowDto> {
    return this.notifications.markRead(actor.id, id, body.read);
  }
}
