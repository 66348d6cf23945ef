// Prints one plain closing line, `tests: N passed, N failed, N skipped`, that any CI can read, after the
// ten slowest files (their setup — the runtime's start and test/setup.ts — and their tests apart), so a
// file that grows slow is seen in every run.
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const timed = modules.map((module) => {
      const { prepareDuration, environmentSetupDuration, setupDuration, collectDuration, duration } = module.diagnostic();
      const setup = prepareDuration + environmentSetupDuration + setupDuration;
      return { file: module.relativeModuleId, setup, tests: collectDuration + duration, total: setup + collectDuration + duration };
    });
    timed.sort((a, b) => b.total - a.total);
    if (timed.length > 1) {
      console.log(`\nslowest ${Math.min(SLOWEST, timed.length)} of ${timed.length} files (setup + tests):`);
      for (const { file, setup, tests, total } of timed.slice(0, SLOWEST)) {
        console.log(`  ${seconds(total).padStart(8)}  ${file}  (${seconds(setup)} + ${seconds(tests)})`);
      }
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
