import { Body, Controller, Get, Param, Patch, Post, Put, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  type ApiBodyOptions,
} from '@nestjs/swagger';
import { Authenticated, CurrentUser, type AuthUser } from '../../../common/auth';
import { rolesFor } from '../../../common/auth/access-policy';
import { ErrorResponseDto } from '../../../common/errors/error-response.dto';
import { contentRangeHeader } from '../../../common/response-headers';
import { setContentRange, SimpleRestQueryDto } from '../../../common/simple-rest';
import {
  AdminSceneCreateDto,
  AdminSceneDto,
  AdminSceneUpdateDto,
  AdminTemplateCreateDto,
  AdminTemplateDto,
  AdminTemplateUpdateDto,
} from './catalog-admin.dto';
import { CatalogAdminService } from './catalog-admin.service';
import { CATALOG_PHOTO_FIELD, CatalogPhotoInterceptor } from './catalog-photo.interceptor';
import type { Response } from 'express';

const LIST_NOTE =
  'ra-data-simple-rest dialect: sort, range and filter (q, id, category, required_tier, enabled) as JSON; answers an array with a Content-Range header. Admins only.';
const EDIT_NOTE =
  'Audited; shown by GET /api/catalog on every API process within seconds. Texts may not mention nudity, see-through clothing or ' +
  'anything that suggests a minor; a new or changed prompt text must pass the custom pose safety check (its message is answered). Admins only.';
const PHOTO_BODY: ApiBodyOptions = {
  schema: {
    type: 'object',
    required: [CATALOG_PHOTO_FIELD],
    properties: { [CATALOG_PHOTO_FIELD]: { type: 'string', format: 'binary' } },
  },
};
const PHOTO_NOTE =
  'Multipart form, field `file`: a JPEG, PNG or WebP under 10MB, judged and re-encoded like a user upload (no metadata kept), stored ' +
  'privately and never public. Replaces the previous photo. Audited. Admins only.';

/** The console's catalogue: templates and scenes (ra-data-simple-rest), their edits and photos. */
@ApiTags('admin')
@Controller('admin')
export class CatalogAdminController {
  constructor(private readonly catalog: CatalogAdminService) {}

  @Get('templates')
  @Authenticated({ roles: rolesFor('templates', 'list') })
  @ApiOperation({ summary: 'Templates of the catalogue, disabled ones included (sorted by sort_order by default)', description: LIST_NOTE })
  @ApiOkResponse({ type: [AdminTemplateDto], headers: contentRangeHeader('templates') })
  async listAdminTemplates(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<AdminTemplateDto[]> {
    const params = this.catalog.parse(query, 'template');
    const { rows, total } = await this.catalog.listTemplates(params);
    setContentRange(res, 'templates', params.offset, rows.length, total);
    return rows;
  }

  @Post('templates')
  @Authenticated({ roles: rolesFor('templates', 'create') })
  @ApiOperation({ summary: 'Add a template (its thumbnail is drawn like the first template of its category)', description: EDIT_NOTE })
  @ApiCreatedResponse({ type: AdminTemplateDto })
  @ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'VALIDATION_ERROR: a missing or bad field, an unsafe text, a link that is not https',
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the id is taken' })
  createAdminTemplate(@CurrentUser() actor: AuthUser, @Body() body: AdminTemplateCreateDto): Promise<AdminTemplateDto> {
    return this.catalog.createTemplate(actor.id, body);
  }

  @Get('templates/:id')
  @Authenticated({ roles: rolesFor('templates', 'show') })
  @ApiOperation({ summary: 'A template, with a short-lived signed link to its garment photo', description: 'Admins only.' })
  @ApiOkResponse({ type: AdminTemplateDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such template' })
  getAdminTemplate(@Param('id') id: string): Promise<AdminTemplateDto> {
    return this.catalog.template(id);
  }

  @Patch('templates/:id')
  @Authenticated({ roles: rolesFor('templates', 'edit') })
  @ApiOperation({ summary: 'Edit a template: name, description, prompt text, tier, order, enabled, shop link', description: EDIT_NOTE })
  @ApiOkResponse({ type: AdminTemplateDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: a bad field, an unsafe text, a link that is not https' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such template' })
  updateAdminTemplate(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @Body() body: AdminTemplateUpdateDto,
  ): Promise<AdminTemplateDto> {
    return this.catalog.updateTemplate(actor.id, id, body);
  }

  @Put('templates/:id/garment')
  @Authenticated({ roles: rolesFor('templates', 'edit') })
  @UseInterceptors(CatalogPhotoInterceptor)
  @ApiOperation({
    summary: "Upload the template's garment photo (packshot, flat-lay or on-model): what AI vendors receive instead of the artwork",
    description: PHOTO_NOTE,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(PHOTO_BODY)
  @ApiOkResponse({ type: AdminTemplateDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: no photo, not an image, too many pixels' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'PAYLOAD_TOO_LARGE: 10MB or more' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such template' })
  setAdminTemplateGarment(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<AdminTemplateDto> {
    return this.catalog.setGarmentPhoto(actor.id, id, file);
  }

  @Put('templates/:id/thumbnail')
  @Authenticated({ roles: rolesFor('templates', 'edit') })
  @UseInterceptors(CatalogPhotoInterceptor)
  @ApiOperation({
    summary: "Upload the template's thumbnail: the public catalogue picture shown in place of the illustrated artwork",
    description:
      'Multipart form, field `file`: a JPEG, PNG or WebP under 10MB, judged and re-encoded like a user upload (no metadata kept), ' +
      'fitted inside 600x800 and served publicly at GET /api/catalog/artwork/{id}.jpg (GET /api/catalog names it within seconds). ' +
      'Vendors never receive it (they get the garment photo, else the artwork). Replaces the previous thumbnail. Audited. Admins only.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(PHOTO_BODY)
  @ApiOkResponse({ type: AdminTemplateDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: no picture, not an image, too many pixels' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'PAYLOAD_TOO_LARGE: 10MB or more' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such template' })
  setAdminTemplateThumbnail(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<AdminTemplateDto> {
    return this.catalog.setThumbnail(actor.id, id, file);
  }

  @Get('scenes')
  @Authenticated({ roles: rolesFor('scenes', 'list') })
  @ApiOperation({ summary: 'Scenes (poses) of the catalogue, disabled ones included', description: LIST_NOTE })
  @ApiOkResponse({ type: [AdminSceneDto], headers: contentRangeHeader('scenes') })
  async listAdminScenes(@Query() query: SimpleRestQueryDto, @Res({ passthrough: true }) res: Response): Promise<AdminSceneDto[]> {
    const params = this.catalog.parse(query, 'scene');
    const { rows, total } = await this.catalog.listScenes(params);
    setContentRange(res, 'scenes', params.offset, rows.length, total);
    return rows;
  }

  @Post('scenes')
  @Authenticated({ roles: rolesFor('scenes', 'create') })
  @ApiOperation({
    summary: "Add a scene: an id starting with a category's prefix (bikini-, activewear-...) belongs to that category, others are generic",
    description: EDIT_NOTE,
  })
  @ApiCreatedResponse({ type: AdminSceneDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: a missing or bad field, an unsafe text' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'CONFLICT: the id is taken' })
  createAdminScene(@CurrentUser() actor: AuthUser, @Body() body: AdminSceneCreateDto): Promise<AdminSceneDto> {
    return this.catalog.createScene(actor.id, body);
  }

  @Get('scenes/:id')
  @Authenticated({ roles: rolesFor('scenes', 'show') })
  @ApiOperation({ summary: 'A scene, with a short-lived signed link to its reference photo', description: 'Admins only.' })
  @ApiOkResponse({ type: AdminSceneDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such scene' })
  getAdminScene(@Param('id') id: string): Promise<AdminSceneDto> {
    return this.catalog.scene(id);
  }

  @Patch('scenes/:id')
  @Authenticated({ roles: rolesFor('scenes', 'edit') })
  @ApiOperation({
    summary: 'Edit a scene: name, description, prompt text, tier, credit cost, order, enabled',
    description: `${EDIT_NOTE} The credit cost is the scene's image cost in the one cost rule (a video adds the catalogue's videoSurcharge).`,
  })
  @ApiOkResponse({ type: AdminSceneDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: a bad field or an unsafe text' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such scene' })
  updateAdminScene(@CurrentUser() actor: AuthUser, @Param('id') id: string, @Body() body: AdminSceneUpdateDto): Promise<AdminSceneDto> {
    return this.catalog.updateScene(actor.id, id, body);
  }

  @Put('scenes/:id/garment')
  @Authenticated({ roles: rolesFor('scenes', 'edit') })
  @UseInterceptors(CatalogPhotoInterceptor)
  @ApiOperation({ summary: "Upload the scene's reference photo (shown in the console)", description: PHOTO_NOTE })
  @ApiConsumes('multipart/form-data')
  @ApiBody(PHOTO_BODY)
  @ApiOkResponse({ type: AdminSceneDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'VALIDATION_ERROR: no photo, not an image, too many pixels' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'PAYLOAD_TOO_LARGE: 10MB or more' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'no such scene' })
  setAdminSceneReference(
    @CurrentUser() actor: AuthUser,
    @Param('id') id: string,
    @UploadedFile() file: Express.Multer.File | undefined,
  ): Promise<AdminSceneDto> {
    return this.catalog.setReferencePhoto(actor.id, id, file);
  }
}
