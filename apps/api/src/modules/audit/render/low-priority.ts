import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How much lower than the API the browser runs (nice: 0 is the default, 19 the lowest). */
export const BROWSER_NICENESS = 10;

const NICE = '/usr/bin/nice';
const SETPRIV = '/usr/bin/setpriv';

/**
 * A launcher that starts the browser at a lower CPU priority than the API: a page that keeps its
 * renderer busy (a dialog or redirect loop, a flood of elements) then takes the CPU the API leaves,
 * not the CPU the API needs to answer its users. On a two-core machine a busy browser otherwise
 * held the API's requests for up to a second. Playwright starts the executable it is given with
 * the browser's flags, so the launcher is a small script in a private folder that runs `nice`; every
 * process the browser starts inherits its priority. Chromium raises its own threads' priority where
 * it may (nice -8 for its display thread): run as root, as in a container or CI, it may, and then
 * starved the API all the same. The launcher therefore also takes that right (CAP_SYS_NICE) from
 * the browser with `setpriv`. Without `nice` the browser is started as is.
 */
export async function lowPriorityLauncher(
  executablePath: string,
): Promise<{ path: string; dispose: () => Promise<void> }> {
  if (!existsSync(NICE)) return { path: executablePath, dispose: async () => {} };
  const folder = await mkdtemp(join(tmpdir(), 'altwise-browser-'));
  const path = join(folder, 'chromium');
  const quoted = `'${executablePath.replaceAll("'", `'\\''`)}'`;
  // Only root holds the right to raise priority, and only root may drop it from what it hands on.
  const dropRight =
    process.getuid?.() === 0 && existsSync(SETPRIV) ? `${SETPRIV} --bounding-set -sys_nice ` : '';
  await writeFile(path, `#!/bin/sh\nexec ${dropRight}${NICE} -n ${BROWSER_NICENESS} ${quoted} "$@"\n`, {
    mode: 0o700,
  });
  await chmod(path, 0o700);
  return { path, dispose: () => rm(folder, { recursive: true, force: true }) };
}
