import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The real entry points refuse to start on a bad configuration, naming the variable, before touching anything. */
const dist = path.resolve(__dirname, '..', '..', 'dist');

function runEntry(entry: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(dist, entry)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('configuration refusal at start', () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(dist, 'main.js'))) {
      const build = spawnSync('npm', ['run', 'build'], { cwd: path.resolve(__dirname, '..', '..'), encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`backend build failed:\n${build.stdout}${build.stderr}`);
    }
  });

  it.each(['main.js', 'worker.js'])('%s exits with code 78 and names every bad variable', (entry) => {
    const result = runEntry(entry, { PORT: 'eighty', REDIS_URL: 'localhost:6379', FILES_SIGNING_SECRET: 'x'.repeat(40) });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toMatch(/PORT must be a whole number, got "eighty"/);
    expect(result.stderr).toMatch(/DATABASE_URL is required/);
    expect(result.stderr).toMatch(/REDIS_URL must be a URL starting with redis:/);
    expect(result.stdout).not.toMatch(/listening/i);
  });
});
