import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { JobName, ON_JOB_METADATA, QUEUE_MODULE_OPTIONS } from './queue.constants';
import type { QueueModuleOptions } from './queue-module.options';
import type { JobContext } from './queue.port';

export interface JobHandlerRef {
  /** The job name given to @OnJob. */
  name: string;
  /** `Class.method`, for messages. */
  owner: string;
}

export interface RegisteredJobHandler extends JobHandlerRef {
  handle: (data: unknown, ctx: JobContext) => Promise<void>;
}

/**
 * Throws one Error naming every job of `jobNames` with no handler, every job with two or more
 * (and their owners), and every handler of a job that is not in `jobNames`.
 */
export function assertOneHandlerPerJob(handlers: JobHandlerRef[], jobNames: string[]): void {
  const owners = new Map<string, string[]>();
  for (const h of handlers) owners.set(h.name, [...(owners.get(h.name) ?? []), h.owner]);
  const problems: string[] = [];
  for (const name of jobNames) {
    const found = owners.get(name) ?? [];
    if (found.length === 0) problems.push(`job "${name}" has no handler`);
    if (found.length > 1) problems.push(`job "${name}" has ${found.length} handlers: ${found.join(', ')}`);
  }
  const known = new Set(jobNames);
  for (const [name, found] of owners) {
    if (!known.has(name)) problems.push(`unknown job "${name}" has handler(s): ${found.join(', ')}`);
  }
  if (problems.length > 0) {
    throw new Error(
      `Queue job handlers are wrong (each job needs exactly one @OnJob handler):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

/**
 * Finds every @OnJob method of every provider, once all providers exist (onModuleInit). When the
 * process consumes jobs, refuses to start unless each job has exactly one handler; a producer-only
 * process (the API with BullMQ) may host no handlers at all.
 */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly logger = new Logger(JobRegistry.name);
  private readonly handlers = new Map<string, RegisteredJobHandler>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(QUEUE_MODULE_OPTIONS) private readonly options: QueueModuleOptions,
  ) {}

  onModuleInit(): void {
    const found = this.discover();
    if (this.options.consume) assertOneHandlerPerJob(found, this.options.jobNames ?? Object.values(JobName));
    this.handlers.clear();
    for (const h of found) if (!this.handlers.has(h.name)) this.handlers.set(h.name, h);
    this.logger.log(`${found.length} job handler(s): ${found.map((h) => `${h.name} -> ${h.owner}`).join(', ') || 'none'}`);
  }

  get(name: string): RegisteredJobHandler | undefined {
    return this.handlers.get(name);
  }

  list(): JobHandlerRef[] {
    return [...this.handlers.values()].map(({ name, owner }) => ({ name, owner }));
  }

  private discover(): RegisteredJobHandler[] {
    const found: RegisteredJobHandler[] = [];
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (!prototype) continue;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const fn = (instance as Record<string, unknown>)[method];
        if (typeof fn !== 'function') continue;
        const name = this.reflector.get<string | undefined>(ON_JOB_METADATA, fn as (...args: unknown[]) => unknown);
        if (!name) continue;
        const owner = `${instance.constructor.name}.${method}`;
        if (!wrapper.isDependencyTreeStatic()) {
          throw new Error(`@OnJob handler ${owner} is on a request-scoped provider: job handlers need a singleton`);
        }
        found.push({
          name,
          owner,
          handle: async (data, ctx) => (fn as (d: unknown, c: JobContext) => unknown).call(instance, data, ctx) as Promise<void>,
        });
      }
    }
    return found;
  }
}
