import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * `common/` is plumbing (auth guard, logging, metrics, errors): it imports no feature module, so a
 * feature can change without touching it and no import cycle runs through it. The roles and tiers
 * it needs are the shared package's (ACCESS_ROLES, TIERS), declared once there.
 */

/** The one exception: a TypeORM relation names the entity class it points at. */
const ALLOWED = new Map([['idempotency/idempotency-key.entity.ts', '../../modules/users/user.entity']]);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

describe('common/ imports no feature module', () => {
  it('names no modules/ path in any import of its sources', () => {
    const root = __dirname;
    const files = sources(root);
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      const rel = path.relative(root, file);
      const text = fs.readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
        if (!/(^|\/)modules\//.test(spec) || ALLOWED.get(rel) === spec) continue;
        found.push(`${rel} imports ${spec}`);
      }
    }
    expect(found).toEqual([]);
  });
});
