import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real service (Redis, PostgreSQL), that a test can take
 * down and bring back: down refuses new connections and cuts the open ones, as a crashed or
 * unreachable server does; up lets them through again.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private open = true;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async start(options: { down?: boolean } = {}): Promise<number> {
    this.open = !options.down;
    this.server = net.createServer((client) => {
      if (!this.open) {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The service goes away: open connections are cut, new ones refused. */
  down(): void {
    this.open = false;
    for (const s of this.sockets) s.destroy();
  }

  up(): void {
    this.open = true;
  }

  async stop(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
