import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OutageLog } from '../../../common/errors';
import { catalogScenes, catalogTemplates, replaceCatalog } from '../catalog';
import { CatalogRepository, toScene, toTemplate } from './catalog.repository';

/** How often each process compares the catalogue's version with its snapshot's. */
export const CATALOG_REFRESH_MS = 2_000;

/**
 * Keeps this process's in-memory catalogue (catalog.ts) in step with PostgreSQL. At start it
 * inserts the missing seed rows and loads every row; then every CATALOG_REFRESH_MS it reads the
 * one-row `catalog_version` and reloads when another process (or this one) changed something.
 * Reads stay synchronous and never wait for the database; an edit shows on every API process
 * within about two seconds. A failed check is tried again at the next tick and logged at most once a minute.
 */
@Injectable()
export class CatalogStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Catalog');
  private version: string | null = null;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** while the database is away the check fails every tick: one warning a minute says so */
  private readonly outages = new OutageLog(60_000);

  constructor(private readonly repo: CatalogRepository) {}

  async onModuleInit(): Promise<void> {
    await this.repo.insertMissingSeed();
    await this.load();
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => {
        const line = this.outages.take('catalog-version');
        if (line)
          this.logger.warn({ err, suppressed: line.suppressed }, 'could not check the catalogue version (serving the last one loaded)');
      });
    }, CATALOG_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The version this process's snapshot reflects. */
  get loadedVersion(): string | null {
    return this.version;
  }

  /** Reloads when the database's version differs from the snapshot's (one check at a time). */
  refresh(): Promise<void> {
    this.running ??= (async () => {
      try {
        if ((await this.repo.version()) !== this.version) await this.load();
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** After a change committed here: waits for a check under way, then checks again (read your own writes). */
  async reloadNow(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.refresh();
  }

  private async load(): Promise<void> {
    const { version, templates, scenes } = await this.repo.loadAll();
    replaceCatalog(templates.map(toTemplate), scenes.map(toScene));
    this.version = version;
    this.logger.debug({ version, templates: catalogTemplates().length, scenes: catalogScenes().length }, 'catalogue loaded');
  }
}
