import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../src/bootstrap/static-ui';
import { OPENAPI_FILE } from '../../src/scripts/openapi';

/**
 * Third-party tools must accept the committed document: Redocly CLI lints it with redocly.yaml
 * (the `recommended` ruleset and a few stricter rules), as `npm run lint:openapi` does. Any error
 * fails; warnings are printed. With openapi-staleness.int-spec.ts (the file is what the code
 * describes), this keeps the code's document lint-clean: fix a finding in the decorators or in
 * backend/src/bootstrap/openapi.ts, then run `npm run openapi`.
 */
interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

const CLI = path.join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

function lint(): LintReport {
  const result = spawnSync(
    process.execPath,
    [CLI, 'lint', path.relative(REPO_ROOT, OPENAPI_FILE), '--config', 'redocly.yaml', '--format=json'],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    },
  );
  if (result.error) throw result.error;
  const start = result.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint printed no report (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout.slice(start)) as LintReport;
}

const describeProblem = (p: LintProblem) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`;

describe('the committed OpenAPI document passes Redocly lint', () => {
  it('has no error under redocly.yaml (recommended ruleset); warnings are listed', () => {
    expect(fs.existsSync(CLI)).toBe(true);
    const report = lint();
    const warnings = report.problems.filter((p) => p.severity === 'warn');
    process.stdout.write(
      `redocly lint ${path.relative(REPO_ROOT, OPENAPI_FILE)}: ${report.totals.errors} errors, ${report.totals.warnings} warnings\n`,
    );
    for (const w of warnings) process.stdout.write(`  warning ${describeProblem(w)}\n`);
    expect(report.problems.filter((p) => p.severity === 'error').map(describeProblem)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
