import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP server on a free port of 127.0.0.1, for the local fakes of outside services. */
export class LocalHttpServer {
  private server?: Server;

  constructor(private readonly handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {}

  /** Listens; answers the base URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handler(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.baseUrl;
  }

  get baseUrl(): string {
    if (!this.server) throw new Error('the fake server is not started');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Closes the server and any connection still open (a kept-alive client would hold it up). */
  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
