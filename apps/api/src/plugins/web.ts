import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { clientRoutePatterns } from '@altwise/contracts/routes';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { publicRoutes } from './auth.ts';
import { sendJsonNotFound } from './error-handler.ts';

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

const clientRouteRegexes = clientRoutePatterns.map(
  (pattern) => new RegExp(`^${pattern.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
);

/** Routes without parameters: only these can have a prerendered page (dist/<route>/index.html). */
const staticClientRoutes: ReadonlySet<string> = new Set(clientRoutePatterns.filter((p) => !p.includes(':')));

export function isClientRoute(pathname: string): boolean {
  return clientRouteRegexes.some((regex) => regex.test(pathname));
}

function wantsHtml(request: FastifyRequest, pathname: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/files/')) return false;
  // Client routes first: a token in the path (/confirm-email/<jwt>) may look like a file name.
  if (isClientRoute(pathname)) return true;
  // A missing script, stylesheet or image gets a plain 404, not the app's HTML.
  if (pathname.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(pathname)) return false;
  const accept = request.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

const missingBuildPage = (distDir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Altwise: web app not built</title></head>
<body><h1>The web app is not built yet</h1>
<p>No build was found in <code>${distDir.replace(/[<>&]/g, '')}</code>. Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then restart the server.</p>
<p>The API is up: <a href="/api/v1/health">/api/v1/health</a>, <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;

/**
 * Serves the built SPA when SERVE_WEB is on: hashed files under /assets are cached for a year,
 * everything else (index.html above all) is revalidated. Prerendered pages (dist/<route>/index.html) are
 * static files. Any other GET that asks for HTML gets the app shell, spa.html, or index.html when the build
 * has no spa.html (history fallback): 200 for the client routes of the product spec §2, 404 with the same page for
 * the rest, so the SPA renders its not-found screen. This plugin owns the app's not-found handler;
 * /api, /files and non-HTML requests get the JSON 404.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { serve: boolean; distDir: string }) => {
    const indexFile = path.join(options.distDir, 'index.html');
    const built = options.serve && existsSync(indexFile);

    if (options.serve && !built) {
      app.log.warn(
        { distDir: options.distDir },
        `The web app is not built (no ${indexFile}); the API runs, pages show how to build. Run \`npm run build\`.`,
      );
    }

    if (built) {
      // The built site's files are open to anyone (ADR 047).
      await app.register(publicRoutes(fastifyStatic), {
        root: options.distDir,
        prefix: '/',
        // '/' is a client route too: the directory index is the SPA's index.html.
        index: 'index.html',
        cacheControl: false,
        etag: true,
        lastModified: true,
        setHeaders(reply, filePath) {
          const relative = path.relative(options.distDir, filePath).split(path.sep).join('/');
          reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE_CACHE : 'no-cache');
        },
      });
    }

    // The web build prerenders public pages into index.html (the landing page) and <route>/index.html; the
    // bare app shell for every other route is spa.html (older builds: index.html).
    const shellFile = path.join(options.distDir, 'spa.html');
    const readShell = () => readFile(shellFile, 'utf8').catch(() => readFile(indexFile, 'utf8'));
    const readPage = async (pathname: string) => {
      const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      if (staticClientRoutes.has(route)) {
        try {
          return await readFile(path.join(options.distDir, route, 'index.html'), 'utf8');
        } catch {
          // Not prerendered: the shell renders it in the browser.
        }
      }
      return readShell();
    };

    const sendIndex = async (reply: FastifyReply, pathname: string) => {
      // Read on each request: a rebuild takes effect without a restart, and the file is small.
      const html = await readPage(pathname);
      return reply
        .code(isClientRoute(pathname) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(html);
    };

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      if (options.serve && wantsHtml(request, pathname)) {
        if (built) return sendIndex(reply, pathname);
        return reply
          .code(503)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(missingBuildPage(options.distDir));
      }
      return sendJsonNotFound(request, reply);
    });
  },
  { name: 'web' },
);
