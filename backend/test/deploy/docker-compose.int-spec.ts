import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';

/** No Docker engine runs here: the compose file is validated by the compose tool, not run. */
function composeConfig(): { tool: string; status: number | null; stdout: string; stderr: string } {
  const env = {
    ...process.env,
    FILES_SIGNING_SECRET: 'compose-validation-secret-0123456789abcdef',
    AUTH_JWT_SECRET: 'compose-validation-jwt-key-0123456789abcdef',
  };
  const candidates: [string, string[]][] = [
    ['docker', ['compose', 'config']],
    ['docker-compose', ['config']],
  ];
  for (const [cmd, args] of candidates) {
    const r = spawnSync(cmd, args, { cwd: REPO_ROOT, env, encoding: 'utf8' });
    if (r.error || (cmd === 'docker' && /unknown command|is not a docker command/.test(r.stderr))) continue;
    return { tool: `${cmd} ${args.join(' ')}`, status: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  throw new Error('Neither `docker compose` nor `docker-compose` is installed: apt-get install -y docker-compose (.ci/run does this)');
}

describe('docker-compose.yml', () => {
  it('is valid for the compose tool and describes the production shape', () => {
    const result = composeConfig();
    expect({ tool: result.tool, status: result.status, stderr: result.stderr }).toEqual({
      tool: result.tool,
      status: 0,
      stderr: expect.any(String),
    });
    const normalized = result.stdout;
    for (const service of ['postgres', 'redis', 'minio', 'api', 'worker']) {
      expect(normalized).toMatch(new RegExp(`^  ${service}:`, 'm'));
    }
    const raw = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    const blocks = raw.split(/\n {2}(?=[a-z-]+:\n)/);
    for (const service of ['postgres', 'redis', 'minio', 'api', 'worker']) {
      const block = blocks.find((b) => b.startsWith(`${service}:`));
      expect({ service, hasHealthcheck: /healthcheck:/.test(block ?? '') }).toEqual({ service, hasHealthcheck: true });
    }
    expect(raw).toMatch(/--appendonly['"], ['"]yes['"]/);
    expect(raw).toMatch(/--maxmemory-policy['"], ['"]noeviction['"]/);
    expect(raw).not.toMatch(/container_name/); // a fixed name would prevent --scale worker=N
    expect(fs.existsSync(path.join(REPO_ROOT, 'Dockerfile'))).toBe(true);
    expect(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8').match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
  });
});
