import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../../..');
const biome = path.join(repo, 'node_modules', '.bin', 'biome');

/** Files of a pretend web app, linted with the repository's own biome.json. */
const files: Record<string, string> = {
  'apps/web/src/features/account/cross.tsx':
    "import { PaymentHistory } from '../dashboard/payment-history.tsx';\nexport const a = PaymentHistory;\n",
  'apps/web/src/features/images/library/cross.ts':
    "export const load = () => import('../../reels/api/create-reel.ts');\n",
  'apps/web/src/features/images/library/deep/cross.ts':
    "import { x } from '../../../pricing/pricing.ts';\nexport const d = x;\n",
  'apps/web/src/features/pricing/roundabout.ts':
    "import { y } from '../../features/dashboard/billing-display.ts';\nexport const r = y;\n",
  'apps/web/src/features/images/library/own.ts': [
    "import { list } from '../api/list-library-images.ts';",
    "import { useProfile } from '../../../lib/profile.ts';",
    "import { Button } from '../../../components/ui/button.tsx';",
    "import { z } from 'zod';",
    "import { w } from './w.ts';",
    'export const own = [list, useProfile, Button, z, w];',
    '',
  ].join('\n'),
  'apps/web/src/features/images/page.tsx': [
    "import { own } from './library/own.ts';",
    "import { copyText } from '../../lib/copy-text.ts';",
    "import { messages } from '@altwise/contracts/messages';",
    'export const page = [own, copyText, messages];',
    '',
  ].join('\n'),
  // bulletproof-react's other zones (ADR 047): features do not import the app layer; shared code
  // (components/, lib/) imports neither features nor the app.
  'apps/web/src/features/pricing/uses-app.tsx':
    "import { Providers } from '../../app/providers.tsx';\nexport const p = Providers;\n",
  'apps/web/src/components/ui/uses-feature.tsx':
    "import { PricingCards } from '../../features/pricing/pricing-cards.tsx';\nexport const c = PricingCards;\n",
  'apps/web/src/lib/uses-app.ts': "export const load = () => import('../app/router.tsx');\n",
  'apps/web/src/lib/deep/uses-feature.ts':
    "import type { Plan } from '../../features/pricing/plans.ts';\nexport type P = Plan;\n",
  'apps/web/src/lib/shared.ts': [
    "import { api } from './api-client.ts';",
    "import { Button } from '../components/ui/button.tsx';",
    "import { messages } from '@altwise/contracts/messages';",
    'export const shared = [api, Button, messages];',
    '',
  ].join('\n'),
  // The router composes the features: it may import any of them.
  'apps/web/src/app/router.tsx':
    "import { a } from '../features/account/cross.tsx';\nexport const routes = [a];\n",
};

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'altwise-boundaries-'));
  await copyFile(path.join(repo, 'biome.json'), path.join(dir, 'biome.json'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The files Biome reports a refused import in. */
async function crossFeatureImports(): Promise<string[]> {
  const output = await run(biome, ['lint', '--max-diagnostics=none', '--colors=off', '.'], { cwd: dir }).then(
    (done) => done.stdout + done.stderr,
    (failed: { stdout?: string; stderr?: string }) => `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
  );
  const found = [...output.matchAll(/^(\S+):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map(
    (m) => m[1] ?? '',
  );
  return [...new Set(found)].sort();
}

describe('import zones of the web app (biome.json, noRestrictedImports)', () => {
  it('flags features importing another feature or app/, and components/ or lib/ importing either, and only those', async () => {
    expect(await crossFeatureImports()).toEqual([
      'apps/web/src/components/ui/uses-feature.tsx',
      'apps/web/src/features/account/cross.tsx',
      'apps/web/src/features/images/library/cross.ts',
      'apps/web/src/features/images/library/deep/cross.ts',
      'apps/web/src/features/pricing/roundabout.ts',
      'apps/web/src/features/pricing/uses-app.tsx',
      'apps/web/src/lib/deep/uses-feature.ts',
      'apps/web/src/lib/uses-app.ts',
    ]);
  });
});
