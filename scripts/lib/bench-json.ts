/**
 * `--json` for every `npm run bench:*`: the bench prints its usual text, then, as its
 * last line, one JSON object `{"bench": name, ...headline figures}`. Benches that parse their options
 * with node:util parseArgs declare `json` too (parseArgs is strict); this reads the same flag.
 */
export const jsonRequested = process.argv.slice(2).includes('--json');

/** Prints the bench's result as one JSON line when `--json` was given; call it last. */
export function printBenchJson(bench: string, fields: Record<string, unknown>): void {
  if (jsonRequested) console.log(JSON.stringify({ bench, ...fields }));
}

/** A figure rounded for the JSON line (`digits` decimals); NaN and ±Infinity become null. */
export function round(value: number, digits = 1): number | null {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : null;
}
