import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '../../../config/config.module';
import { MessageQueueService } from '../../../queue';
import { describeFfmpeg, selectFfmpeg } from './ffmpeg';
import type { AppConfig } from '../../../config/app-config';

/**
 * At start, in a process that runs generation jobs (a worker; the API when it consumes its own
 * jobs), chooses its ffmpeg once and logs which: its version and path, or a warning when only the
 * bundled 2018 build is there. An FFMPEG_PATH that does not run stops the start, naming it; no
 * ffmpeg at all is logged as an error (images still work, video results cannot be stored).
 */
@Injectable()
export class FfmpegCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('Media');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: MessageQueueService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.consuming) return;
    const configuredPath = this.config.media.ffmpegPath;
    try {
      const ffmpeg = await selectFfmpeg({ configuredPath });
      if (ffmpeg.source === 'bundled') this.logger.warn(describeFfmpeg(ffmpeg));
      else this.logger.log(describeFfmpeg(ffmpeg));
    } catch (error) {
      if (configuredPath) throw error;
      this.logger.error(`${(error as Error).message}; video results cannot be processed until then`);
    }
  }
}
