/**
 * A stand-in for the API behind `fetch`: the test says what each route answers, and reads back the
 * requests made, in order. Install it with `vi.stubGlobal('fetch', api.fetch)`; react-admin's
 * fetchJson and the generated client then go through it unchanged. Relative URLs (the console
 * calls its own origin) are read against ORIGIN.
 */

export const ORIGIN = 'http://console.test';

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** `network` makes fetch reject as a lost connection does. */
export type Answer = Reply | 'network';

export interface RecordedRequest {
  /** "METHOD /path", e.g. "PUT /api/admin/users/u1". */
  route: string;
  url: URL;
  /** The bearer token sent, or null. */
  token: string | null;
  /** The JSON body, when there was one. */
  json: unknown;
}

/** The API's error body (`{ statusCode, code, message }`), as every refusal carries it. */
export function apiError(status: number, code: string, message: string): Reply {
  return { status, body: { statusCode: status, code, message } };
}

export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  private readonly answers = new Map<string, Answer[]>();

  /** Answers for a route, one per request in turn; the last one keeps answering. Unknown routes answer 500. */
  on(route: string, ...answers: Answer[]): this {
    this.answers.set(route, answers);
    return this;
  }

  get routes(): string[] {
    return this.requests.map((r) => r.route);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(new URL(String(input), ORIGIN), init);
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    const text = await request.clone().text();
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? null;
    this.requests.push({ route, url, token, json: text ? (JSON.parse(text) as unknown) : undefined });

    const queue = this.answers.get(route);
    const next = queue && (queue.length > 1 ? queue.shift()! : queue[0]);
    if (next === 'network') throw new TypeError('fetch failed');
    const { status = 200, body, headers = {} } = next ?? apiError(500, 'UNEXPECTED', `no answer for ${route}`);
    if (status === 204) return new Response(null, { status });
    return new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json', ...headers } });
  };
}
