export * from './metrics.service';
export * from './metrics-server';
export * from './observability.module';
export * from './signals';
export * from './tracing';
export { observeHttp, routeTemplate } from './http-observer';
