/**
 * Waiting for a dependency with a time limit, where only the dependency's silence counts.
 *
 * A plain timer also fires when this process, not the dependency, was slow: a long synchronous task
 * or a garbage-collection pause blocks the event loop, the answer waits unread in its socket, and
 * the timer (run first when the loop wakes) declares the database or Redis gone. A health check
 * then answers 503 and a generation start fails for nothing. So the limit, once reached, lets the
 * loop read what has arrived (one turn through I/O) before it decides.
 */

/** Resolves after `ms`, and after the process has since read the I/O waiting for it. */
export function deadline(ms: number): { reached: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const reached = new Promise<void>((resolve) => {
    // timers run before the loop polls for I/O, and immediates after it
    timer = setTimeout(() => {
      immediate = setImmediate(resolve);
    }, ms);
  });
  return {
    reached,
    cancel: () => {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

/** Resolves true when `promise` settles (either way) within `ms`, false otherwise; leaves no timer behind. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const limit = deadline(ms);
  try {
    return await Promise.race([
      promise.then(
        () => true as const,
        () => true as const,
      ),
      limit.reached.then(() => false as const),
    ]);
  } finally {
    limit.cancel();
  }
}

/** `promise`'s value, or an error saying that no answer came within `ms`. */
export async function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => undefined); // a late failure after the limit is not an unhandled rejection
  if (!(await settlesWithin(promise, ms))) throw new Error(`no answer within ${ms} ms`);
  return promise;
}
