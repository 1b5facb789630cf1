import { Global, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MetricsServer } from './metrics-server';
import { Metrics } from './metrics.service';
import { stopTracing } from './tracing';

/** Sends the spans left at shutdown (tracing itself is started by the entry point, before the app). */
@Injectable()
class TracingFlush implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}

/** Metrics (every module may record) and their listener on METRICS_PORT; traces' flush. Global. */
@Global()
@Module({ providers: [Metrics, MetricsServer, TracingFlush], exports: [Metrics, MetricsServer] })
export class ObservabilityModule {}
