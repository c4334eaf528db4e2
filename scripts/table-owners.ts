/**
 * Which module owns each table (ADR 079), declared once here, and the Biome rules that hold every
 * module to it. `node scripts/table-owners.ts` rewrites the module overrides of biome.json from this
 * map; `--check` (run by `npm run lint`) fails when biome.json, the map or the tables disagree.
 *
 * Biome keeps only the last matching override's options for a rule, so each module gets one override
 * with both of its import rules: no other module's repository.ts, and no other module's table.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const biomeFile = join(root, 'biome.json');
const tablesFolder = join(root, 'apps', 'api', 'src', 'db', 'tables');
const modulesFolder = join(root, 'apps', 'api', 'src', 'modules');

/** Each module and the table files (db/tables/<name>.ts) it owns: only it writes or reads them. */
export const tableOwners: Record<string, string[]> = {
  accounts: ['users', 'account-tokens'],
  'api-keys': ['api-keys'],
  audit: ['audits'],
  billing: ['checkout-sessions', 'payments', 'subscriptions', 'webhook-events'],
  contact: ['contact-messages'],
  content: ['content-history'],
  credits: ['credit-ledger', 'credit-reservations'],
  files: ['stored-files'],
  generation: ['generation-batches', 'generation-items', 'content-results'],
  health: [],
  'image-metadata': [],
  integrations: ['integrations'],
  library: ['library-images'],
  mail: ['mail-messages'],
  monitors: ['monitors'],
  reels: [],
  scrape: [],
  studio: [],
  webhooks: ['webhook-endpoints'],
};

/**
 * Another module's table a module still uses directly, each with why; the next step moves each one
 * behind its owner, and this list only shrinks.
 */
export const borrowedTables: Record<string, { table: string; why: string }[]> = {
  credits: [
    {
      table: 'users',
      why: 'the balance is the users.image_credits column, changed in the statement that writes the ledger',
    },
  ],
  'api-keys': [
    { table: 'users', why: 'a key and its owner are read in the one lookup every API request makes' },
  ],
  monitors: [{ table: 'audits', why: "a run's status and score are read with the monitor's history" }],
};

const repositoryRule = {
  group: [
    '**/repository',
    '**/repository.ts',
    '**/repository.js',
    '!./repository',
    '!./repository.ts',
    '!./repository.js',
    '!../repository',
    '!../repository.ts',
    '!../repository.js',
  ],
  message:
    "A module does not import another module's repository.ts (docs/contributing.md habit 15, ADR 047): call that module's service, which may take a callback for what differs.",
};

function overrideFor(module: string) {
  const allowed = [...(tableOwners[module] ?? []), ...(borrowedTables[module] ?? []).map((b) => b.table)];
  return {
    includes: [`apps/api/src/modules/${module}/**`],
    linter: {
      rules: {
        style: {
          noRestrictedImports: {
            level: 'error',
            options: {
              patterns: [
                repositoryRule,
                {
                  group: [
                    '**/db/tables/*',
                    '**/db/schema',
                    '**/db/schema.ts',
                    ...allowed.flatMap((table) => [`!**/db/tables/${table}`, `!**/db/tables/${table}.ts`]),
                  ],
                  // Types (PascalCase) may come from any table file; tables and their values may not.
                  importNamePattern: '[A-Z].*',
                  invertImportNamePattern: true,
                  message: `Each table has one owning module (ADR 079, scripts/table-owners.ts): ${module} uses only its own tables. Read another module's rows through its queries.ts, change them through its service; its types may be imported.`,
                },
              ],
            },
          },
        },
      },
    },
  };
}

type Override = { includes: string[] };
/** Every override of files under modules/ is this script's: another would replace its options. */
const isModuleOverride = (override: Override) =>
  override.includes.some((glob) => glob.startsWith('apps/api/src/modules/'));

/** What is wrong between the map, the table files and the module folders; empty when they agree. */
export function ownershipProblems(tableFiles: string[], modules: string[]): string[] {
  const problems: string[] = [];
  const owners = new Map<string, string[]>();
  for (const [module, tables] of Object.entries(tableOwners))
    for (const table of tables) owners.set(table, [...(owners.get(table) ?? []), module]);
  for (const table of tableFiles) {
    const of = owners.get(table) ?? [];
    if (of.length !== 1)
      problems.push(`db/tables/${table}.ts has ${of.length === 0 ? 'no owner' : `owners ${of.join(', ')}`}`);
  }
  for (const table of owners.keys())
    if (!tableFiles.includes(table)) problems.push(`${table} is owned but db/tables/${table}.ts is missing`);
  for (const module of modules)
    if (!(module in tableOwners)) problems.push(`module ${module} is missing from the table owners`);
  for (const module of Object.keys(tableOwners))
    if (!modules.includes(module)) problems.push(`${module} is in the table owners but not a module`);
  return problems;
}

function render(current: { overrides: Override[] }) {
  const others = current.overrides.filter((override) => !isModuleOverride(override));
  // Module overrides go first: the layers' and the web app's follow as before.
  return { ...current, overrides: [...Object.keys(tableOwners).map(overrideFor), ...others] };
}

if (import.meta.main) {
  const tableFiles = readdirSync(tablesFolder)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => name.slice(0, -3));
  const modules = readdirSync(modulesFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const problems = ownershipProblems(tableFiles, modules);
  if (problems.length > 0) {
    console.error(`Table owners (scripts/table-owners.ts):\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  const text = readFileSync(biomeFile, 'utf8');
  const wanted = `${JSON.stringify(render(JSON.parse(text)), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(JSON.parse(wanted))) {
      console.error('biome.json does not hold the table owners: run `node scripts/table-owners.ts`.');
      process.exit(1);
    }
  } else {
    writeFileSync(biomeFile, wanted);
    execFileSync(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', biomeFile], {
      stdio: 'ignore',
    });
    console.log(`biome.json: ${Object.keys(tableOwners).length} module overrides written.`);
  }
}
