import {
  connectWordPressRequestSchema,
  type Integration,
  type IntegrationChange,
  type IntegrationStatus,
  type IntegrationSummary,
  type PublishPreviewResponse,
} from '@altwise/contracts/integrations';
import { routes } from '@altwise/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Thumbnail } from '../../components/ui/image-preview.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { formatDate, formatTimeLeft } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useForm } from '../../lib/use-form.ts';
import {
  changesQueryKey,
  isIntegrationBusy,
  useChanges,
  useConnectWordPress,
  useDeleteIntegration,
  useIntegration,
  useIntegrationAction,
  useIntegrations,
  usePublishPreview,
} from './api/integrations.ts';
import { PublishDialog } from './components/publish-dialog.tsx';

const statusLabels: Record<IntegrationStatus, string> = {
  connected: 'Connected, not imported yet',
  importing: 'Importing the media library…',
  imported: 'Imported',
  publishing: 'Publishing…',
  failed: 'Stopped',
};

/** A publish or undo under way in words: "120 of 600 written, 2 failed; about 3 minutes left." */
function publishProgressText(progress: NonNullable<Integration['progress']>): string {
  const failed = progress.failed > 0 ? `, ${progress.failed} failed` : '';
  const left = progress.etaSeconds !== null ? `; ${formatTimeLeft(progress.etaSeconds)} left` : '';
  return `${progress.written} of ${progress.total} written${failed}${left}.`;
}

const emptyForm = { siteUrl: '', username: '', applicationPassword: '' };

function ConnectForm() {
  const connect = useConnectWordPress();
  const form = useForm(connectWordPressRequestSchema, emptyForm);
  const [problem, setProblem] = useState<string | null>(null);
  const [connected, setConnected] = useState<string | null>(null);

  const onValid = form.handleSubmit((body) => {
    setProblem(null);
    setConnected(null);
    connect.mutate(body, {
      onSuccess: (site) => {
        setConnected(`${site.siteUrl} is connected. Import its media library below.`);
        // Leaving the emptied field would mark it touched and show an error that shifts the page
        // under the pointer: the form goes back to untouched without its focus.
        if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
        form.reset();
      },
      onError: (error) =>
        setProblem(errorMessage(error, 'The site could not be connected. Please try again.')),
    });
  });

  return (
    <form noValidate onSubmit={onValid} className="flex flex-col gap-5" aria-label="Connect a WordPress site">
      <TextField
        label="Site address"
        type="text"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com"
        {...form.field('siteUrl')}
      />
      <TextField label="WordPress user name" type="text" autoComplete="off" {...form.field('username')} />
      <TextField
        label="Application password"
        type="password"
        autoComplete="new-password"
        hint="Make one in WordPress under Users → Profile → Application Passwords. It is stored encrypted and never shown again."
        {...form.field('applicationPassword')}
      />
      {problem ? (
        <MessageBanner type="error" onDismiss={() => setProblem(null)}>
          {problem}
        </MessageBanner>
      ) : null}
      {connected ? <MessageBanner type="success">{connected}</MessageBanner> : null}
      <div>
        <Button type="submit" isLoading={connect.isPending} loadingText="Checking the site...">
          Connect site
        </Button>
      </div>
    </form>
  );
}

function ChangesTable({ id, changes }: { id: string; changes: IntegrationChange[] }) {
  const action = useIntegrationAction(id);
  const [problem, setProblem] = useState<string | null>(null);
  if (changes.length === 0)
    return <p className="text-slate-700">Nothing has been published to this site yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      {problem ? (
        <MessageBanner type="error" onDismiss={() => setProblem(null)}>
          {problem}
        </MessageBanner>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
          <caption className="sr-only">Changes published to this site, newest first</caption>
          <thead>
            <tr className="border-b border-slate-300 text-slate-900">
              <th scope="col" className="py-2 pr-3 font-semibold">
                Where
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Before
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                After
              </th>
              <th scope="col" className="py-2 pr-3 font-semibold">
                Published
              </th>
              <th scope="col" className="py-2 font-semibold">
                Undo
              </th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => {
              const image = change.fileName ?? `image ${change.mediaId}`;
              const where =
                change.field === 'alt_text'
                  ? `Media library, ${image}`
                  : `“${change.postTitle ?? `Post ${change.postId}`}”, ${image}`;
              return (
                <tr key={change.id} className="border-b border-slate-200 align-top">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    <span className="flex items-center gap-2">
                      {change.thumbnailUrl || change.src ? (
                        <Thumbnail url={change.thumbnailUrl} fallbackUrl={change.src} className="size-10" />
                      ) : null}
                      <span className="break-all">{where}</span>
                    </span>
                  </th>
                  <td className="py-2 pr-3 break-words">{change.before || <em>(none)</em>}</td>
                  <td className="py-2 pr-3 break-words">{change.after}</td>
                  <td className="py-2 pr-3">{formatDate(change.publishedAt)}</td>
                  <td className="py-2">
                    {change.undoneAt ? (
                      <span>Undone {formatDate(change.undoneAt)}</span>
                    ) : (
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={`Undo: ${where}`}
                        disabled={action.isPending}
                        onClick={() =>
                          action.mutate(
                            { kind: 'undo', changeIds: [change.id] },
                            {
                              onError: (error) =>
                                setProblem(
                                  errorMessage(error, 'The change could not be undone. Please try again.'),
                                ),
                            },
                          )
                        }
                      >
                        Undo
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SiteCard({ summary }: { summary: IntegrationSummary }) {
  const integration = useIntegration(summary.id);
  const action = useIntegrationAction(summary.id);
  const remove = useDeleteIntegration();
  const [problem, setProblem] = useState<string | null>(null);
  const site = integration.data;
  const busy = site ? isIntegrationBusy(site) : false;
  const changes = useChanges(summary.id, Boolean(site?.auditId) && !busy);
  const queryClient = useQueryClient();
  const status = site?.status;
  const preview = usePublishPreview(summary.id);
  const [planned, setPlanned] = useState<PublishPreviewResponse | null>(null);
  // A publish or undo that just ended changed the log: read it again.
  useEffect(() => {
    if (status && status !== 'publishing')
      void queryClient.invalidateQueries({ queryKey: changesQueryKey(summary.id) });
  }, [status, queryClient, summary.id]);
  const onError = (fallback: string) => (error: unknown) => setProblem(errorMessage(error, fallback));

  return (
    <section
      aria-labelledby={`site-${summary.id}`}
      className="flex flex-col gap-4 border-t border-slate-200 pt-6 first:border-0 first:pt-0"
    >
      <h3 id={`site-${summary.id}`} className="text-lg font-semibold break-all text-slate-900">
        {summary.siteUrl}
      </h3>
      <p className="text-slate-700">Connected as {summary.username}.</p>
      {integration.isError ? (
        <MessageBanner type="error">
          {errorMessage(integration.error, 'This site could not be loaded.')}
        </MessageBanner>
      ) : null}
      {site ? (
        <div className="flex flex-col gap-2" aria-live="polite">
          <p className="font-medium text-slate-900">Status: {statusLabels[site.status]}</p>
          {site.mediaCount !== null || site.status === 'importing' ? (
            <>
              <progress
                className="w-full max-w-md"
                max={Math.max(site.mediaCount ?? 0, 1)}
                value={site.imported}
                aria-label={`Images imported from ${summary.siteUrl}`}
              />
              <p className="text-slate-700">
                {site.imported} of {site.mediaCount ?? '?'} images imported; {site.placements} uses in posts
                and pages.
                {site.lastImportAt ? ` Last import ${formatDate(site.lastImportAt)}.` : ''}
              </p>
            </>
          ) : null}
          {site.status === 'publishing' && site.progress ? (
            <>
              <progress
                className="w-full max-w-md"
                max={Math.max(site.progress.total, 1)}
                value={site.progress.written + site.progress.failed}
                aria-label={`Publishing to ${summary.siteUrl}`}
                aria-valuetext={publishProgressText(site.progress)}
              />
              <p className="text-slate-700" aria-live="polite">
                {publishProgressText(site.progress)}
              </p>
            </>
          ) : null}
          {site.notice ? <MessageBanner type="success">{site.notice}</MessageBanner> : null}
          {site.error ? <MessageBanner type="error">{site.error}</MessageBanner> : null}
          {site.failures.length > 0 ? (
            <div className="flex flex-col gap-1">
              <h4 className="font-semibold text-slate-900">Places not written</h4>
              <ul className="list-disc pl-6 text-slate-700">
                {site.failures.map((failure) => (
                  <li key={`${failure.mediaId}-${failure.postId ?? 'library'}`}>
                    {failure.postId === null
                      ? `Image ${failure.mediaId}, its alt text in the media library: `
                      : `Image ${failure.mediaId} in post ${failure.postId}: `}
                    {failure.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
      {problem ? (
        <MessageBanner type="error" onDismiss={() => setProblem(null)}>
          {problem}
        </MessageBanner>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant={site?.auditId ? 'secondary' : 'primary'}
          disabled={busy || action.isPending}
          onClick={() => {
            setProblem(null);
            action.mutate({ kind: 'import' }, { onError: onError('The import could not be started.') });
          }}
        >
          {site?.auditId ? 'Import again' : 'Import media library'}
        </Button>
        {site?.auditId ? (
          <>
            <Link
              to={routes.auditDetail(site.auditId)}
              className="font-medium text-indigo-800 underline underline-offset-2 hover:no-underline"
            >
              Open the import’s audit to fix and approve
            </Link>
            <Button
              disabled={busy || action.isPending}
              isLoading={preview.isPending}
              loadingText="Reading what will change..."
              onClick={() => {
                setProblem(null);
                preview.mutate(undefined, {
                  onSuccess: setPlanned,
                  onError: onError('What would be published could not be read.'),
                });
              }}
            >
              Publish approved alt text
            </Button>
          </>
        ) : null}
        <Button
          variant="ghost"
          aria-label={`Disconnect ${summary.siteUrl}`}
          disabled={busy || remove.isPending}
          onClick={() =>
            remove.mutate(summary.id, { onError: onError('The site could not be disconnected.') })
          }
        >
          Disconnect
        </Button>
      </div>
      {planned ? (
        <PublishDialog
          siteUrl={summary.siteUrl}
          preview={planned}
          publishing={action.isPending}
          onClose={() => setPlanned(null)}
          onConfirm={() =>
            action.mutate(
              { kind: 'publish' },
              {
                onSuccess: () => setPlanned(null),
                onError: (error) => {
                  setPlanned(null);
                  setProblem(errorMessage(error, 'Publishing could not be started.'));
                },
              },
            )
          }
        />
      ) : null}
      {site?.auditId ? (
        <div className="flex flex-col gap-2">
          <h4 className="font-semibold text-slate-900">Published changes</h4>
          {changes.data ? <ChangesTable id={summary.id} changes={changes.data} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function SiteList() {
  const sites = useIntegrations();
  if (sites.isPending) return <p className="text-slate-700">Loading your sites...</p>;
  if (sites.isError)
    return (
      <MessageBanner type="error">
        {errorMessage(sites.error, 'Your sites could not be loaded.')}
      </MessageBanner>
    );
  if (sites.data.length === 0) return <p className="text-slate-700">You have not connected a site yet.</p>;
  return (
    <div className="flex flex-col gap-6">
      {sites.data.map((site) => (
        <SiteCard key={site.id} summary={site} />
      ))}
    </div>
  );
}

/**
 * /integrations: connect a WordPress site with an application password, import its media
 * library as an audit, publish the approved alt text back and undo any change.
 */
export function IntegrationsPage() {
  usePageTitle('Integrations');
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Integrations</h1>
      <p className="mt-3 text-lg text-slate-700">
        Publish approved alt text where it lives. Connect a WordPress site (no plugin needed), import its
        media library as an audit, fix and approve, then publish into the media library and into each post.
      </p>
      <Card title="Connect a WordPress site" className="mt-8">
        <ConnectForm />
      </Card>
      <Card title="Your sites" className="mt-6">
        <SiteList />
      </Card>
    </div>
  );
}
