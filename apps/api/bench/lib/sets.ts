/**
 * Where a bench finds an evaluation set: `--set` takes a folder, or the name of one inside
 * `EVAL_SETS_DIR` (so `--set quality-dev` works wherever the sets are kept). Relative folders are read
 * from where the command was typed (npm runs scripts from the root; INIT_CWD is that place).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function resolveSet(nameOrPath: string): string {
  const base = process.env.INIT_CWD ?? process.cwd();
  const direct = resolve(base, nameOrPath);
  if (existsSync(join(direct, 'refs.json'))) return direct;
  const root = process.env.EVAL_SETS_DIR;
  if (root) {
    const named = resolve(base, root, nameOrPath);
    if (existsSync(join(named, 'refs.json'))) return named;
  }
  throw new Error(
    `No evaluation set at ${direct}${root ? ` or in EVAL_SETS_DIR (${resolve(base, root)})` : ''}: give the folder that holds refs.json, or set EVAL_SETS_DIR to the folder that holds the sets.`,
  );
}

/** A set named by default: undefined (the part is skipped) when EVAL_SETS_DIR does not hold it. */
export function optionalSet(name: string): string | undefined {
  try {
    return resolveSet(name);
  } catch {
    return undefined;
  }
}
