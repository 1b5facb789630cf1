import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { generateOpenApiJson, OPENAPI_FILE } from '../../src/scripts/openapi';

/** The committed OpenAPI document and typed client must match the code: run `npm run openapi` when this fails. */
const CLIENT_DIR = path.join(REPO_ROOT, 'openapi', 'src');

function listFiles(dir: string, base = dir): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]))
    .sort();
}

describe('the committed OpenAPI document and client', () => {
  it('openapi/openapi.json matches what the code describes (run `npm run openapi`)', async () => {
    const fresh = await generateOpenApiJson();
    const committed = fs.readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed).toBe(fresh);
    const doc = JSON.parse(fresh);
    for (const [route, methods] of Object.entries<Record<string, { operationId: string }>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect({ route, method, operationId: op.operationId }).toEqual({
          route,
          method,
          operationId: expect.stringMatching(/^[a-z][A-Za-z0-9]+$/),
        });
      }
    }
  });

  it('openapi/src is what the generator makes from the committed document (run `npm run openapi`)', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-client-'));
    const configFile = path.join(out, 'openapi-ts.config.mjs');
    fs.writeFileSync(
      configFile,
      `import base from ${JSON.stringify(path.join(REPO_ROOT, 'openapi', 'openapi-ts.config.mjs'))};\n` +
        `export default { ...base, input: ${JSON.stringify(OPENAPI_FILE)}, output: { ...base.output, path: ${JSON.stringify(path.join(out, 'src'))} } };\n`,
    );
    const bin = path.join(REPO_ROOT, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js');
    const result = spawnSync(process.execPath, [bin, '-f', configFile], { cwd: out, encoding: 'utf8' });
    expect(result.status).toBe(0);
    const generated = listFiles(path.join(out, 'src'));
    expect(listFiles(CLIENT_DIR)).toEqual(generated);
    for (const file of generated) {
      expect({ file, text: fs.readFileSync(path.join(CLIENT_DIR, file), 'utf8') }).toEqual({
        file,
        text: fs.readFileSync(path.join(out, 'src', file), 'utf8'),
      });
    }
    fs.rmSync(out, { recursive: true, force: true });
  });
});
