/**
 * `npm test`: everything, in order — typecheck, lint, unit and API tests on PGlite, the API files that
 * depend on the database server again on a real Postgres, the production build, then the browser
 * journeys in Chromium.
 * A throw-away WordPress is started once and shared by the API suites and the journeys.
 * Missing system dependencies (Postgres, Chromium, WordPress, ExifTool) are installed or named, never skipped.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureChromium } from './lib/chromium.ts';
import { ensureExiftool } from './lib/exiftool.ts';
import { type PostgresServer, startPostgres } from './lib/postgres.ts';
import { run } from './lib/run.ts';
import { startWordPress, type WordPressSite, wordpressEnv } from './lib/wordpress.ts';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
// Children (vitest, tsc, npm) must run on the project's Node 24 even when this script was started
// directly rather than through npm, which would put node_modules/.bin first on PATH itself.
process.env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`;
const reportDir = join(root, '.tmp', 'test-reports');
const only = process.argv.slice(2);
// Vitest runs one file at a time on a 2-core machine (cores - 1). Most API files wait on a database,
// a WordPress or a browser more than they compute, so two at once finish sooner (docs/benchmarks.md).
const workers = [`--maxWorkers=${process.env.TEST_MAX_WORKERS ?? '2'}`];

type Totals = { passed: number; failed: number; skipped: number };
const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
const timings: string[] = [];

function countReport(file: string) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

async function step(name: string, task: () => Promise<number>) {
  if (only.length > 0 && !only.includes(name)) return;
  console.log(`\n━━ ${name} ━━`);
  const started = performance.now();
  const code = await task();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  timings.push(`${name}: ${seconds}s${code === 0 ? '' : ' (FAILED)'}`);
  if (code !== 0) {
    throw new Error(`step "${name}" failed with exit code ${code}`);
  }
}

function vitest(name: string, projects: string[], env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const outputFile = join(reportDir, `${name}.json`);
  return async () => {
    const code = await run(
      bin('vitest'),
      [
        'run',
        ...projects.flatMap((p) => ['--project', p]),
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${outputFile}`,
        ...(extra.some((arg) => arg.startsWith('--maxWorkers')) ? [] : workers),
        ...extra,
      ],
      { env, cwd: root },
    );
    countReport(outputFile);
    return code;
  };
}

/**
 * The API suite runs in full on PGlite, the embedded default every fresh clone starts on. On a real
 * Postgres server run the files whose outcome depends on the server: migrations, locks and leases,
 * the job queue, crash resume, concurrent credit charges, paging plans, text Postgres refuses, and the
 * main paid flows end to end (ADR 008). Running every file twice took longer than CI allows.
 */
const postgresFiles = [
  'database',
  'schema-migrations',
  'health',
  'jobs',
  'generation',
  'generation-resume',
  'integrations-resume',
  'integrations-lease',
  'audits',
  'paid-work',
  'paid-batch-start',
  'credits',
  'credits-ledger.property',
  'library',
  'library-paging',
  'unstorable-text',
  'fuzz',
  'accounts',
  'account-deletion',
  'ownership',
  'monitors',
  'webhooks',
];

/**
 * Files that time the request loop while hostile input is processed (no /health answer may wait
 * more than 1 s). On two cores a second test process, with a browser or a WordPress of its own, takes
 * the CPU they measure, so they run after the others, one at a time.
 */
const timedFiles = [
  'audit-render',
  'hostile-pages',
  'hostile-sites',
  'import-hostile',
  'integrations-hostile',
];

let postgres: PostgresServer | undefined;
/** One throw-away WordPress for the whole run: the API suites and the journeys share it. */
let wordpress: WordPressSite | undefined;
async function wordpressForRun() {
  wordpress ??= await startWordPress();
  return wordpressEnv(wordpress);
}
let failure: unknown;
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

try {
  await step('typecheck', () => run('npm', ['run', 'typecheck'], { cwd: root }));
  await step('lint', () => run('npm', ['run', 'lint'], { cwd: root }));
  await step('unit-and-api-pglite', async () => {
    await ensureExiftool();
    return vitest(
      'unit-and-api-pglite',
      ['contracts', 'api', 'api-isolated', 'web'],
      await wordpressForRun(),
      timedFiles.flatMap((name) => ['--exclude', `**/test/${name}.test.ts`]),
    )();
  });
  await step('api-timed', async () =>
    vitest('api-timed', ['api'], await wordpressForRun(), [
      ...timedFiles.map((name) => `test/${name}.test.ts`),
      '--maxWorkers=1',
    ])(),
  );
  await step('api-postgres', async () => {
    postgres = await startPostgres();
    return vitest(
      'api-postgres',
      ['api', 'api-isolated'],
      { TEST_DATABASE_URL: postgres.url, ...(await wordpressForRun()) },
      postgresFiles.map((name) => `test/${name}.test.ts`),
    )();
  });
  await step('build', () => run('npm', ['run', 'build'], { cwd: root }));
  await step('e2e', async () => {
    const chromium = await ensureChromium();
    return vitest('e2e', ['e2e'], { CHROMIUM_PATH: chromium, ...(await wordpressForRun()) })();
  });
} catch (error) {
  failure = error;
} finally {
  await postgres?.stop();
  await wordpress?.stop();
}

console.log(`\n━━ summary ━━\n${timings.join('\n')}`);
if (failure) console.error(`\n${failure instanceof Error ? failure.message : String(failure)}`);
const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failure || totals.failed > 0 ? 1 : 0);
