import {
  cancelGeneration,
  checkGeneration,
  client,
  deleteGeneration,
  deleteUpload,
  downloadGeneration,
  type GenerationCheckDto,
  type GenerationCheckResponseDto,
  type GenerationListResponseDto,
  type GenerationResponseDto,
  type GenerationStartDto,
  getGeneration,
  type ListGenerationsData,
  listGenerations,
  startGeneration,
  type StreamGenerationEventsData,
  type UploadUsageDto,
  uploadPhotos,
  getUploadUsage as uploadUsage,
} from '@fitting-room/api-client';
import { callApi, unwrap } from '@fitting-room/shared/browser';

/** The generation routes of the API, through the typed client (each failure is an `ApiError`). */

export type Generation = GenerationResponseDto;
export type GenerationPage = GenerationListResponseDto;
export type GenerationStartBody = GenerationStartDto;
export type GenerationCheckBody = GenerationCheckDto;
export type GenerationCheck = GenerationCheckResponseDto;
export type UploadUsage = UploadUsageDto;
export type GenerationCategory = NonNullable<ListGenerationsData['query']>['category'];

export const generationApi = {
  /** POST /api/uploads: one batch of photos, confirmed as the person's own, 18+. */
  uploadPhotos: (files: File[], signal?: AbortSignal) => unwrap(uploadPhotos({ body: { files, confirm_own_photos: 'true' }, signal })),
  /** DELETE /api/uploads/:id: a photo taken out of the batch is not kept on the server. */
  removePhoto: async (id: string): Promise<void> => {
    await callApi(deleteUpload({ path: { id } }));
  },
  /** GET /api/uploads/usage: the photos and bytes of this hour, and the bytes kept, against the quotas. */
  uploadUsage: (signal?: AbortSignal) => unwrap(uploadUsage({ signal })),
  /**
   * POST /api/generations/check: a start's body without the photos. Answers the cost and the
   * balance, or throws the refusal (tier, video, the custom pose's safety, balance) as an `ApiError`;
   * nothing is uploaded or held.
   */
  check: (body: GenerationCheckBody, signal?: AbortSignal) => unwrap(checkGeneration({ body, signal })),
  start: (body: GenerationStartBody) => unwrap(startGeneration({ body })),
  get: (id: string, signal?: AbortSignal) => unwrap(getGeneration({ path: { id }, signal })),
  cancel: (id: string) => unwrap(cancelGeneration({ path: { id } })),
  list: (query: NonNullable<ListGenerationsData['query']>, signal?: AbortSignal) => unwrap(listGenerations({ query, signal })),
  remove: async (id: string): Promise<void> => {
    await callApi(deleteGeneration({ path: { id } }));
  },
  /**
   * GET /api/generations/:id/download redirects to a signed link; fetch follows it and the file
   * arrives as a Blob. (The OpenAPI document describes only the redirect, hence the cast.)
   */
  download: async (id: string): Promise<{ file: Blob; response: Response | undefined }> => {
    const { data, response } = await callApi(downloadGeneration({ path: { id }, parseAs: 'blob' }));
    return { file: data as unknown as Blob, response };
  },
  /**
   * The URL of GET /api/generations/:id/events for an EventSource, which cannot send headers:
   * the API accepts the access token in the query on this route only (the document declares it
   * as the `accessTokenQuery` security scheme, not as a parameter, hence the added query type).
   */
  eventsUrl: (id: string, accessToken: string) =>
    client.buildUrl<Omit<StreamGenerationEventsData, 'query'> & { query: { access_token: string } }>({
      url: '/api/generations/{id}/events',
      path: { id },
      query: { access_token: accessToken },
    }),
};
