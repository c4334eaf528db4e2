const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a string can be a row id (a UUID). Checked before a lookup, so that text that cannot name a
 * row is "not found" rather than a database error from the uuid cast.
 */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
