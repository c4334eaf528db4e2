import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';
import type { MailService } from './service.ts';

/** Links in a plain-text mail, made clickable (after escaping, so nothing else becomes markup). */
const linkify = (escaped: string) =>
  escaped.replace(/https?:\/\/[^\s<&]+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * GET /dev/outbox: the last 50 stored emails, newest first, with their links clickable. Registered
 * in development only (app.ts), where mail usually goes to the embedded outbox.
 */
export async function devOutboxRoutes(app: FastifyInstance, options: { mail: MailService }) {
  app.get('/dev/outbox', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    const mails = await options.mail.listRecentMail(50);
    const items = mails
      .map(
        (mail) => `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p><strong>To:</strong> ${escapeHtml(mail.to)} · <strong>Kind:</strong> ${escapeHtml(mail.kind)} · <strong>Status:</strong> ${escapeHtml(mail.status)}${mail.transport ? ` (${escapeHtml(mail.transport)})` : ''} · ${mail.createdAt.toISOString()}</p>
<pre>${linkify(escapeHtml(mail.text))}</pre>
</article>`,
      )
      .join('\n<hr>\n');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Altwise outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f4f4f5;padding:1rem}</style></head>
<body><h1>Outbox (${options.mail.transportDriver})</h1><p>The last ${mails.length} emails, newest first. Development only.</p>
${items || '<p>No emails yet.</p>'}</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
}
