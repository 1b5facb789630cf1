import { Logger } from '@nestjs/common';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  isSpanContextValid,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { AppConfig } from '../../config/app-config';
import type { ProcessRole } from '../process-role';

/**
 * OpenTelemetry traces, one per request and everything it causes: the HTTP request (http-observer.ts),
 * the queue jobs it adds (their data carries the W3C trace context, message-queue.service.ts), the
 * worker that runs them, the calls to the AI vendor (provider-http.ts, which sends `traceparent` on),
 * and the vendor's webhook, whose own trace links back to the generation's (its start stored the
 * context with it). Exported over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set. When it
 * is not, nothing is registered: the API's no-op tracer answers every call, no context is kept and
 * no job carries one.
 */

let provider: BasicTracerProvider | undefined;

/** The `_trace` field a job's data carries (removed before its handler sees the data). */
export const JOB_TRACE_FIELD = '_trace';

export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** Whether traces are recorded in this process. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/** Starts tracing for this process when the configuration asks for it (once; later calls change nothing). */
export function startTracing(config: Pick<AppConfig, 'tracing'>, role: ProcessRole, version = process.env.npm_package_version): boolean {
  const settings = config.tracing;
  if (provider || !settings.endpoint) return tracingEnabled();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces`, headers: settings.headers });
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName ?? `fitting-room-${role}`,
      'service.namespace': 'fitting-room',
      'service.version': version ?? 'unknown',
      'process.pid': process.pid,
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    // sent every second (or 512 spans at once); what is left is sent at shutdown (stopTracing)
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
  });
  trace.setGlobalTracerProvider(provider);
  keepContextOfBufferedLogs();
  return true;
}

interface BufferedLogLine {
  methodRef: (...args: unknown[]) => unknown;
  arguments: unknown[];
}

/**
 * Nest keeps the lines logged while an app starts (`bufferLogs`) and writes them when the app's
 * logger is in place, outside the context they were logged in. The worker runs its first jobs in
 * that window (its queue starts consuming during the app's bootstrap): each kept line is bound to
 * the context it was logged in, so it carries its job's trace id like any other. Nest's buffer is
 * a static array (Logger.logBuffer); should a release of Nest rename it, nothing is bound and the
 * lines are written as before.
 */
function keepContextOfBufferedLogs(): void {
  const holder = Logger as unknown as { logBuffer?: unknown };
  const buffer = holder.logBuffer;
  if (!Array.isArray(buffer)) return;
  const push = buffer.push.bind(buffer);
  buffer.push = (...lines: BufferedLogLine[]) =>
    push(
      ...lines.map((line) =>
        typeof line?.methodRef === 'function' ? { ...line, methodRef: context.bind(context.active(), line.methodRef) } : line,
      ),
    );
}

/** Sends what is left and stops (at shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  if (!stopping) return;
  await stopping.forceFlush().catch(() => undefined);
}

export function tracer() {
  return trace.getTracer('fitting-room');
}

/**
 * Runs `work` in a new span (child of the active one, or of `parent`), ended when it settles; a
 * throw is recorded on the span (status error) and thrown on. With tracing off: `work` alone.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!provider) return work(undefined);
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed with the error's type and message (never a stack with data in it). */
export function failSpan(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  span.recordException({ name: error instanceof Error ? error.name : 'Error', message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The active trace context as W3C headers (traceparent, tracestate); empty when none. */
export function traceCarrier(ctx: Context = context.active()): TraceCarrier {
  if (!provider) return {};
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context a carrier names (a job's `_trace`, a request's headers), or the root. */
export function contextFrom(carrier: Record<string, unknown> | undefined): Context {
  if (!provider || !carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (c, key) => {
      const value = c[key];
      return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
    },
    keys: (c) => Object.keys(c),
  });
}

/** Adds a link from the active span to the span a `traceparent` names (a webhook to the generation's start). */
export function linkActiveSpanTo(traceparent: string | undefined, attributes?: Attributes): void {
  if (!provider || !traceparent) return;
  const linked = trace.getSpanContext(contextFrom({ traceparent }));
  const span = trace.getActiveSpan();
  if (linked && span) span.addLink({ context: linked, attributes });
}

/** trace_id and span_id of the active span, for log lines; empty outside a span. */
export function logTraceFields(): Record<string, string> {
  if (!provider) return {};
  // unsampled traces too: their id still ties the lines of one request in every process together
  const ctx = trace.getActiveSpan()?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId };
}

export { SpanKind };
