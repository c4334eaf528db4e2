import {
  connectWordPressRequestSchema,
  connectWordPressResponseSchema,
  integrationParamsSchema,
  integrationSchema,
  listChangesResponseSchema,
  listIntegrationsResponseSchema,
  MAX_INTEGRATIONS,
  publishPreviewResponseSchema,
  publishRequestSchema,
  startIntegrationJobResponseSchema,
  undoRequestSchema,
} from '@altwise/contracts/integrations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IntegrationsService } from './service.ts';

const tags = ['integrations'];

/** Connected WordPress sites (ADR 056), under /api/v1. */
export async function integrationsRoutes(
  app: FastifyInstance,
  options: { integrations: IntegrationsService },
) {
  const { integrations } = options;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/integrations/wordpress',
    {
      schema: {
        tags,
        summary: 'Connect a WordPress site with an application password (checked at once, stored encrypted)',
        description:
          'The site is checked at once with `GET /wp-json/wp/v2/users/me?context=edit` (or `/?rest_route=` when pretty links are off), through the SSRF-safe fetcher. ' +
          'The application password (WordPress 5.6+, Users → Profile → Application Passwords) is stored encrypted (AES-256-GCM) and never returned. ' +
          `400 in words when the address is private, unreachable or not WordPress, the REST API is off, or WordPress refuses the user or password; 409 beyond ${MAX_INTEGRATIONS} sites.`,
        body: connectWordPressRequestSchema,
        response: { 201: connectWordPressResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await integrations.connectWordPress(request.user.id, request.body));
    },
  );

  typed.get(
    '/integrations',
    {
      schema: {
        tags,
        summary: 'The caller’s connected sites, newest first (never their passwords)',
        response: { 200: listIntegrationsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return integrations.list(request.user.id);
    },
  );

  typed.get(
    '/integrations/:id',
    {
      schema: {
        tags,
        summary: 'One connected site: its import’s progress, its audit and the last publish',
        description:
          '`status`: connected, importing, imported, publishing or failed (`error` says why in words; try again). `mediaCount` is the number of image attachments WordPress reports, `imported` how many were read, `placements` the uses of those images in posts and pages, `auditId` the import’s audit (its images, fix, review and reports go through /audits). 404 when the site is not the caller’s.',
        params: integrationParamsSchema,
        response: { 200: integrationSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return integrations.get(request.user.id, request.params.id);
    },
  );

  typed.delete(
    '/integrations/:id',
    {
      schema: {
        tags,
        summary: 'Disconnect a site: its stored password and change log are deleted (the audit stays)',
        params: integrationParamsSchema,
      },
    },
    async (request, reply) => {
      await integrations.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );

  typed.post(
    '/integrations/:id/import',
    {
      schema: {
        tags,
        summary: 'Import the media library and where each image is used, as a new audit (free)',
        description:
          'A durable job: every image attachment (alt, title, caption, description, URLs), then the posts and pages whose content uses one (by `wp-image-{id}` or its URLs), 100 at a time, resuming where it stopped after a restart. It lands as a normal audit: the library page (each attachment’s own alt text) and one page per post with its images in context. Follow it with GET /integrations/{id}. 409 while an import or publish runs.',
        params: integrationParamsSchema,
        response: { 202: startIntegrationJobResponseSchema },
      },
    },
    async (request, reply) => {
      const started = await integrations.startImport(request.user.id, request.params.id);
      return reply.code(202).send({ id: started.id, status: started.status });
    },
  );

  typed.post(
    '/integrations/:id/publish',
    {
      schema: {
        tags,
        summary: 'Publish approved alt text to the site: the attachment’s alt_text or the image in a post',
        description:
          'Without `imageIds`: every accepted or edited image of the import’s audit; with them, those. An image of the library page sets the attachment’s `alt_text`; an image of a post sets that use’s `<img alt>` (and the image block’s `alt` attribute when it has one) in `content.raw`, nothing else, read back to check. A post changed on WordPress since the import is left alone and named in `error`. Each write is logged with the previous value (GET /integrations/{id}/changes); the same words are never written twice. ' +
          'Every approved alt is judged by the publishable rule first (ADR 067, ADR 069): words that may not go live are left out and counted in `notice` ("N images need your words"); when every approved image is held back, 422 with each named in `errors`. POST /integrations/{id}/publish/preview shows the same plan first. ' +
          '409 when nothing (or a selected image) is approved, or while an import or publish runs. 202, then follow GET /integrations/{id} (`progress`: written, failed, of total).',
        params: integrationParamsSchema,
        body: publishRequestSchema,
        response: { 202: startIntegrationJobResponseSchema },
      },
    },
    async (request, reply) => {
      const started = await integrations.startPublish(
        request.user.id,
        request.params.id,
        request.body.imageIds,
      );
      return reply.code(202).send({ id: started.id, status: started.status });
    },
  );

  typed.post(
    '/integrations/:id/publish/preview',
    {
      schema: {
        tags,
        summary: 'What a publish with the same body would write and where, before → after (writes nothing)',
        description:
          '`items`: each place a publish would write (the attachment’s `alt_text`, or the image’s use in a post with the post’s title), with its file name, the alt now and the approved words. `heldBack`: approved images whose words may not go live (the publishable rule, ADR 067: no words, a kind-and-tone sentence, a file name, a title pasted in front, nothing a person could check), with the code and why in words; a publish leaves them out. `unchanged`: places that already say the approved words. ' +
          '409 before an import, when nothing is approved or a named image is no approved image of the import; 404 when the site is not the caller’s.',
        params: integrationParamsSchema,
        body: publishRequestSchema,
        response: { 200: publishPreviewResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return integrations.previewPublish(request.user.id, request.params.id, request.body.imageIds);
    },
  );

  typed.get(
    '/integrations/:id/changes',
    {
      schema: {
        tags,
        summary: 'Every write Altwise made to the site, newest first, with the value it replaced',
        params: integrationParamsSchema,
        response: { 200: listChangesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return integrations.changes(request.user.id, request.params.id);
    },
  );

  typed.post(
    '/integrations/:id/undo',
    {
      schema: {
        tags,
        summary: 'Undo published changes: the previous alt text is written back',
        description:
          'A change whose value was edited on WordPress since (or whose post changed) is left alone and named in `error`. 404 for a change that is not this site’s, 409 for one undone already or while an import or publish runs. 202, then follow GET /integrations/{id}.',
        params: integrationParamsSchema,
        body: undoRequestSchema,
        response: { 202: startIntegrationJobResponseSchema },
      },
    },
    async (request, reply) => {
      const started = await integrations.startUndo(
        request.user.id,
        request.params.id,
        request.body.changeIds,
      );
      return reply.code(202).send({ id: started.id, status: started.status });
    },
  );
}
