import net from 'node:net';
import { answerWithin, settlesWithin } from './deadline';

/** Blocks this process's event loop, as a long synchronous task or a GC pause does. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

/**
 * A dependency over TCP that answers at once, and then keeps this process busy for `stallMs`: its
 * answer waits unread in the socket while the caller's limit runs out.
 */
async function promptDependencyThenStall(stallMs: number): Promise<{ ask: () => Promise<Buffer>; close: () => Promise<void> }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      socket.write(data);
      stall(stallMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  client.on('error', () => undefined);
  await new Promise((resolve) => client.once('connect', resolve));
  return {
    ask: () => {
      const answer = new Promise<Buffer>((resolve) => client.once('data', resolve));
      client.write('PING');
      return answer;
    },
    close: async () => {
      client.destroy();
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('limits that count only the dependency’s silence', () => {
  it('an answer that arrived while the process was stalled past the limit counts as in time', async () => {
    const dependency = await promptDependencyThenStall(300);
    try {
      expect(await settlesWithin(dependency.ask(), 50)).toBe(true);
      expect((await answerWithin(dependency.ask(), 50)).toString()).toBe('PING');
    } finally {
      await dependency.close();
    }
  });

  it('the same stall fools a plain timer (what the limit is there to avoid)', async () => {
    const dependency = await promptDependencyThenStall(300);
    try {
      const plain = Promise.race([dependency.ask().then(() => 'answered'), new Promise((r) => setTimeout(() => r('timed out'), 50))]);
      expect(await plain).toBe('timed out');
    } finally {
      await dependency.close();
    }
  });

  it('a dependency that does not answer is given up on after the limit, and a late failure is no unhandled rejection', async () => {
    const started = Date.now();
    expect(await settlesWithin(new Promise(() => undefined), 100)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    let fail!: (err: Error) => void;
    const late = new Promise<never>((_, reject) => (fail = reject));
    await expect(answerWithin(late, 20)).rejects.toThrow('no answer within 20 ms');
    fail(new Error('connection reset'));
  });

  it('a failure in time is passed on as it is', async () => {
    await expect(answerWithin(Promise.reject(new Error('ECONNREFUSED')), 1000)).rejects.toThrow('ECONNREFUSED');
  });
});
