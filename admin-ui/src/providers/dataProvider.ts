import {
  adjustUserCredits,
  type AdminCreditsAdjustDto,
  type AdminRevenueDto,
  type AdminStatsDto,
  type AdminSuspensionDto,
  type AdminTierChangePreviewDto,
  type AdminUserDetailsDto,
  chooseReportedGeneration,
  createQueueBoardSession,
  createSupportMessage,
  getAdminRevenue,
  getAdminStats,
  getQueueOverview,
  previewAdminUserTierChange,
  type QueueOverviewDto,
  removeReportedGeneration,
  setAdminSceneReference,
  setAdminTemplateGarment,
  setAdminTemplateThumbnail,
  setAdminUserRole,
  type SupportInquiryDetailsDto,
  type SupportMessageCreateDto,
  type SupportMessageDto,
  suspendAdminUser,
  unsuspendAdminUser,
  updateAdminUser,
  type UserRole,
} from '@fitting-room/api-client';
import { callApi } from '@fitting-room/shared/browser';
import simpleRestProvider from 'ra-data-simple-rest';
import { type DataProvider, fetchUtils, HttpError } from 'react-admin';
import { sessionStore } from '../auth/session';

/** The typed client's answer, or an ApiError carrying the API's message (the product's wording). */
const data = async <T>(call: Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T> => (await callApi(call)).data;

export const API_URL = '/api/admin';

/**
 * fetchJson with `Authorization: Bearer <access token>`; a 401 renews the token once (through the
 * shared session store, under its cross-tab lock) and retries. Errors are react-admin HttpErrors
 * whose message is the API's (the product's wording).
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const send = (token: string | null) => {
    const headers = new Headers(options.headers ?? { Accept: 'application/json' });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetchUtils.fetchJson(url, { ...options, headers });
  };
  const token = sessionStore.getAccessToken();
  try {
    return await send(token);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 401) throw error;
    const renewed = await sessionStore.renewAccessToken(token);
    if (!renewed) throw error;
    return send(renewed);
  }
}

/** The only fields each resource's PUT reads (the API's validation pipe refuses any other). */
const EDITABLE_FIELDS: Record<string, readonly string[]> = {
  users: ['tier'],
  notifications: ['read'],
  'support-inquiries': ['status', 'priority'],
  templates: ['name', 'description', 'prompt_description', 'required_tier', 'sort_order', 'enabled', 'shop_url'],
  scenes: ['name', 'description', 'prompt_description', 'required_tier', 'credit_cost', 'sort_order', 'enabled'],
};

/** Resources whose edits are PATCH (the others take PUT, as ra-data-simple-rest sends it). */
const PATCHED = new Set(['templates', 'scenes']);

function editablePart(resource: string, data: Record<string, unknown>, previous?: Record<string, unknown>) {
  const fields = EDITABLE_FIELDS[resource];
  if (!fields) throw new Error(`${resource} cannot be edited`);
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (data[field] === undefined) continue;
    if (previous && previous[field] === data[field]) continue;
    body[field] = data[field];
  }
  return body;
}

/** The calls that are not CRUD, through the typed client (same bearer token and retry). */
export interface ConsoleDataProvider extends DataProvider {
  getStats(): Promise<AdminStatsDto>;
  /** MRR, packs sold, revenue and refunds of the last 30 days (admin only). */
  getRevenue(): Promise<AdminRevenueDto>;
  adjustCredits(userId: string, body: AdminCreditsAdjustDto): Promise<AdminUserDetailsDto>;
  /** What changing the tier would do now, by the server's rule (the confirmation's words and figures); changes nothing. */
  previewTierChange(userId: string, tier: string): Promise<AdminTierChangePreviewDto>;
  /** Changes the tier; a 409 when it would now give another number of credits than the confirmation said. */
  changeTier(userId: string, tier: string, expectedCreditsAdded: number): Promise<AdminUserDetailsDto>;
  /** Sets an account's role (admin only, audited). */
  setRole(userId: string, role: UserRole): Promise<AdminUserDetailsDto>;
  /** Suspends an account with a reason (admin only, audited): sessions end, a running generation is cancelled. */
  suspendUser(userId: string, body: AdminSuspensionDto): Promise<AdminUserDetailsDto>;
  /** Lifts a suspension (admin only, audited): the person may sign in again. */
  unsuspendUser(userId: string): Promise<AdminUserDetailsDto>;
  addTicketMessage(ticketId: string, body: SupportMessageCreateDto): Promise<SupportMessageDto>;
  /** Removes the generation an abuse report names (files included) and notes it on the ticket. */
  removeReportedGeneration(ticketId: string, options?: { includeSource?: boolean }): Promise<SupportInquiryDetailsDto>;
  /** Chooses which of a report's candidates is the reported image (null: none of them); answers the ticket. */
  chooseReportedGeneration(ticketId: string, generationId: string | null): Promise<SupportInquiryDetailsDto>;
  getQueues(): Promise<QueueOverviewDto>;
  /** A template's garment photo or a scene's reference photo (admin only, audited); answers the record. */
  uploadCatalogPhoto(resource: 'templates' | 'scenes', id: string, file: File): Promise<unknown>;
  /** A template's thumbnail, the public catalogue picture (admin only, audited); answers the record. */
  uploadTemplateThumbnail(id: string, file: File): Promise<unknown>;
  /** Sets the short-lived cookie that lets this browser open Bull Board (admin only). */
  openQueueBoardSession(): Promise<unknown>;
}

const base = simpleRestProvider(API_URL, httpClient);

/**
 * The console's data layer: the admin routes speak the ra-data-simple-rest dialect (`sort`,
 * `range`, `filter`; `Content-Range`). `update` sends only the editable fields; `delete` accepts
 * the API's 204; the calls that are not CRUD are extra methods (react-admin's `useDataProvider`).
 */
export const dataProvider: ConsoleDataProvider = {
  ...base,
  async update(resource, params) {
    const body = editablePart(resource, params.data, params.previousData);
    const { json: record } = await httpClient(`${API_URL}/${resource}/${encodeURIComponent(params.id)}`, {
      method: PATCHED.has(resource) ? 'PATCH' : 'PUT',
      body: JSON.stringify(body),
    });
    return { data: record };
  },
  async delete(resource, params) {
    await httpClient(`${API_URL}/${resource}/${encodeURIComponent(params.id)}`, { method: 'DELETE' });
    return { data: params.previousData ?? ({ id: params.id } as never) };
  },
  async deleteMany(resource, params) {
    for (const id of params.ids) await httpClient(`${API_URL}/${resource}/${encodeURIComponent(id)}`, { method: 'DELETE' });
    return { data: params.ids };
  },
  getStats: () => data(getAdminStats()),
  getRevenue: () => data(getAdminRevenue()),
  adjustCredits: (userId, body) => data(adjustUserCredits({ path: { id: userId }, body })),
  previewTierChange: (userId, tier) =>
    data(previewAdminUserTierChange({ path: { id: userId }, query: { tier: tier as AdminTierChangePreviewDto['to_tier'] } })),
  changeTier: (userId, tier, expectedCreditsAdded) =>
    data(
      updateAdminUser({
        path: { id: userId },
        body: { tier: tier as AdminTierChangePreviewDto['to_tier'], expected_credits_added: expectedCreditsAdded },
      }),
    ),
  setRole: (userId, role) => data(setAdminUserRole({ path: { id: userId }, body: { role } })),
  suspendUser: (userId, body) => data(suspendAdminUser({ path: { id: userId }, body })),
  unsuspendUser: (userId) => data(unsuspendAdminUser({ path: { id: userId } })),
  addTicketMessage: (ticketId, body) => data(createSupportMessage({ path: { id: ticketId }, body })),
  removeReportedGeneration: (ticketId, options) =>
    data(removeReportedGeneration({ path: { id: ticketId }, body: { include_source: options?.includeSource ?? false } })),
  chooseReportedGeneration: (ticketId, generationId) =>
    data(chooseReportedGeneration({ path: { id: ticketId }, body: { generation_id: generationId } })),
  getQueues: () => data(getQueueOverview()),
  openQueueBoardSession: () => data(createQueueBoardSession()),
  uploadCatalogPhoto: (resource, id, file) =>
    resource === 'templates'
      ? data(setAdminTemplateGarment({ path: { id }, body: { file } }))
      : data(setAdminSceneReference({ path: { id }, body: { file } })),
  uploadTemplateThumbnail: (id, file) => data(setAdminTemplateThumbnail({ path: { id }, body: { file } })),
};
