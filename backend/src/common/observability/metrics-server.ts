import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { contentType } from 'prom-client';
import { APP_CONFIG } from '../../config/config.module';
import { Metrics } from './metrics.service';
import type { AppConfig } from '../../config/app-config';

/** Whether an Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` in the Prometheus text format, on METRICS_PORT: a listener of its own, never the
 * public port (which serves no metrics at all), in the API and in each worker. With METRICS_TOKEN
 * the scraper must send `Authorization: Bearer <token>` (401 otherwise). Anything else: 404.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** The port it listens on (METRICS_PORT; the real one when that was 0), or undefined. */
  get port(): number | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === undefined) return;
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`Metrics on http://${this.config.host}:${this.port}/metrics${this.config.metrics.token ? ' (bearer token)' : ''}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return send(res, 404, 'Not found\n');
    const token = this.config.metrics.token;
    if (token && !bearerMatches(req.headers.authorization, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return send(res, 401, 'A bearer token is required (METRICS_TOKEN)\n');
    }
    try {
      const body = await this.metrics.scrape();
      res.setHeader('Content-Type', contentType);
      send(res, 200, req.method === 'HEAD' ? '' : body);
    } catch (error) {
      this.logger.warn(`metrics scrape failed: ${error instanceof Error ? error.message : String(error)}`);
      send(res, 500, 'Metrics could not be collected\n');
    }
  }
}

function send(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}
