import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracer, tracingEnabled } from './tracing';
import type { Metrics } from './metrics.service';
import type { NextFunction, Request, Response } from 'express';

/**
 * The route template of an answered request, never its path: `/api/generations/:id`, not the id
 * (metrics' labels stay a bounded set). A request no route matched: `unmatched` under /api, `ui`
 * for the apps' files and pages.
 */
export function routeTemplate(req: Pick<Request, 'baseUrl' | 'route' | 'originalUrl' | 'url'>): string {
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath === 'string') return `${req.baseUrl ?? ''}${routePath}` || '/';
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
  return path === '/api' || path.startsWith('/api/') ? 'unmatched' : 'ui';
}

/**
 * Express middleware, first of the chain: counts and times every answer by route template
 * (http_requests_total, http_request_duration_seconds), and, with tracing on, makes the request's
 * server span (continuing a caller's `traceparent`), in whose context the rest of the request runs.
 */
export function observeHttp(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const traced = tracingEnabled();
    const parent = traced ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
    const span = traced
      ? tracer().startSpan(
          req.method,
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path, 'url.scheme': req.protocol } },
          parent,
        )
      : undefined;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const route = routeTemplate(req);
      const status = res.headersSent ? res.statusCode : 499; // 499: the client went away before an answer
      metrics.httpAnswered(req.method, route, status, (performance.now() - started) / 1000);
      if (span) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute('http.route', route);
        span.setAttribute('http.response.status_code', status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    };
    res.once('finish', end);
    res.once('close', end);
    if (span) context.with(trace.setSpan(parent, span), next);
    else next();
  };
}
