import { randomUUID } from 'node:crypto';
import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { logTraceFields } from '../observability/tracing';
import { isExpectedRefusal } from './expected-refusal';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * The request's whole path. Inside a middleware mounted on a path, express shortens `req.url`
 * (`/api/me` arrives as `/me`); `originalUrl` keeps it.
 */
function pathOf(req: IncomingMessage): string {
  return ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];
}

/** One line per API request; not the health probes (called every few seconds) nor the apps' files. */
export function isLoggedPath(path: string): boolean {
  const api = path === '/api' || path.startsWith('/api/');
  const probe = path === '/api/health' || path.startsWith('/api/health/');
  return api && !probe;
}

/**
 * The level of a request's line: error for a failure (a 5xx that is not a refusal made on purpose,
 * or an error that reached the server), warn for a refusal (a 4xx, an expected 501/503), info otherwise.
 */
export function requestLogLevel(_req: IncomingMessage, res: ServerResponse, err?: Error): 'error' | 'warn' | 'info' {
  if (isExpectedRefusal(res)) return 'warn';
  if (err || res.statusCode >= 500) return 'error';
  return res.statusCode >= 400 ? 'warn' : 'info';
}

/** A request line without the Error pino-http made up for it. */
export function withoutError(line: Record<string, unknown>): Record<string, unknown> {
  const { err: _made, ...rest } = line;
  return rest;
}

function prettyTransport(enabled: boolean) {
  if (!enabled) return undefined;
  try {
    require.resolve('pino-pretty');
    return { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } };
  } catch {
    return undefined; // pino-pretty is a dev dependency; production images log JSON
  }
}

/** How long a log line may wait in the buffer before it is written. */
export const LOG_FLUSH_MS = 250;

/**
 * The app's log stream: JSON lines to stdout, buffered, written when 8 kB have gathered or every
 * LOG_FLUSH_MS, never by the request that logged them (a write() per line cost about a fifth of a
 * small request's CPU here). pino writes what is pending when the process exits, also after an
 * uncaught error; a SIGKILL loses at most the last LOG_FLUSH_MS. When the app shuts down its stream
 * is written out and its timer stopped: on SIGTERM Nest closes the app and then kills the process
 * with the same signal, so no exit handler would run; and an app closed in a process that goes on
 * (the tests start hundreds) leaves nothing running behind it.
 */
@Injectable()
export class LogStream implements OnApplicationShutdown {
  private stream?: ReturnType<typeof pino.destination>;
  private timer?: NodeJS.Timeout;

  /** The buffered stdout, opened on first use (not at all when the logs go to pino-pretty). */
  open(): pino.DestinationStream {
    if (!this.stream) {
      const stream = pino.destination({ dest: 1, sync: false, minLength: 8192 });
      this.timer = setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
      this.stream = stream;
    }
    return this.stream;
  }

  /** Writes what is buffered now (the launcher's banner must come after the start-up logs). */
  flush(): void {
    try {
      this.stream?.flushSync();
    } catch {
      // a closed stdout, or a write in flight that lands by itself
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    try {
      this.stream?.flushSync();
    } catch {
      // a closed stdout: nothing left to write to
    }
  }
}

@Module({ providers: [LogStream], exports: [LogStream] })
class LogStreamModule {}

/** Structured JSON logs (pino) with a request id taken from X-Request-Id or generated, echoed back. */
@Module({
  imports: [
    LogStreamModule,
    LoggerModule.forRootAsync({
      imports: [LogStreamModule],
      inject: [APP_CONFIG, LogStream],
      useFactory: (config: AppConfig, logStream: LogStream) => {
        const transport = prettyTransport(config.log.pretty);
        const options = {
          level: config.log.level,
          transport,
          // the trace of the request or job the line belongs to (trace_id, span_id), when tracing is on
          mixin: logTraceFields,
          genReqId: (req: IncomingMessage, res: ServerResponse) => {
            const incoming = req.headers['x-request-id'];
            const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
            res.setHeader('X-Request-Id', id);
            return id;
          },
          redact: {
            paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.access_token'],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
            // the status and the size: the answer's headers (CSP, CORS...) are the same on every line
            res: (res: { statusCode: number; headers?: Record<string, unknown> }) => ({
              statusCode: res.statusCode,
              length: res.headers?.['content-length'],
            }),
          },
          customLogLevel: requestLogLevel,
          // pino-http makes an Error (with a stack) for every 5xx: not for a refusal made on purpose (a 501 "coming soon", a busy 503)
          customErrorObject: (_req: IncomingMessage, res: ServerResponse, err: Error, line: Record<string, unknown>) =>
            isExpectedRefusal(res) ? withoutError(line) : line,
          customErrorMessage: (_req: IncomingMessage, res: ServerResponse) =>
            isExpectedRefusal(res) ? 'request completed' : 'request errored',
          autoLogging: { ignore: (req: IncomingMessage) => !isLoggedPath(pathOf(req)) },
        };
        return {
          pinoHttp: transport ? options : ([options, logStream.open()] as [typeof options, pino.DestinationStream]),
          forRoutes: ['{*splat}'],
        };
      },
    }),
  ],
})
export class LoggingModule {}
