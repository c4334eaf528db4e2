import { defineConfig } from 'vitest/config';
import api from './apps/api/vitest.config.ts';

// Each workspace has its own config; `npm test` (scripts/test.ts) picks projects by name. The API's
// files share one module graph per worker (apps/api/vitest.config.ts); the one file that replaces a
// module with vi.mock runs alone, isolated, in `api-isolated`.
const isolatedFiles = ['test/library-paging.test.ts'];

export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'apps/api',
      { test: { ...api.test, name: 'api-isolated', isolate: true, include: isolatedFiles, exclude: [] } },
      'apps/web',
      'tests/e2e',
    ],
  },
});
