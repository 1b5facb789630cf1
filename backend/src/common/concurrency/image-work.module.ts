import { Global, Module } from '@nestjs/common';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WorkGate } from './work-gate';

/** The one bound on image decoding and re-encoding in this process (IMAGE_WORK_CONCURRENCY, IMAGE_WORK_QUEUE). */
export const IMAGE_WORK_GATE = Symbol('IMAGE_WORK_GATE');

/** Provides IMAGE_WORK_GATE everywhere: one gate per process, shared by every kind of image work on a request. */
@Global()
@Module({
  providers: [
    {
      provide: IMAGE_WORK_GATE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const { imageWorkConcurrency, imageWorkQueue } = config.uploads;
        return new WorkGate(imageWorkConcurrency, imageWorkQueue);
      },
    },
  ],
  exports: [IMAGE_WORK_GATE],
})
export class ImageWorkModule {}
