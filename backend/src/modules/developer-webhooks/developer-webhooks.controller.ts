import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { type AuthUser, Authenticated, CurrentUser } from '../../common/auth';
import { ErrorResponseDto } from '../../common/errors';
import { DeveloperWebhooksService, MAX_WEBHOOK_ENDPOINTS } from './developer-webhooks.service';
import { WebhookDeliveryDto, WebhookEndpointCreateDto, WebhookEndpointCreatedDto, WebhookEndpointDto } from './dto/webhook.dto';

/**
 * Settings' "Webhooks": a signed-in session only. An API token cannot add or change where the
 * account's events go (these routes declare no scope: 403 API_TOKEN_NOT_ALLOWED).
 */
@ApiTags('developer')
@Authenticated()
@Controller('me/webhooks')
export class DeveloperWebhooksController {
  constructor(private readonly webhooks: DeveloperWebhooksService) {}

  @Get()
  @ApiOperation({
    summary: 'My webhook endpoints, each with its latest deliveries (the delivery log)',
    description: 'Never the signing secrets. A signed-in session only.',
  })
  @ApiOkResponse({ type: [WebhookEndpointDto] })
  listWebhookEndpoints(@CurrentUser() user: AuthUser): Promise<WebhookEndpointDto[]> {
    return this.webhooks.list(user.id);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a webhook endpoint: the answer shows its signing secret once',
    description:
      'Each event the endpoint subscribed to is POSTed to it as JSON, signed in the `Fitting-Room-Signature` header (docs/api.md), ' +
      `retried with backoff for about a day until it answers 2xx. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per account. ` +
      'A signed-in session only.',
  })
  @ApiCreatedResponse({ type: WebhookEndpointCreatedDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: a URL that is not allowed, unknown events, too many endpoints',
  })
  createWebhookEndpoint(@CurrentUser() user: AuthUser, @Body() body: WebhookEndpointCreateDto): Promise<WebhookEndpointCreatedDto> {
    return this.webhooks.create(user, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one of my webhook endpoints, with its delivery log', description: 'Pending retries stop.' })
  @ApiNoContentResponse({ description: 'deleted' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such endpoint' })
  deleteWebhookEndpoint(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.webhooks.remove(user.id, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event (`webhook.test`) to one of my endpoints',
    description:
      'Queued at once and sent by a worker, once (no retries): its outcome appears in the delivery log. A switched-off endpoint ' +
      'gets it too, and is switched on again when it answers 2xx.',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not mine, or no such endpoint' })
  sendWebhookTestEvent(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.sendTest(user.id, id);
  }
}
