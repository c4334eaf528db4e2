import { defineConfig } from 'drizzle-kit';

// Generates the committed SQL migrations in ./drizzle from the table files; no database needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/tables/*.ts',
  out: './drizzle',
});
