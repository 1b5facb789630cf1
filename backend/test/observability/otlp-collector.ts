import { gunzipSync } from 'node:zlib';
import { LocalHttpServer } from '../fakes/local-http-server';

/** One span as the collector received it (OTLP's JSON encoding: ids as hex strings). */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error */
  status: number;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

function valueOf(v: AnyValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  return v.doubleValue;
}

function attributesOf(list: Array<{ key: string; value: AnyValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

/**
 * A tiny OpenTelemetry collector for the tests: accepts OTLP/HTTP with JSON bodies on POST /v1/traces
 * (https://opentelemetry.io/docs/specs/otlp/#otlphttp-request, its JSON encoding:
 * https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding, where trace and span ids are hex
 * strings), answers 200 with an empty ExportTraceServiceResponse, and keeps every span it was sent.
 * Anything else (protobuf, another path) is refused with 415 or 404, as a collector would.
 */
export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  private readonly server = new LocalHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      res.writeHead(415).end();
      return;
    }
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const parsed = JSON.parse(body.toString('utf8')) as {
      resourceSpans?: Array<{
        resource?: { attributes?: Array<{ key: string; value: AnyValue }> };
        scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
      }>;
    };
    for (const rs of parsed.resourceSpans ?? []) {
      const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            traceId: String(s.traceId),
            spanId: String(s.spanId),
            parentSpanId: s.parentSpanId ? String(s.parentSpanId) : undefined,
            name: String(s.name),
            kind: Number(s.kind),
            attributes: attributesOf(s.attributes as Array<{ key: string; value: AnyValue }>),
            links: ((s.links as Array<{ traceId: string; spanId: string }>) ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
            status: Number((s.status as { code?: number } | undefined)?.code ?? 0),
          });
        }
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });

  start(): Promise<string> {
    return this.server.start();
  }

  get url(): string {
    return this.server.baseUrl;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }
}
