import { Controller, Get, NotFoundException, Param, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth';
import { CatalogService, type CatalogEncoding } from './catalog.service';
import { CatalogResponseDto } from './dto/catalog-response.dto';
import { isTier, Tier } from './tiers';
import type { Request, Response } from 'express';

/**
 * What the auth guard puts on the request when a valid bearer token comes with it. `tier` is read
 * when the guard provides it; until then a signed-in caller is treated as free.
 */
interface RequestWithUser extends Request {
  user?: { id?: string; role?: string; tier?: unknown };
}

/** The caller's tier: the signed-in user's, or free for an anonymous visitor. */
export function callerTier(req: RequestWithUser): Tier {
  const tier = req.user?.tier;
  return isTier(tier) ? tier : 'free';
}

/** Short: an admin's edit reaches visitors within seconds. */
export const CATALOG_MAX_AGE_SECONDS = 5;
export const ARTWORK_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * A catalogue picture's caching and sharing: a year (immutable) when asked for with its current
 * version `?v=`, 5 minutes otherwise; its version as ETag; embeddable from any origin, never sniffed.
 */
function setPictureHeaders(res: Response, current: string, asked: string | string[] | undefined): void {
  res.setHeader('Cache-Control', asked === current ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
  res.setHeader('ETag', `"${current}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
}

@ApiTags('catalog')
@Controller('catalog')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  /**
   * Public. The `locked` flags depend on the caller's tier, so an anonymous answer may be cached by
   * anyone (public) and a signed-in one only by the browser (private); both vary on Authorization.
   */
  @Get()
  @Authenticated({ optional: true, scopes: ['account:read'] })
  @ApiOperation({
    summary: 'The catalogue: categories, templates, scenes, the custom pose, plans, packs, tiers and the cost rule',
    description:
      'Public. Templates and scenes carry `locked` for the caller (an anonymous caller is free tier). ' +
      "A generation costs a scene's creditCost, plus videoSurcharge for a video; the custom pose costs customPose.creditCost. " +
      'Categories switched off by configuration are left out. Cached for 5 s when signed out (public); never stored when signed in, like every answer to a signed-in caller.',
  })
  @ApiOkResponse({ type: CatalogResponseDto })
  getCatalog(@Req() req: RequestWithUser, @Res() res: Response): void {
    const anonymous = !req.user && !req.headers.authorization;
    res.setHeader('Cache-Control', anonymous ? `public, max-age=${CATALOG_MAX_AGE_SECONDS}` : 'no-store');
    res.vary('Authorization').vary('Accept-Encoding');
    // made once per catalogue change and tier, compressed already (the compression middleware leaves it alone)
    const encoding = (req.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as CatalogEncoding;
    const { bytes, etag } = this.catalog.encodedCatalog(callerTier(req), encoding);
    res.setHeader('ETag', etag);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('application/json; charset=utf-8');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.send(bytes);
  }

  @Get('artwork/:id.svg')
  @ApiOperation({
    summary: 'A template or scene thumbnail (SVG)',
    description:
      'Public. Use the URLs of GET /api/catalog: with the current `v` the picture is cached for a year (immutable); ' +
      'without it, or with an old one, the current picture is answered with a short cache lifetime.',
  })
  @ApiParam({
    name: 'id',
    type: String,
    example: 'bikini-yellow',
    description: 'template or scene id, `custom`, or `before-<template id>` (the same figure in everyday clothes, for the landing page)',
  })
  @ApiQuery({ name: 'v', type: String, required: false, description: 'content version from the catalogue URL' })
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'the SVG picture', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: 'no such picture (or its category is switched off)' })
  getArtwork(
    @Param('id') id: string,
    @Query('v') version: string | string[] | undefined,
    @Res({ passthrough: true }) res: Response,
  ): string {
    const picture = this.catalog.getArtwork(id);
    if (!picture) throw new NotFoundException();
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    setPictureHeaders(res, picture.version, version);
    // the picture is inert: no scripts, no external loads
    res.setHeader('Content-Security-Policy', ARTWORK_CSP);
    return picture.svg;
  }

  @Get('artwork/:id.webp')
  @ApiOperation({
    summary: 'A drawn template or scene picture as WebP (600x800)',
    description:
      'Public. The same picture as `<id>.svg`, rasterised, for pages that show many of them (the landing page): ' +
      'with the current `v` it is cached for a year (immutable); without it, or with an old one, for 5 minutes.',
  })
  @ApiParam({ name: 'id', type: String, example: 'bikini-yellow', description: 'as for the SVG picture' })
  @ApiQuery({ name: 'v', type: String, required: false, description: 'content version from the catalogue URL' })
  @ApiProduces('image/webp')
  @ApiOkResponse({ description: 'the WebP picture', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: 'no such picture (or its category is switched off)' })
  async getArtworkWebp(
    @Param('id') id: string,
    @Query('v') version: string | string[] | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const picture = await this.catalog.getArtworkWebp(id);
    if (!picture) throw new NotFoundException();
    setPictureHeaders(res, picture.version, version);
    return new StreamableFile(picture.body, { type: 'image/webp', length: picture.body.length });
  }

  @Get('artwork/:id.jpg')
  @ApiOperation({
    summary: "A template's thumbnail uploaded in the console (JPEG)",
    description:
      'Public: a catalogue picture, like the drawn artwork it replaces. Use the URLs of GET /api/catalog: with the current `v` ' +
      'it is cached for a year (immutable); without it, or with an old one, the current picture is answered with a short cache lifetime.',
  })
  @ApiParam({ name: 'id', type: String, example: 'bikini-yellow', description: 'template id' })
  @ApiQuery({ name: 'v', type: String, required: false, description: 'content version from the catalogue URL' })
  @ApiProduces('image/jpeg')
  @ApiOkResponse({ description: 'the JPEG picture', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ description: 'no uploaded thumbnail for this id (or its category is switched off)' })
  async getThumbnailPhoto(
    @Param('id') id: string,
    @Query('v') version: string | string[] | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const picture = await this.catalog.getThumbnailPhoto(id);
    if (!picture) throw new NotFoundException();
    res.setHeader('Content-Type', 'image/jpeg');
    setPictureHeaders(res, picture.version, version);
    return new StreamableFile(picture.body, { type: 'image/jpeg', length: picture.body.length });
  }
}
