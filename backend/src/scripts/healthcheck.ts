import * as fs from 'node:fs';
import { probe, probeKindOf } from '../bootstrap/health-probe';

/**
 * `node backend/dist/scripts/healthcheck.js [live|ready|worker]`: exit 0 when healthy, 1 otherwise,
 * with one line saying why. The Dockerfile's HEALTHCHECK runs it without an argument (it then tells
 * the API from a worker); docker-compose asks `ready` of the API and `worker` of the workers.
 */
async function main(): Promise<void> {
  const kind = probeKindOf(process.argv[2], () => fs.readFileSync('/proc/1/cmdline', 'utf8'));
  const result = await probe(kind);
  process.stdout.write(`${kind}: ${result.detail}\n`);
  process.exit(result.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
