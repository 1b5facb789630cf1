import { ServiceUnavailableError } from '../errors';

/**
 * A bound on heavy work in this process (decoding and re-encoding images): at most `concurrency`
 * at once, at most `maxWaiting` waiting their turn; beyond that a request is refused at once with
 * 503 and Retry-After, so a burst of large images cannot take the process away from everything
 * else (the health check, people browsing). Fair: first come, first served.
 */
export class WorkGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
    private readonly busyMessage = 'We are processing many photos right now. Please try again in a moment.',
  ) {}

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new ServiceUnavailableError(this.busyMessage, 2);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next in line (running stays the same), or frees up
      if (next) next();
      else this.running--;
    }
  }
}
