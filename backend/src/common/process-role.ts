/** Which process this is: the API (main.ts, also the CLI scripts) or the queue consumers (worker.ts). */
export type ProcessRole = 'api' | 'worker';

/** Injection token of the ProcessRole (provided globally by AppModule.forRoot). */
export const PROCESS_ROLE = Symbol('PROCESS_ROLE');
