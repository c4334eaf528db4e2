/** Which built files a route needs before it renders, from the Vite manifest (bench and prerender). */

export type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] };
export type Manifest = Record<string, ManifestChunk>;

/**
 * The manifest keys of the entries (vite.config.ts): the app, the content-only pages' (ADR 027) and the
 * sign-in pages' (ADR 038).
 */
export const appEntryKey = 'index.html';
export const publicEntryKey = 'src/public.ts';
export const signInEntryKey = 'src/sign-in.tsx';

/** The chunk with TanStack Query, loaded before the pages that use it (src/app/page-query-provider.tsx). */
export const queryProviderSource = 'src/app/query-provider.tsx';

/** Route pattern -> source file of its page, read from the lazy imports of the route table. */
export function routeSources(routerSource: string): Array<{ route: string; source: string }> {
  const pattern = /'(\/[^']*)':\s*\{[^}]*?import\('\.\.\/([^']+)'\)/g;
  return [...routerSource.matchAll(pattern)].map((match) => ({
    route: match[1] as string,
    source: `src/${match[2] as string}`,
  }));
}

/** The chunk keys a chunk loads before it runs: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}
