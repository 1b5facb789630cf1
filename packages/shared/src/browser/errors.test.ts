import { describe, expect, it } from 'vitest';
import { ApiError, callApi, errorMessage, NETWORK_ERROR_MESSAGE, toApiError, UNKNOWN_ERROR_MESSAGE } from './errors';

describe('how API failures become the messages people read', () => {
  it("shows the API's own message and keeps its status and code", () => {
    const error = toApiError({ statusCode: 429, code: 'RATE_LIMITED', message: 'Too many attempts. Please try again in 5 minutes.' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Too many attempts. Please try again in 5 minutes.' });
    expect(errorMessage(error)).toBe('Too many attempts. Please try again in 5 minutes.');
  });

  it('keeps what a custom pose check did not understand, for the generate panel to show with its suggestions', () => {
    const notUnderstood = { words: [{ word: 'beahc', suggestions: ['beach'] }], characters: [], other_language: false };
    const error = toApiError({
      statusCode: 400,
      code: 'CUSTOM_POSE_NOT_UNDERSTOOD',
      message: 'The word "beahc" wasn\'t understood.',
      not_understood: notUnderstood,
    });
    expect(error).toMatchObject({ status: 400, code: 'CUSTOM_POSE_NOT_UNDERSTOOD', notUnderstood });
    expect((toApiError({ statusCode: 400, code: 'VALIDATION_ERROR', message: 'No.' }) as ApiError).notUnderstood).toBeUndefined();
  });

  it('a request that got no answer is a network error', () => {
    expect(toApiError(new TypeError('Failed to fetch'))).toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      message: NETWORK_ERROR_MESSAGE,
    });
  });

  it('anything else (a proxy page, an empty 502) is an unexpected error with its status, never raw text', () => {
    const response = new Response('<html>Bad gateway</html>', { status: 502 });
    expect(toApiError('<html>Bad gateway</html>', response)).toMatchObject({
      status: 502,
      code: 'UNKNOWN_ERROR',
      message: UNKNOWN_ERROR_MESSAGE,
    });
    expect(errorMessage(new Error('stack trace details'))).toBe(UNKNOWN_ERROR_MESSAGE);
  });

  it('an abort is passed through untouched (so a cancelled query is not shown as a failure)', () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    expect(toApiError(abort)).toBe(abort);
  });

  it('callApi returns the data and the response, or throws the ApiError', async () => {
    const response = new Response(null, { status: 200 });
    await expect(callApi(Promise.resolve({ data: { ok: true }, response }))).resolves.toEqual({ data: { ok: true }, response });
    await expect(
      callApi(Promise.resolve({ error: { statusCode: 404, code: 'NOT_FOUND', message: 'Generation not found' } })),
    ).rejects.toMatchObject({
      status: 404,
      message: 'Generation not found',
    });
  });
});
