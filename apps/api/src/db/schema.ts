// The drizzle schema object: every table, one file each under ./tables.
export * from './tables/stored-files.ts';
