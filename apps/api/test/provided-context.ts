/** What test/global-setup.ts hands to the test files (Vitest's provide and inject). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump a test app starts from; empty on a Postgres run. */
    pgliteTemplate: string;
    /** The migrated database on TEST_DATABASE_URL's server that test databases copy; empty on PGlite. */
    postgresTemplate: string;
  }
}

export {};
