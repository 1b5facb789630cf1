import type { ServerResponse } from 'node:http';

const REFUSAL = Symbol('fr.expectedRefusal');

/**
 * The exception filter marks an answer that refuses a request on purpose (an AppError: 4xx, or the
 * 501/503 a feature that is not set up or is busy answers), so that the request log writes it as a
 * refusal (a warning, no stack) rather than as a failure of the server.
 */
export function markExpectedRefusal(res: ServerResponse): void {
  (res as ServerResponse & { [REFUSAL]?: true })[REFUSAL] = true;
}

export function isExpectedRefusal(res: ServerResponse): boolean {
  return (res as ServerResponse & { [REFUSAL]?: true })[REFUSAL] === true;
}
