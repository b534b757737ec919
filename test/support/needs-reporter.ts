// A vitest reporter that ends the run with one line naming the tests skipped for a program this
// machine lacks, and the packages that would run them (test/support/needs.ts marks them).

import type { Reporter, TestModule } from 'vitest/node';
import { summarizeSkips } from './program-lookup.js';

export default class NeedsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[][] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const needs = test.meta().aishNeeds;
        if (needs?.length) skipped.push(needs);
      }
    }
    const line = summarizeSkips(skipped);
    if (line) process.stdout.write(`${line}\n`);
  }
}
