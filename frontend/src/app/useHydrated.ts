import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while React hydrates a pre-rendered page (and on the server), true afterwards and in a page
 * rendered in the browser. A part that depends on what only the browser knows (the address's search,
 * an early dialog on screen) renders nothing until then, as the server did, so hydration matches;
 * React renders it right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
