import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    environment: 'node',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // One server for the run; two journey files at a time, each with its own browser and users.
    // Most of a journey's time is waiting (the network going quiet, a job finishing), so two overlap
    // well on a 2-core machine (docs/benchmarks.md, "The test suite").
    fileParallelism: true,
    maxWorkers: 2,
    // Two journeys at a time: the long ones (an account's whole life, buying a plan, the phone's axe
    // pass) took 50–60 s, over the old 60 s limit once beside another file.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // A page that answers within a second on a quiet machine may take longer on a busy one: polls
    // wait up to 15 s by default (a ceiling, not a sleep; they end as soon as the answer is right).
    expect: { poll: { timeout: 15_000 } },
  },
});
