import * as net from 'node:net';

/**
 * A TCP port of 127.0.0.1 that nothing listens on right now (the OS picks it). For servers that
 * must be told their port before they start (a child process, a fixed APP_URL), and for a port
 * that refuses connections (a service that is down).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
