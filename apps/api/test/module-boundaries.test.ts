import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const biome = path.join(repo, 'node_modules', '.bin', 'biome');

/**
 * Files of a pretend API, linted with the repository's own biome.json (ADR 047): a module reaches
 * another module through its service, never its repository.ts.
 */
const files: Record<string, string> = {
  'apps/api/src/modules/audit/report.ts':
    "import { insertBatch } from '../generation/repository.ts';\nexport const r = insertBatch;\n",
  'apps/api/src/modules/audit/lazy.ts': "export const load = () => import('../credits/repository.ts');\n",
  'apps/api/src/modules/audit/types.ts':
    "import type { Row } from '../library/repository';\nexport type R = Row;\n",
  'apps/api/src/modules/studio/jobs/render.ts':
    "import { save } from '../../files/repository.ts';\nexport const s = save;\n",
  // Allowed: the module's own repository (from any depth), other modules' services, shared code.
  'apps/api/src/modules/audit/service.ts': [
    "import { findAudit } from './repository.ts';",
    "import { startBatch } from '../generation/service.ts';",
    "import { notFound } from '../../errors.ts';",
    'export const all = [findAudit, startBatch, notFound];',
    '',
  ].join('\n'),
  'apps/api/src/modules/studio/jobs/own.ts':
    "import { row } from '../repository.ts';\nimport { files } from '../../files/service.ts';\nexport const o = [row, files];\n",
  // The files whose temporary exceptions are gone since the one paid batch start (ADR 043).
  'apps/api/src/modules/audit/fix.ts': [
    "import { insertBatch } from '../generation/repository.ts';",
    "import { updateLibraryImage } from '../library/repository.ts';",
    "import { reserve } from '../credits/repository.ts';",
    'export const f = [insertBatch, updateLibraryImage, reserve];',
    '',
  ].join('\n'),
  'apps/api/src/modules/generation/batch-runner.ts': [
    "import { expireStoredFiles } from '../files/repository.ts';",
    "import { findAudit } from '../audit/repository.ts';",
    'export const b = [expireStoredFiles, findAudit];',
    '',
  ].join('\n'),
  // Each table has one owning module (ADR 079): its values only there; types anywhere.
  'apps/api/src/modules/webhooks/events.ts': [
    "import { audits, type Audit } from '../../db/tables/audits.ts';",
    "import type { LibraryImage } from '../../db/tables/library-images.ts';",
    "import { webhookEndpoints } from '../../db/tables/webhook-endpoints.ts';",
    "import { findAuditRow } from '../audit/queries.ts';",
    "import { users } from '../../db/schema.ts';",
    'export const e = [audits, webhookEndpoints, findAuditRow, users];',
    'export type T = [Audit, LibraryImage];',
    '',
  ].join('\n'),
  'apps/api/src/modules/audit/render/pages.ts': [
    "import { auditPages } from '../../../db/tables/audits.ts';",
    "export const lazy = () => import('../../../db/tables/generation-items.ts');",
    'export const p = [auditPages];',
    '',
  ].join('\n'),
  // A borrowed table is allowed where the owners' map says so, and nowhere else.
  'apps/api/src/modules/credits/balance.ts': [
    "import { users } from '../../db/tables/users.ts';",
    "import { creditLedger } from '../../db/tables/credit-ledger.ts';",
    'export const b = [users, creditLedger];',
    '',
  ].join('\n'),
  'apps/api/src/modules/billing/buyer.ts':
    "import { users } from '../../db/tables/users.ts';\nexport const u = users;\n",
  // Outside modules/ the rule does not apply (app.ts wires the modules together).
  'apps/api/src/app.ts': "import { x } from './modules/files/repository.ts';\nexport const a = x;\n",
  // The layers below modules (ADR 075): engines → pages → rules, each importing only downwards.
  'apps/api/src/engines/offline/compose.ts': [
    "import { fix } from '../../modules/audit/fix.ts';",
    "import { readPage } from '../../pages/extract-page.ts';",
    "import { words } from '../../rules/site-words.ts';",
    'export const c = [fix, readPage, words];',
    '',
  ].join('\n'),
  'apps/api/src/pages/extract-page.ts': [
    "import { engineContext } from '../modules/audit/engine-context.ts';",
    "import { decideRole } from '../engines/role.ts';",
    "import { checkPageImages } from '../rules/checks.ts';",
    "import { runInSandbox } from '../lib/sandbox.ts';",
    'export const p = [engineContext, decideRole, checkPageImages, runInSandbox];',
    '',
  ].join('\n'),
  'apps/api/src/rules/checks.ts': [
    "import { readPage } from '../pages/extract-page.ts';",
    "import { describe } from '../engines/offline/offline-engine.ts';",
    "import type { Audit } from '../modules/audit/service.ts';",
    "import { words } from './site-words.ts';",
    'export const r = [readPage, describe, words];',
    'export type A = Audit;',
    '',
  ].join('\n'),
};

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-module-boundaries-'));
  await copyFile(path.join(repo, 'biome.json'), path.join(dir, 'biome.json'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each refused import as "file: source", from Biome's own diagnostics. */
async function refusedImports(): Promise<string[]> {
  const output = await run(
    biome,
    ['lint', '--only=style/noRestrictedImports', '--max-diagnostics=none', '--colors=off', '.'],
    { cwd: dir },
  ).then(
    (done) => done.stdout + done.stderr,
    (failed: { stdout?: string; stderr?: string }) => `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
  );
  const found = [
    ...output.matchAll(/^(\S+):(\d+):\d+ lint\/style\/noRestrictedImports[\s\S]*?^\s+>\s+\d+ │ (.*)$/gm),
  ].map((m) => `${m[1]}: ${/['"]([^'"]+)['"]/.exec(m[3] ?? '')?.[1] ?? m[3]}`);
  expect(output).not.toMatch(/configuration resulted in errors/i);
  return found.sort();
}

describe("modules do not import each other's repository.ts or tables, and layers only import downwards (biome.json, noRestrictedImports)", () => {
  it('flags an import of another module’s repository (static, dynamic, type-only, nested), another module’s table values, or a higher layer, and only those', async () => {
    expect(await refusedImports()).toEqual([
      'apps/api/src/engines/offline/compose.ts: ../../modules/audit/fix.ts',
      'apps/api/src/modules/audit/fix.ts: ../credits/repository.ts',
      'apps/api/src/modules/audit/fix.ts: ../generation/repository.ts',
      'apps/api/src/modules/audit/fix.ts: ../library/repository.ts',
      'apps/api/src/modules/audit/lazy.ts: ../credits/repository.ts',
      'apps/api/src/modules/audit/render/pages.ts: ../../../db/tables/generation-items.ts',
      'apps/api/src/modules/audit/report.ts: ../generation/repository.ts',
      'apps/api/src/modules/audit/types.ts: ../library/repository',
      'apps/api/src/modules/billing/buyer.ts: ../../db/tables/users.ts',
      'apps/api/src/modules/generation/batch-runner.ts: ../audit/repository.ts',
      'apps/api/src/modules/generation/batch-runner.ts: ../files/repository.ts',
      'apps/api/src/modules/studio/jobs/render.ts: ../../files/repository.ts',
      'apps/api/src/modules/webhooks/events.ts: ../../db/schema.ts',
      'apps/api/src/modules/webhooks/events.ts: ../../db/tables/audits.ts',
      'apps/api/src/pages/extract-page.ts: ../engines/role.ts',
      'apps/api/src/pages/extract-page.ts: ../modules/audit/engine-context.ts',
      'apps/api/src/rules/checks.ts: ../engines/offline/offline-engine.ts',
      'apps/api/src/rules/checks.ts: ../modules/audit/service.ts',
      'apps/api/src/rules/checks.ts: ../pages/extract-page.ts',
    ]);
  });
});
