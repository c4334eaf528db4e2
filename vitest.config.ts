import { defineConfig } from 'vitest/config';

// Each workspace has its own config; `npm test` (scripts/test.ts) picks projects by name.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'apps/api', 'apps/web', 'tests/e2e'],
  },
});
