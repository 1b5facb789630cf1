/**
 * A stand-in for the browser's EventSource with the same surface (readyState, the three states,
 * onopen/onmessage/onerror, addEventListener, close), which a test drives by hand: `open()`,
 * `emit(type, data)` for a server-sent event, and `error()` for a dropped or refused stream.
 * Install it with `vi.stubGlobal('EventSource', FakeEventSource)`.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;

  /** Every stream opened since the last `reset()`, oldest first. */
  static instances: FakeEventSource[] = [];

  static reset(): void {
    FakeEventSource.instances = [];
  }

  /** The one stream opened (fails the test's expectations when there is not exactly one). */
  static only(): FakeEventSource {
    if (FakeEventSource.instances.length !== 1) {
      throw new Error(`expected one EventSource, found ${FakeEventSource.instances.length}`);
    }
    return FakeEventSource.instances[0]!;
  }

  readonly url: string;
  readonly withCredentials: boolean;
  readyState: number = FakeEventSource.CONNECTING;
  onopen: ((this: EventSource, event: Event) => unknown) | null = null;
  onmessage: ((this: EventSource, event: MessageEvent) => unknown) | null = null;
  onerror: ((this: EventSource, event: Event) => unknown) | null = null;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.instances.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }

  /** The server accepted the stream. */
  open(): void {
    if (this.closed) return;
    this.readyState = FakeEventSource.OPEN;
    this.fire(new Event('open'), this.onopen);
  }

  /**
   * A server-sent event `event: <type>` with `data: <data>` (an object is sent as JSON, a string
   * as it is). Like the browser, a closed stream delivers nothing.
   */
  emit(type: string, data: unknown): void {
    if (this.closed) return;
    if (this.readyState === FakeEventSource.CONNECTING) this.open();
    const event = new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) });
    this.fire(event, type === 'message' ? this.onmessage : null);
  }

  /**
   * The connection failed. `reconnect: true` is a dropped connection the browser retries
   * (readyState CONNECTING); otherwise the stream is given up (refused, wrong answer): CLOSED.
   */
  error({ reconnect = false }: { reconnect?: boolean } = {}): void {
    if (this.closed) return;
    this.readyState = reconnect ? FakeEventSource.CONNECTING : FakeEventSource.CLOSED;
    this.fire(new Event('error'), this.onerror);
  }

  private fire<E extends Event>(event: E, handler: ((this: EventSource, event: E) => unknown) | null): void {
    handler?.call(this as unknown as EventSource, event);
    this.dispatchEvent(event);
  }
}
