export * from './auth.ts';
export * from './billing.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './plans.ts';
export * from './routes.ts';
