/**
 * A stand-in for the API behind `fetch`: the test says what each route answers, and reads back
 * which requests were made, in order. Install it with `vi.stubGlobal('fetch', api.fetch)`; the
 * generated client then goes through it with everything it normally does (URLs, bodies, errors).
 */

/** An answer: a status and a JSON body (the API's catalogue body for an error). */
export interface Reply {
  status?: number;
  body?: unknown;
}

/** An answer decided when the request arrives; `network` makes fetch reject as a lost connection does. */
export type Answer = Reply | 'network' | ((request: Request) => Reply | 'network' | Promise<Reply | 'network'>);

export interface RecordedRequest {
  /** "METHOD /path", e.g. "POST /api/generations/check". */
  route: string;
  request: Request;
  /** The JSON body, when the request had one. */
  json: unknown;
}

/** A request held open until the test answers it; it fails as fetch does when its signal aborts. */
export interface Pending {
  /** Resolves once the request has arrived. */
  readonly arrived: Promise<RecordedRequest>;
  answer(reply: Reply): void;
}

/** The API's error body (`{ statusCode, code, message }`), as every refusal carries it. */
export function apiError(status: number, code: string, message: string): Reply {
  return { status, body: { statusCode: status, code, message } };
}

export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  private readonly answers = new Map<string, Answer[]>();

  /**
   * Answers for a route ("POST /api/generations"), one per request in turn; the last one keeps
   * answering. A route with no answer fails the request with 500, so a request nobody expected shows.
   */
  on(route: string, ...answers: Answer[]): this {
    this.answers.set(route, answers);
    return this;
  }

  /** The next request to `route` waits for `answer()` (or is aborted). */
  hold(route: string): Pending {
    let answer!: (reply: Reply) => void;
    let arrived!: (request: RecordedRequest) => void;
    const replied = new Promise<Reply>((resolve) => (answer = resolve));
    const pending: Pending = {
      arrived: new Promise<RecordedRequest>((resolve) => (arrived = resolve)),
      answer: (reply) => answer(reply),
    };
    this.on(route, (request) => {
      arrived(this.requests.at(-1)!);
      return new Promise<Reply>((resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
        void replied.then(resolve);
      });
    });
    return pending;
  }

  /** The routes requested, in order. */
  get routes(): string[] {
    return this.requests.map((r) => r.route);
  }

  /** How many requests went to `route`. */
  count(route: string): number {
    return this.routes.filter((r) => r === route).length;
  }

  /** The last request to `route`. */
  last(route: string): RecordedRequest | undefined {
    return this.requests.filter((r) => r.route === route).at(-1);
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    const type = request.headers.get('Content-Type') ?? '';
    const json: unknown = type.includes('application/json') ? await request.clone().json() : undefined;
    this.requests.push({ route, request, json });

    const queue = this.answers.get(route);
    const next = queue && (queue.length > 1 ? queue.shift()! : queue[0]);
    if (request.signal.aborted) throw request.signal.reason;
    const reply = typeof next === 'function' ? await next(request) : next;
    if (reply === 'network') throw new TypeError('fetch failed');
    const { status = 200, body = {} } = reply ?? apiError(500, 'UNEXPECTED', `no answer for ${route}`);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  };
}
