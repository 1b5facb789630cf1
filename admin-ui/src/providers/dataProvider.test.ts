import { client } from '@fitting-room/api-client';
import { ApiError, NETWORK_ERROR_MESSAGE } from '@fitting-room/shared/browser';
import { HttpError } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, sessionStore } from '../auth/session';
import { apiError, FakeApi, ORIGIN, type Reply } from '../testing/fake-api';
import { dataProvider, httpClient } from './dataProvider';

const REFRESH = 'POST /api/auth/refresh';
const user = { id: 'admin-1', email: 'ada@example.com', full_name: 'Ada', role: 'admin' };
/** POST /api/auth/refresh's answer: a session with this access token. */
const session = (token: string): Reply => ({ body: { access_token: token, expires_at: Math.floor(Date.now() / 1000) + 900, user } });
const expired = apiError(401, 'AUTH_ERROR', 'Authentication error. Please sign in again.');

let api: FakeApi;

beforeEach(async () => {
  api = new FakeApi();
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal('window', { location: { origin: ORIGIN } });
  // The console's own client set-up (bearer token, one retry on 401), on an absolute origin for Node.
  configureApiClient();
  client.setConfig({ baseUrl: ORIGIN });
  api.on(REFRESH, session('token-1'));
  await sessionStore.refresh();
  api.requests.length = 0;
});

afterEach(() => {
  sessionStore.sessionEnded();
  vi.unstubAllGlobals();
});

describe('httpClient (every react-admin request)', () => {
  it("sends the session's access token", async () => {
    api.on('GET /api/admin/users/u1', { body: { id: 'u1' } });
    const { json } = await httpClient('/api/admin/users/u1');
    expect(json).toEqual({ id: 'u1' });
    expect(api.requests).toMatchObject([{ route: 'GET /api/admin/users/u1', token: 'token-1' }]);
  });

  it('after a 401 renews the token once and retries with the new one', async () => {
    api.on('GET /api/admin/users/u1', expired, { body: { id: 'u1' } }).on(REFRESH, session('token-2'));
    const { json } = await httpClient('/api/admin/users/u1');
    expect(json).toEqual({ id: 'u1' });
    expect(api.requests.map((r) => [r.route, r.token])).toEqual([
      ['GET /api/admin/users/u1', 'token-1'],
      [REFRESH, null],
      ['GET /api/admin/users/u1', 'token-2'],
    ]);
  });

  it('retries only once: a second 401 is the error react-admin sees', async () => {
    api.on('GET /api/admin/users/u1', expired).on(REFRESH, session('token-2'));
    const error = await httpClient('/api/admin/users/u1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 401 });
    expect(api.routes.filter((r) => r === 'GET /api/admin/users/u1')).toHaveLength(2);
  });

  it('does not retry when the session cannot be renewed', async () => {
    api.on('GET /api/admin/users/u1', expired).on(REFRESH, expired);
    await expect(httpClient('/api/admin/users/u1')).rejects.toMatchObject({ status: 401 });
    expect(api.routes).toEqual(['GET /api/admin/users/u1', REFRESH]);
  });

  it("a refusal is an HttpError with the API's message and code, and no refresh", async () => {
    api.on('DELETE /api/admin/users/u1', apiError(403, 'FORBIDDEN', 'You do not have permission to do this'));
    const error = await httpClient('/api/admin/users/u1', { method: 'DELETE' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'You do not have permission to do this', status: 403, body: { code: 'FORBIDDEN' } });
    expect(api.routes).toEqual(['DELETE /api/admin/users/u1']);
  });
});

describe('dataProvider', () => {
  it('reads a list page and its total from Content-Range', async () => {
    api.on('GET /api/admin/users', { body: [{ id: 'u1' }, { id: 'u2' }], headers: { 'Content-Range': 'users 0-1/42' } });
    const page = await dataProvider.getList('users', {
      pagination: { page: 1, perPage: 2 },
      sort: { field: 'created_at', order: 'DESC' },
      filter: { q: 'ann' },
    });
    expect(page).toEqual({ data: [{ id: 'u1' }, { id: 'u2' }], total: 42 });
    const { url } = api.requests[0]!;
    expect(url.searchParams.get('range')).toBe('[0,1]');
    expect(url.searchParams.get('sort')).toBe('["created_at","DESC"]');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({ q: 'ann' });
  });

  it("update sends only the resource's editable fields that changed", async () => {
    api.on('PUT /api/admin/users/u1', { body: { id: 'u1', tier: 'glow_up' } });
    const { data } = await dataProvider.update('users', {
      id: 'u1',
      data: { id: 'u1', tier: 'glow_up', email: 'new@example.com', credits: 99 },
      previousData: { id: 'u1', tier: 'free', email: 'ann@example.com', credits: 3 },
    });
    expect(api.requests[0]?.json).toEqual({ tier: 'glow_up' });
    expect(data).toEqual({ id: 'u1', tier: 'glow_up' });

    api.on('PUT /api/admin/support-inquiries/t%201', { body: { id: 't 1' } });
    await dataProvider.update('support-inquiries', {
      id: 't 1',
      data: { status: 'closed', priority: 'high', subject: 'changed' },
      previousData: { id: 't 1', status: 'open', priority: 'high' },
    });
    expect(api.requests[1]?.route).toBe('PUT /api/admin/support-inquiries/t%201');
    expect(api.requests[1]?.json).toEqual({ status: 'closed' });
  });

  it('edits templates and scenes with PATCH and only their editable fields', async () => {
    api.on('PATCH /api/admin/templates/bikini-black', { body: { id: 'bikini-black', name: 'Night' } });
    await dataProvider.update('templates', {
      id: 'bikini-black',
      data: { id: 'bikini-black', name: 'Night', shop_url: 'https://shop.example/x', thumbnail: '/t.svg', garment_photo_url: 'x' },
      previousData: { id: 'bikini-black', name: 'Day', shop_url: null, thumbnail: '/t.svg', garment_photo_url: 'x' },
    });
    expect(api.requests[0]?.json).toEqual({ name: 'Night', shop_url: 'https://shop.example/x' });

    api.on('PATCH /api/admin/scenes/beach-standing', { body: { id: 'beach-standing' } });
    await dataProvider.update('scenes', {
      id: 'beach-standing',
      data: { id: 'beach-standing', credit_cost: 2, category: null },
      previousData: { id: 'beach-standing', credit_cost: 1, category: null },
    });
    expect(api.requests[1]?.json).toEqual({ credit_cost: 2 });
  });

  it('refuses to update a resource the console cannot edit, without a request', async () => {
    await expect(dataProvider.update('audit-log', { id: 'a1', data: { action: 'x' }, previousData: { id: 'a1' } })).rejects.toThrow(
      'audit-log cannot be edited',
    );
    expect(api.requests).toEqual([]);
  });

  it("delete accepts the API's 204 and answers the record; deleteMany deletes each id in turn", async () => {
    api.on('DELETE /api/admin/notifications/n1', { status: 204 }).on('DELETE /api/admin/notifications/n2', { status: 204 });
    const one = await dataProvider.delete('notifications', { id: 'n1', previousData: { id: 'n1', read: true } });
    expect(one).toEqual({ data: { id: 'n1', read: true } });
    const many = await dataProvider.deleteMany('notifications', { ids: ['n1', 'n2'] });
    expect(many).toEqual({ data: ['n1', 'n2'] });
    expect(api.routes).toEqual([
      'DELETE /api/admin/notifications/n1',
      'DELETE /api/admin/notifications/n1',
      'DELETE /api/admin/notifications/n2',
    ]);
  });

  it('adjustCredits posts the adjustment with the bearer token and answers the updated user', async () => {
    api.on('POST /api/admin/users/u1/credits', { body: { id: 'u1', credits: 15 } });
    const updated = await dataProvider.adjustCredits('u1', { mode: 'add', amount: 5, reason: 'goodwill' });
    expect(updated).toEqual({ id: 'u1', credits: 15 });
    expect(api.requests).toMatchObject([
      { route: 'POST /api/admin/users/u1/credits', token: 'token-1', json: { mode: 'add', amount: 5, reason: 'goodwill' } },
    ]);
  });

  it("a refused extra call rejects with an ApiError in the API's words; a lost connection says so", async () => {
    api.on('POST /api/admin/users/u1/credits', apiError(400, 'INSUFFICIENT_CREDITS', 'Cannot deduct more credits than the user has'));
    const refused = await dataProvider.adjustCredits('u1', { mode: 'deduct', amount: 500, reason: 'abuse' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ message: 'Cannot deduct more credits than the user has', status: 400, code: 'INSUFFICIENT_CREDITS' });

    api.on('POST /api/admin/users/u1/credits', 'network');
    await expect(dataProvider.adjustCredits('u1', { mode: 'add', amount: 1, reason: 'x' })).rejects.toMatchObject({
      message: NETWORK_ERROR_MESSAGE,
    });
  });

  it('an extra call answered 401 renews the token once and is retried', async () => {
    api.on('GET /api/admin/queues', expired, { body: { queues: [] } }).on(REFRESH, session('token-2'));
    await expect(dataProvider.getQueues()).resolves.toEqual({ queues: [] });
    expect(api.requests.map((r) => [r.route, r.token])).toEqual([
      ['GET /api/admin/queues', 'token-1'],
      [REFRESH, null],
      ['GET /api/admin/queues', 'token-2'],
    ]);
  });

  it("removing a reported generation keeps the person's source photo unless asked", async () => {
    const route = 'POST /api/admin/support-inquiries/t1/remove-generation';
    api.on(route, { body: { id: 't1' } });
    await dataProvider.removeReportedGeneration('t1');
    await dataProvider.removeReportedGeneration('t1', { includeSource: true });
    expect(api.requests.map((r) => r.json)).toEqual([{ include_source: false }, { include_source: true }]);
  });
});
