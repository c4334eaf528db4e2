/**
 * Keeps the configuration table of docs/configuration.md in step with `.env.example`, the one list of every
 * variable with its default and meaning. `node scripts/readme-config.ts` rewrites the table;
 * `--check` (run by `npm run lint`) fails when that table is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const START = '<!-- config:start (generated from .env.example by scripts/readme-config.ts) -->';
const END = '<!-- config:end -->';

export function renderConfigTable(envExample: string): string {
  const rows: string[] = [];
  // A comment block describes the variables right below it, up to a blank line or the next comment.
  let comments: string[] = [];
  let previousWasVariable = false;
  const escapePipes = (s: string) => s.replaceAll('|', '\\|');
  for (const raw of envExample.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('# Tests only')) break;
    if (line === '') {
      comments = [];
      previousWasVariable = false;
    } else if (line.startsWith('#')) {
      if (previousWasVariable) comments = [];
      comments.push(line.replace(/^#\s?/, ''));
      previousWasVariable = false;
    } else {
      const [name, ...rest] = line.split('=');
      const value = rest.join('=');
      rows.push(
        `| \`${name}\` | ${value ? `\`${escapePipes(value)}\`` : '(empty)'} | ${escapePipes(comments.join(' '))} |`,
      );
      previousWasVariable = true;
    }
  }
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

const readmePath = join(root, 'docs', 'configuration.md');
const readme = readFileSync(readmePath, 'utf8');
const table = renderConfigTable(readFileSync(join(root, '.env.example'), 'utf8'));
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`docs/configuration.md lacks the ${START} … ${END} markers`);
const next = `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('docs/configuration.md configuration table is stale: run `node scripts/readme-config.ts`.');
    process.exit(1);
  }
} else {
  writeFileSync(readmePath, next);
}
