/**
 * Build step after `vite build`: renders the public pages (src/prerender.tsx) into the built index.html, so
 * that crawlers and people without JavaScript get each page's content, title, description and Open Graph
 * tags. Writes:
 *   dist/spa.html                 the untouched app shell, which the API serves for every other route
 *   dist/index.html               the landing page
 *   dist/<route>/index.html       /plans, /support, /blogs, /blog, /blog/post1..3, /developers, /accuracy
 *   dist/<route>/index.html       also /login and /register (own title and text, not in the sitemap)
 *   dist/robots.txt, sitemap.xml  with absolute URLs on PUBLIC_URL (default http://localhost:3000)
 * The browser then renders the same page over the prerendered HTML (src/main.tsx), except on the content-only
 * pages (landing, blog), which load the few-KB src/public.ts instead of the app (ADR 027), and /login and
 * /register, which load src/sign-in.tsx: their form without the router (ADR 038).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import {
  appEntryKey,
  type Manifest,
  publicEntryKey,
  queryProviderSource,
  routeSources,
  signInEntryKey,
  staticClosure,
} from './route-chunks.ts';

type PrerenderModule = typeof import('../src/prerender.tsx');

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const origin = (process.env.PUBLIC_URL || 'http://localhost:3000').replace(/\/+$/, '');

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Builds src/prerender.tsx for Node into a temporary directory, with every dependency bundled in. */
async function loadPrerenderModule(): Promise<{ module: PrerenderModule; cleanup: () => Promise<void> }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'altwise-prerender-'));
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    ssr: { noExternal: true },
    build: {
      ssr: 'src/prerender.tsx',
      outDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
    },
  });
  const module = (await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href)) as PrerenderModule;
  return { module, cleanup: () => rm(outDir, { recursive: true, force: true }) };
}

/**
 * Prerendered forms wait for the app: `inert` until React has taken the page over (AppShell removes it), so
 * nothing typed before is lost to React's state and no link or button inside acts before its handler
 * exists; a visitor without JavaScript still reads them. method="post": should one be submitted natively
 * anyway, /login's email and password never go into the URL, the history or the server's logs.
 */
export function holdForms(html: string): string {
  return html.replace(/<form(?![^>]*\smethod=)/g, '<form method="post" inert=""');
}

/** Puts the page's HTML into #root and its title, description, canonical URL and Open Graph tags into <head>. */
export function injectPage(
  template: string,
  page: { html: string; meta: { title: string; description: string } },
  origin: string,
  pathname: string,
  preloads: readonly string[] = [],
  canonicalPath = pathname,
): string {
  const url = `${origin}${canonicalPath}`;
  const title = escapeHtml(page.meta.title);
  const description = escapeHtml(page.meta.description);
  const head = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}" />`),
  ].join('\n    ');
  const replaced = template
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, `$1${description}$2`)
    .replace(/(<meta\s+property="og:title"\s+content=")[^"]*(")/, `$1${title}$2`)
    .replace(/(<meta\s+property="og:description"\s+content=")[^"]*(")/, `$1${description}$2`)
    .replace('</head>', `  ${head}\n  </head>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-prerendered="${escapeHtml(pathname)}">${holdForms(page.html)}</div>`,
    )
    .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
  for (const needle of [
    `<title>${title}</title>`,
    `content="${description}"`,
    '<div id="root" data-prerendered',
  ]) {
    if (!replaced.includes(needle))
      throw new Error(`index.html no longer has the markup the prerender fills in (${needle}).`);
  }
  return replaced;
}

/**
 * The shell of a content-only page: the app's entry script and its modulepreloads replaced by the public
 * entry (src/public.ts) and the chunks it imports, so the page downloads none of the app.
 */
export function withPublicEntry(
  shell: string,
  appEntry: string,
  publicEntry: string,
  imports: string[],
): string {
  const appScript = `src="/${appEntry}"`;
  if (!shell.includes(appScript)) throw new Error(`index.html no longer loads the app with ${appScript}.`);
  const preloads = imports.map(
    (file) => `\n    <link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`,
  );
  return shell
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(
      /(<script type="module"[^>]*?) src="[^"]*"><\/script>/,
      `$1 src="/${publicEntry}"></script>${preloads.join('')}`,
    );
}

/**
 * The shell of the pages with their own entry instead of the app's (vite.config.ts): the content-only pages
 * (src/public.ts) and /login and /register (src/sign-in.tsx, ADR 038).
 */
async function entryShell(shell: string, entryKey: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const app = manifest[appEntryKey];
  const entry = manifest[entryKey];
  if (!app || !entry) throw new Error(`The manifest lacks ${appEntryKey} or ${entryKey}.`);
  const imports = [...staticClosure(manifest, [entryKey])]
    .filter((key) => key !== entryKey)
    .map((key) => manifest[key]?.file)
    .filter((file): file is string => Boolean(file?.endsWith('.js')));
  return withPublicEntry(shell, app.file, entry.file, imports);
}

/**
 * The JS files of each route's page chunk that the entry does not already load, so the browser fetches them
 * alongside the entry instead of after it (main.tsx loads the route before hydrating).
 */
async function routePreloads(
  needsQueryClient: (pathname: string) => boolean,
): Promise<(pathname: string) => string[]> {
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryChunks = staticClosure(manifest, [appEntryKey]);
  const sources = routeSources(await readFile(path.join(webDir, 'src/app/router.tsx'), 'utf8'));
  return (pathname) => {
    const source = sources.find((route) => route.route === pathname)?.source;
    if (!source || !manifest[source]) throw new Error(`No page chunk found for ${pathname}.`);
    const keys = needsQueryClient(pathname) ? [source, queryProviderSource] : [source];
    return [...staticClosure(manifest, keys)]
      .filter((key) => !entryChunks.has(key))
      .map((key) => manifest[key]?.file)
      .filter((file): file is string => Boolean(file?.endsWith('.js')));
  };
}

async function main() {
  // Run again on the same build, index.html is already the prerendered landing page: start from spa.html.
  const built = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const shell = built.includes('data-prerendered=')
    ? await readFile(path.join(distDir, 'spa.html'), 'utf8')
    : built;
  await writeFile(path.join(distDir, 'spa.html'), shell);

  const contentShell = await entryShell(shell, publicEntryKey);
  const signInShell = await entryShell(shell, signInEntryKey);

  const { module, cleanup } = await loadPrerenderModule();
  const preloadsFor = await routePreloads(module.needsQueryClient);
  try {
    for (const pathname of module.prerenderedPaths) {
      const page = await module.renderPage(pathname);
      const file = path.join(distDir, pathname, 'index.html');
      await mkdir(path.dirname(file), { recursive: true });
      const contentOnly = module.isContentOnlyPage(pathname);
      const signIn = module.isSignInPage(pathname);
      await writeFile(
        file,
        injectPage(
          contentOnly ? contentShell : signIn ? signInShell : shell,
          page,
          origin,
          pathname,
          contentOnly || signIn ? [] : preloadsFor(pathname),
          module.canonicalPath(pathname),
        ),
      );
      console.log(`prerendered ${pathname.padEnd(12)} ${page.meta.title}`);
    }
    await writeFile(
      path.join(distDir, 'sitemap.xml'),
      module.buildSitemapXml(origin, module.sitemapPaths, module.lastModified),
    );
    await writeFile(path.join(distDir, 'robots.txt'), module.buildRobotsTxt(origin));
    console.log(`wrote robots.txt and sitemap.xml for ${origin}`);
  } finally {
    await cleanup();
  }
}

if (import.meta.main) await main();
