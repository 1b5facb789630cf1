// Builds each part of the product whose sources are newer than its last build.
// Used by `npm start` (and the test runner) so a second start skips straight to serving.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The user app and the console are always built for production (React's production build, no
// StrictMode double effects), whatever NODE_ENV the shell has: `npm start` serves what a visitor gets.
// Their stamp names the mode, so a build left by an older launcher under NODE_ENV=development is redone.
const PRODUCTION_UI = 'production';

const PARTS = [
  // the facts every part shares, compiled for the API (the UIs' bundler reads its sources)
  {
    name: 'packages/shared',
    inputs: ['packages/shared/src', 'packages/shared/tsconfig.build.json', 'packages/shared/package.json', 'tsconfig.json'],
  },
  {
    name: 'backend',
    inputs: ['backend/src', 'backend/tsconfig.json', 'backend/tsconfig.build.json', 'backend/package.json', 'tsconfig.json'],
  },
  // with the workspace packages they import
  {
    name: 'frontend',
    ui: true,
    // besides dist/: the server's pre-render of the public pages (docs/frontend-performance.md)
    outputs: ['frontend/dist-server/entry-server.cjs'],
    inputs: [
      'frontend/src',
      'frontend/public',
      'frontend/index.html',
      'frontend/vite.config.ts',
      'frontend/package.json',
      'openapi/src',
      'packages/shared/src',
    ],
  },
  {
    name: 'admin-ui',
    ui: true,
    inputs: [
      'admin-ui/src',
      'admin-ui/public',
      'admin-ui/index.html',
      'admin-ui/vite.config.ts',
      'admin-ui/package.json',
      'openapi/src',
      'packages/shared/src',
    ],
  },
];

function newestMtime(p) {
  const abs = path.join(ROOT, p);
  if (!fs.existsSync(abs)) return 0;
  const stat = fs.statSync(abs);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  }
  return newest;
}

export function stale(part) {
  const stamp = path.join(ROOT, part.name, 'dist', '.build-stamp');
  if (!fs.existsSync(stamp)) return true;
  if (part.outputs?.some((output) => !fs.existsSync(path.join(ROOT, output)))) return true;
  if (part.ui && !fs.readFileSync(stamp, 'utf8').startsWith(PRODUCTION_UI)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  return part.inputs.some((input) => newestMtime(input) > built);
}

export function buildIfNeeded({ only, quiet = false } = {}) {
  // the API runs on the shared package's build
  if (only?.includes('backend') && !only.includes('packages/shared')) only = ['packages/shared', ...only];
  for (const part of PARTS) {
    if (only && !only.includes(part.name)) continue;
    if (!stale(part)) continue;
    if (!quiet) process.stdout.write(`Building ${part.name}...\n`);
    const t0 = Date.now();
    const env = part.ui ? { ...process.env, NODE_ENV: PRODUCTION_UI } : process.env;
    const result = spawnSync('npm', ['run', 'build', '--silent', '-w', part.name], { cwd: ROOT, env, stdio: quiet ? 'pipe' : 'inherit' });
    if (result.status !== 0) {
      if (quiet) process.stderr.write(`${result.stdout}${result.stderr}`);
      throw new Error(`Building ${part.name} failed`);
    }
    const stampText = `${part.ui ? `${PRODUCTION_UI} ` : ''}${new Date().toISOString()}`;
    fs.writeFileSync(path.join(ROOT, part.name, 'dist', '.build-stamp'), stampText);
    if (!quiet) process.stdout.write(`Built ${part.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildIfNeeded({ only: process.argv.slice(2).length ? process.argv.slice(2) : undefined });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
