// Prints the fault suite's figures at the end of a Jest run: each scenario of test/faults/*.fault-spec.ts
// appends one line of figures to .fault-report.jsonl (fault-kit.ts `report`); this reporter clears
// the file when a run starts and prints what the run wrote when it ends.
const fs = require('node:fs');
const path = require('node:path');

const FILE = path.join(__dirname, '.fault-report.jsonl');

class FaultReporter {
  onRunStart() {
    fs.rmSync(FILE, { force: true });
  }

  onRunComplete(_contexts, results) {
    if (!fs.existsSync(FILE)) return;
    const lines = fs
      .readFileSync(FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    if (lines.length === 0) return;
    const out = ['', 'Fault suite: what was done and what came of it', ''];
    for (const { scenario, figures } of lines) {
      out.push(`  ${scenario}`);
      const width = Math.max(...Object.keys(figures).map((k) => k.length));
      for (const [k, v] of Object.entries(figures)) out.push(`    ${k.padEnd(width)}  ${v}`);
      out.push('');
    }
    const faults = results.testResults.filter((r) => r.testFilePath.endsWith('.fault-spec.ts'));
    const failed = faults.reduce((n, r) => n + r.numFailingTests, 0);
    const passed = faults.reduce((n, r) => n + r.numPassingTests, 0);
    out.push(`  fault tests: ${passed} passed, ${failed} failed`, '');
    process.stdout.write(`${out.join('\n')}\n`);
  }
}

module.exports = FaultReporter;
