import { Controller, HttpCode, Param, Post, Req, type RawBodyRequest } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/errors';
import { WebhookAckDto } from './dto/generation-response.dto';
import { ProviderWebhooksService } from './provider-webhooks.service';
import type { Request } from 'express';

/** Raw body of a webhook call: the JSON parser keeps it (rawBody), other types arrive as a Buffer. */
function rawBodyOf(req: RawBodyRequest<Request>): Buffer {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (Buffer.isBuffer(req.body)) return req.body;
  return Buffer.alloc(0);
}

@ApiTags('webhooks')
@Controller('webhooks/ai')
export class ProviderWebhooksController {
  constructor(private readonly webhooks: ProviderWebhooksService) {}

  @Post(':provider')
  @HttpCode(202)
  @ApiOperation({
    summary: "The AI provider's callback",
    description:
      'Called by the vendor, not by browsers. The provider verifies the call (signature or per-generation token); ' +
      'a verified final status makes the worker check the generation at once instead of at its next poll.',
  })
  @ApiAcceptedResponse({ type: WebhookAckDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'the call is not authentic' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'not the active provider, or it has no webhooks' })
  async receiveProviderWebhook(@Param('provider') provider: string, @Req() req: RawBodyRequest<Request>): Promise<WebhookAckDto> {
    await this.webhooks.accept(provider, req.headers, rawBodyOf(req), req.originalUrl);
    return { received: true };
  }
}
