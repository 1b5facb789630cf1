import { describe, expect, it } from 'vitest';
import { sessionKnown } from './useAuth';
import type { AuthSnapshot, SessionStore } from '@fitting-room/shared/browser';

/** The part of the session store sessionKnown reads, with a way to change its snapshot. */
function fakeStore(snapshot: AuthSnapshot) {
  const listeners = new Set<() => void>();
  const store = {
    getSnapshot: () => snapshot,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const set = (next: AuthSnapshot) => {
    snapshot = next;
    for (const listener of [...listeners]) listener();
  };
  return { store: store as unknown as SessionStore, set, listeners };
}

describe('waiting for the session before acting on a click', () => {
  it('answers at once when the session is known', async () => {
    const { store } = fakeStore({ status: 'signed-out', session: null });
    await expect(sessionKnown(store)).resolves.toBe('signed-out');
  });

  it('waits while the session loads, then answers and stops listening', async () => {
    const { store, set, listeners } = fakeStore({ status: 'loading', session: null });
    const known = sessionKnown(store);
    expect(listeners.size).toBe(1);
    set({ status: 'signed-in', session: { user: { id: 'u1' } } as never });
    await expect(known).resolves.toBe('signed-in');
    expect(listeners.size).toBe(0);
  });
});
