import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../common/auth';
import { ValidationError } from '../../common/errors';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { MyTicketDto, MyTicketReplyDto, MyTicketsResponseDto } from './dto/my-ticket.dto';
import { SupportService, TICKET_CLOSED, TICKET_NOT_FOUND } from './support.service';

const ticketNumberPipe = new ParseIntPipe({ exceptionFactory: () => new ValidationError('Invalid ticket number') });

/** "My tickets": the signed-in person's own messages to support, their replies, and writing again. */
@ApiTags('me')
@Authenticated()
@Controller('me/tickets')
export class MyTicketsController {
  constructor(private readonly support: SupportService) {}

  @Get()
  @ApiOperation({
    summary: 'My tickets: the messages I sent to support while signed in, newest first, with the replies',
    description: 'At most 100. Internal notes of the support team are never included.',
  })
  @ApiOkResponse({ type: MyTicketsResponseDto })
  listMyTickets(@CurrentUser() user: AuthUser): Promise<MyTicketsResponseDto> {
    return this.support.listOwn(user.id);
  }

  @Get(':number')
  @ApiParam({ name: 'number', type: 'integer', example: 1042 })
  @ApiOperation({
    summary: 'One of my tickets, by its number, with the replies and my messages',
    description: 'Staff replies and my own messages, oldest first; internal notes never appear. Another person’s ticket answers 404.',
  })
  @ApiOkResponse({ type: MyTicketDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: `${TICKET_NOT_FOUND} (also for another person's ticket)` })
  getMyTicket(@CurrentUser() user: AuthUser, @Param('number', ticketNumberPipe) number: number): Promise<MyTicketDto> {
    return this.support.findOwn(user.id, number);
  }

  @Post(':number/messages')
  @HttpCode(201)
  @ApiParam({ name: 'number', type: 'integer', example: 1042 })
  @ApiOperation({
    summary: 'Write again on my ticket: it opens again for the support team',
    description: 'A ticket waiting for me (in_progress) or resolved becomes open. A closed ticket takes no more messages (409).',
  })
  @ApiOkResponse({ type: MyTicketDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'an empty or too long message' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: TICKET_NOT_FOUND })
  @ApiConflictResponse({ type: ErrorResponseDto, description: TICKET_CLOSED })
  replyToMyTicket(
    @CurrentUser() user: AuthUser,
    @Param('number', ticketNumberPipe) number: number,
    @Body() body: MyTicketReplyDto,
  ): Promise<MyTicketDto> {
    return this.support.replyAsOwner(user.id, number, body.message);
  }
}
