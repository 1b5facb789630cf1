/**
 * What the user app and the console share in the browser: one session store (refresh protocol,
 * cross-tab lock and broadcast), how a session answer is kept, and how API failures become the
 * messages people read.
 */
export * from './api-auth';
export * from './errors';
export * from './session';
export * from './session-response';
export * from './session-store';
