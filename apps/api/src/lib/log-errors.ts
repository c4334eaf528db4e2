/**
 * The log's one error serializer (pino's `err`, and `error`): what an error looks like in the log,
 * without the values a failed query was run with. Drizzle's DrizzleQueryError
 * carries `params` and repeats them in its message and stack ("Failed query: …\nparams: …"), and a
 * database error's `detail` quotes the row's values ("Key (key_hash)=(…) already exists"): a new
 * API key's hash, a webhook secret or a password hash would otherwise be printed. The SQL text
 * (with `$1` placeholders) and the error codes stay: they are what an operator needs.
 */

/** Properties that hold the values of a query or a row. */
const valueKeys = new Set(['params', 'parameters', 'detail', 'values']);
/** How far a `cause` chain is followed (a cycle stops here too). */
const MAX_CAUSES = 5;

export type SerializedError = {
  type: string;
  message: string;
  stack: string;
  cause?: SerializedError;
  [key: string]: unknown;
};

/** The message without anything after "params:" when the error carried query parameters. */
function messageOf(error: Error & { query?: unknown; params?: unknown }): string {
  if (!('params' in error)) return error.message;
  const failedQuery = /^Failed query: [\s\S]*?\nparams: /.exec(error.message);
  if (failedQuery) return `${failedQuery[0].slice(0, -'\nparams: '.length)}\nparams: [not logged]`;
  return error.message;
}

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const message = messageOf(error);
  const header = `${error.name}: ${error.message}`;
  let stack = error.stack ?? '';
  if (message !== error.message)
    stack = stack.startsWith(header) ? `${error.name}: ${message}${stack.slice(header.length)}` : '';
  const serialized: SerializedError = { type: error.constructor?.name ?? error.name, message, stack };
  for (const [key, value] of Object.entries(error)) {
    if (key === 'cause' || key === 'message' || key === 'stack') continue;
    serialized[key] = valueKeys.has(key) ? '[not logged]' : value;
  }
  if (error.cause !== undefined && depth < MAX_CAUSES)
    serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}
