import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    root: import.meta.dirname,
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Each file boots its own database (PGlite in memory, or a fresh Postgres database), so booting
    // the app and the queue can take a few seconds on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
