// The drizzle schema object: every table, one file each under ./tables.
export * from './tables/account-tokens.ts';
export * from './tables/api-keys.ts';
export * from './tables/audits.ts';
export * from './tables/checkout-sessions.ts';
export * from './tables/contact-messages.ts';
export * from './tables/content-history.ts';
export * from './tables/credit-ledger.ts';
export * from './tables/credit-reservations.ts';
export * from './tables/generation-batches.ts';
export * from './tables/generation-items.ts';
export * from './tables/library-images.ts';
export * from './tables/mail-messages.ts';
export * from './tables/payments.ts';
export * from './tables/stored-files.ts';
export * from './tables/subscriptions.ts';
export * from './tables/users.ts';
export * from './tables/webhook-events.ts';
