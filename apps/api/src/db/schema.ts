// The drizzle schema object: every table, one file each under ./tables.
export * from './tables/account-tokens.ts';
export * from './tables/credit-ledger.ts';
export * from './tables/mail-messages.ts';
export * from './tables/stored-files.ts';
export * from './tables/users.ts';
