// Names, at the end of a Jest run, each test that passed only when run again (test/retry-in-ci.js),
// with the first line of why its first try failed: a flaky test to fix, not a pass to forget.
class RetriedReporter {
  onRunComplete(_contexts, results) {
    const retried = [];
    for (const file of results.testResults) {
      for (const t of file.testResults) {
        if ((t.invocations ?? 1) > 1 && t.status === 'passed') {
          const why = String((t.retryReasons ?? [])[0] ?? '')
            .split('\n')
            .map((l) => l.trim())
            .find(Boolean);
          retried.push(
            `  ${file.testFilePath.replace(/^.*\/backend\//, '')} › ${t.fullName}${why ? `\n      first try: ${why.slice(0, 200)}` : ''}`,
          );
        }
      }
    }
    if (retried.length === 0) return;
    process.stdout.write(`\nPassed only on a second try (flaky, to fix): ${retried.length}\n${retried.join('\n')}\n\n`);
  }
}

module.exports = RetriedReporter;
