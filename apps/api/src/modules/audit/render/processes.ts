import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The rendering browser's processes, found through Linux /proc by the marker argument it was
 * started with (ADR 061): for memory figures, the memory cap and a kill. Used on both sides of the
 * render worker (ADR 072), so it loads neither Playwright nor sharp.
 */

/** The Chromium the server runs: `CHROMIUM_PATH`, or Debian's when none is configured; null when absent. */
export function findChromium(configured: string | undefined): string | null {
  if (configured === 'off') return null;
  const path = configured || '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

/** The process ids of the browser started with `marker` and of all its descendants (Linux /proc). */
export async function browserProcessIds(marker: string): Promise<number[]> {
  const roots: number[] = [];
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const id = Number(entry);
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(parent)) children.set(parent, [...(children.get(parent) ?? []), id]);
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (command.includes(marker)) roots.push(id);
  }
  const ids = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as number;
    if (ids.has(id)) continue;
    ids.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return [...ids];
}

/**
 * Memory of the processes, in bytes: `pss`, the proportional set size (pages shared between the
 * processes, such as the browser's own code, split among them rather than counted once a process),
 * and `rss`, the plain sum of resident sizes (which counts shared pages many times).
 */
export async function browserMemory(ids: number[]): Promise<{ pss: number; rss: number }> {
  let pss = 0;
  let rss = 0;
  for (const id of ids) {
    const rollup = await readFile(`/proc/${id}/smaps_rollup`, 'utf8').catch(() => '');
    pss += Number(/^Pss:\s+(\d+)\s+kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    rss += Number(/^Rss:\s+(\d+)\s+kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return { pss, rss };
}

/** Resident bytes of one process (`statm`, cheap to read every 100 ms); 0 once it is gone. */
export async function residentBytes(id: number): Promise<number> {
  const statm = await readFile(`/proc/${id}/statm`, 'utf8').catch(() => '');
  return Number(statm.split(' ')[1] ?? 0) * 4096;
}

/** Kills every process of the browser started with `marker` (a worker that died left them behind). */
export async function killBrowser(marker: string): Promise<void> {
  for (const id of await browserProcessIds(marker)) {
    try {
      process.kill(id, 'SIGKILL');
    } catch {}
  }
}
