import * as fs from 'node:fs';
import { envSchema } from '../config/env.schema';

/**
 * The container health checks of the one image (Dockerfile HEALTHCHECK, docker-compose), with node
 * alone: no curl in the image. The API answers GET /api/health/live (the process answers) and
 * /api/health/ready (the database and storage answer); the worker serves no HTTP and touches a
 * heartbeat file while it reaches its queue.
 */

/** Touched by the worker every WORKER_HEARTBEAT_MS while it can reach its queue (tests point it elsewhere). */
export const WORKER_ALIVE_FILE = process.env.WORKER_ALIVE_FILE || '/tmp/fitting-room-worker.alive';
export const WORKER_HEARTBEAT_MS = 15_000;
/** A heartbeat older than this (four missed beats) makes the worker unhealthy. */
export const WORKER_ALIVE_MAX_AGE_MS = 60_000;
const HTTP_TIMEOUT_MS = 4000;

export type ProbeKind = 'live' | 'ready' | 'worker';
export interface ProbeResult {
  ok: boolean;
  detail: string;
}

/**
 * With no kind given (the image's HEALTHCHECK, which does not know the container's command): a worker
 * when PID 1's command line (tini's, which names the entry point) runs worker.js, else the API's live.
 */
export function probeKindOf(arg: string | undefined, pid1CommandLine: () => string): ProbeKind {
  if (arg === 'live' || arg === 'ready' || arg === 'worker') return arg;
  if (arg !== undefined) throw new Error(`unknown health check "${arg}": live, ready or worker`);
  let commandLine = '';
  try {
    commandLine = pid1CommandLine();
  } catch {
    /* not Linux, or no /proc: the API */
  }
  return /(^|[\0/\s])worker\.js(\0|\s|$)/.test(commandLine) ? 'worker' : 'live';
}

export async function probe(kind: ProbeKind, options: { port?: number; aliveFile?: string; now?: number } = {}): Promise<ProbeResult> {
  if (kind === 'worker') {
    const file = options.aliveFile ?? WORKER_ALIVE_FILE;
    let age: number;
    try {
      age = (options.now ?? Date.now()) - fs.statSync(file).mtimeMs;
    } catch {
      return { ok: false, detail: `no heartbeat yet (${file})` };
    }
    return age < WORKER_ALIVE_MAX_AGE_MS
      ? { ok: true, detail: `heartbeat ${Math.round(age / 1000)} s ago` }
      : { ok: false, detail: `last heartbeat ${Math.round(age / 1000)} s ago` };
  }
  // the port the API listens on, parsed as the API parses it
  const port = options.port ?? envSchema.shape.PORT.parse(process.env.PORT);
  const url = `http://127.0.0.1:${port}/api/health/${kind}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    await res.arrayBuffer();
    return { ok: res.ok, detail: `GET ${url}: ${res.status}` };
  } catch (error) {
    return { ok: false, detail: `GET ${url}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
