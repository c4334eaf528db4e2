import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    root: import.meta.dirname,
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The files of a worker share one module graph: importing the app (Fastify, drizzle, sharp,
    // playwright-core) costs 2–5 s per file otherwise, about half of the suite's time
    // (docs/benchmarks.md). A file that replaces a module with vi.mock must not share it: those run in
    // the root config's `api-isolated` project.
    isolate: false,
    exclude: [...configDefaults.exclude, 'test/library-paging.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Each file boots its own database (PGlite in memory from a migrated template, or a fresh Postgres
    // database), so booting the app and the queue can take a few seconds on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
