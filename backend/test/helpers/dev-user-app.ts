import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import type { AddressInfo } from 'node:net';

/**
 * Test-only: the user app as a development build serves it (React's development build, so
 * StrictMode mounts every component twice), for the bugs only such a build shows. `npm start` and
 * the other browser specs serve the production build (scripts/build-if-needed.mjs).
 */
export async function buildDevelopmentUserApp(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-dev-user-app-'));
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npx', ['vite', 'build', '--mode', 'development', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: path.join(REPO_ROOT, 'frontend'),
      env: { ...process.env, NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build --mode development failed (${code}):\n${output}`))));
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface FolderServer {
  base: string;
  close(): Promise<void>;
}

/**
 * A tiny server for a built user-app folder: its files, index.html for client-side routes, and
 * /api proxied to the API (cookies and all), so the app works as it does behind `npm start`.
 */
export async function serveUserAppFolder(dir: string, apiBase: string): Promise<FolderServer> {
  const api = new URL(apiBase);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://folder');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const upstream = http.request(
        { hostname: api.hostname, port: api.port, method: req.method, path: req.url, headers: { ...req.headers, host: api.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
    const inside = file.startsWith(dir + path.sep);
    const target =
      inside && fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.extname(url.pathname) ? null : path.join(dir, 'index.html');
    if (!target) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(target)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    fs.createReadStream(target).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
