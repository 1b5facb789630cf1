import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a developer's endpoint received: the raw body exactly as it came, and its headers. */
export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, any> };
}

/**
 * A developer's webhook endpoint on this machine: records each POST and answers what `status`
 * says (a function of the request, or a fixed status).
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  status: number | ((d: ReceivedDelivery) => number) = 200;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: ReceivedDelivery['body'];
        try {
          body = JSON.parse(rawBody);
        } catch {
          body = { id: '', type: '', created_at: '', data: {} };
        }
        const delivery = { path: req.url ?? '', headers: req.headers, rawBody, body };
        this.received.push(delivery);
        res.writeHead(typeof this.status === 'function' ? this.status(delivery) : this.status).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/fitting-room`;
    return this;
  }

  of(type: string): ReceivedDelivery[] {
    return this.received.filter((d) => d.body.type === type);
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}
