import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  createWebhookRequestSchema,
  type RotatedWebhookSecret,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  webhookEventTypes,
} from '@altwise/contracts/webhooks';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import {
  ConfirmDialog,
  failureReason as reason,
  SecretsCard,
  useCreateAndDelete,
  formatWhen as when,
} from './account-parts.tsx';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliverWebhook,
  useRotateWebhookSecret,
  useWebhookDeliveries,
  useWebhooks,
} from './api/webhooks.ts';

export const webhookTexts = {
  heading: 'Webhooks',
  intro:
    'Altwise can POST a signed JSON event to your server when a batch of images is done. Each request carries webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks); check the signature with your signing secret.',
  urlLabel: 'Endpoint URL',
  urlHint: 'A public https address of your server.',
  eventsLegend: 'Events to send',
  eventLabels: {
    'batch.completed': 'A batch completed (with the alt text of each image)',
    'batch.failed': 'A batch failed',
    'audit.completed': 'An audit completed',
  } satisfies Record<WebhookEvent, string>,
  add: 'Add webhook',
  adding: 'Adding...',
  createdTitle: 'Your webhook signing secret',
  createdWarning: 'Copy this signing secret now and keep it on your server: it will not be shown again.',
  secretLabel: 'Signing secret',
  copy: 'Copy secret',
  copied: 'Signing secret copied!',
  done: 'I have saved it',
  loading: 'Loading webhooks...',
  loadFailed: 'Could not load your webhooks.',
  none: 'You have no webhooks yet.',
  createFailed: 'Could not add the webhook.',
  deliveriesLabel: (url: string) => `Recent deliveries to ${url}`,
  noDeliveries: 'No deliveries yet.',
  deliveriesFailed: 'Could not load the deliveries.',
  statusLabels: { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' },
  redeliver: 'Send again',
  redelivered: 'The event is queued to be sent again.',
  redeliverFailed: 'Could not send the event again.',
  rotate: 'Rotate secret',
  rotateLabel: (url: string) => `Rotate secret of webhook ${url}`,
  rotating: 'Rotating...',
  rotatedTitle: 'Your new webhook signing secret',
  rotatedWarning: (until: string) =>
    `Copy this new signing secret now and put it on your server: it will not be shown again. Until ${until} every delivery is signed with both the new and the old secret, so either one verifies; after that only the new one does.`,
  rotated: `New signing secret made. The old one keeps working for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours.`,
  rotateFailed: 'Could not rotate the signing secret.',
  remove: 'Delete',
  removeTitle: 'Delete this webhook?',
  removeText: (webhook: Webhook) =>
    `Events stop going to ${webhook.url} at once, and its delivery history is deleted. This cannot be undone.`,
  cancel: 'Cancel',
  confirmRemove: 'Delete webhook',
  removing: 'Deleting...',
  removed: 'Webhook deleted.',
  removeFailed: 'Could not delete the webhook.',
} as const;

const t = webhookTexts;
/** Deliveries shown per webhook. */
const SHOWN_DELIVERIES = 5;

function deliveryLine(delivery: WebhookDelivery): string {
  const parts = [
    delivery.event,
    t.statusLabels[delivery.status],
    `${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}`,
  ];
  if (delivery.lastStatusCode !== null) parts.push(`HTTP ${delivery.lastStatusCode}`);
  if (delivery.status !== 'delivered' && delivery.lastError) parts.push(delivery.lastError);
  parts.push(when(delivery.createdAt));
  return parts.join(' · ');
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const deliveries = useWebhookDeliveries(webhook.id);
  const redeliver = useRedeliverWebhook(webhook.id);
  if (deliveries.isPending) return null;
  if (deliveries.isError)
    return <p className="text-sm text-red-800">{reason(deliveries.error, t.deliveriesFailed)}</p>;
  if (deliveries.data.length === 0) return <p className="text-sm text-slate-700">{t.noDeliveries}</p>;
  const sendAgain = (delivery: WebhookDelivery) =>
    redeliver.mutate(delivery.id, {
      onSuccess: () => notify.success(t.redelivered),
      onError: (error) => notify.error(reason(error, t.redeliverFailed)),
    });
  return (
    <ul aria-label={t.deliveriesLabel(webhook.url)} className="flex flex-col gap-1 text-sm text-slate-800">
      {deliveries.data.slice(0, SHOWN_DELIVERIES).map((delivery) => (
        <li key={delivery.id} className="flex flex-wrap items-center gap-2">
          <span>{deliveryLine(delivery)}</span>
          {delivery.status === 'failed' ? (
            <Button
              variant="secondary"
              size="sm"
              aria-label={`${t.redeliver}: ${delivery.event} of ${when(delivery.createdAt)}`}
              disabled={redeliver.isPending}
              onClick={() => sendAgain(delivery)}
            >
              {t.redeliver}
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function WebhookList({
  onRemove,
  onRotate,
  rotatingId,
}: {
  onRemove: (webhook: Webhook) => void;
  onRotate: (webhook: Webhook) => void;
  /** The webhook whose secret is being rotated, if any. */
  rotatingId: string | null;
}) {
  const webhooks = useWebhooks();
  if (webhooks.isPending)
    return (
      <p role="status" className="text-slate-800">
        {t.loading}
      </p>
    );
  if (webhooks.isError)
    return <MessageBanner type="error">{reason(webhooks.error, t.loadFailed)}</MessageBanner>;
  if (webhooks.data.length === 0) return <p className="text-slate-800">{t.none}</p>;
  return (
    <ul aria-label="Your webhooks" className="divide-y divide-slate-200 rounded-lg border border-slate-300">
      {webhooks.data.map((webhook) => (
        <li key={webhook.id} className="flex flex-col gap-2 p-3">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="break-all font-mono text-sm text-slate-900">{webhook.url}</span>
              <span className="text-sm text-slate-700">
                {webhook.events.join(', ')} · Added {when(webhook.createdAt)}
              </span>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                size="sm"
                aria-label={t.rotateLabel(webhook.url)}
                isLoading={rotatingId === webhook.id}
                loadingText={t.rotating}
                disabled={rotatingId !== null}
                onClick={() => onRotate(webhook)}
              >
                {t.rotate}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`${t.remove} webhook ${webhook.url}`}
                onClick={() => onRemove(webhook)}
              >
                {t.remove}
              </Button>
            </div>
          </div>
          <Deliveries webhook={webhook} />
        </li>
      ))}
    </ul>
  );
}

/**
 * The /account screen's "Webhooks" section (ADR 029): add an endpoint (URL and events; the
 * signing secret shown once with a copy button), the list with each endpoint's recent deliveries and
 * their status, and deleting with a confirmation dialog.
 */
export function WebhooksSection() {
  const create = useCreateWebhook();
  const remove = useDeleteWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['batch.completed']);
  const [errors, setErrors] = useState<{ url?: string; events?: string }>({});
  const webhooks = useCreateAndDelete<CreateWebhookRequest, CreatedWebhook, Webhook, void>(create, remove, {
    createFailed: t.createFailed,
    deleted: t.removed,
    deleteFailed: t.removeFailed,
  });
  const { created, failure, deleting: removing } = webhooks;
  const rotate = useRotateWebhookSecret();
  const [rotated, setRotated] = useState<RotatedWebhookSecret | null>(null);
  const onRotate = (webhook: Webhook) =>
    rotate.mutate(webhook.id, {
      onSuccess: (answer) => {
        webhooks.dismissCreated();
        setRotated(answer);
        notify.success(t.rotated);
      },
      onError: (error) => notify.error(reason(error, t.rotateFailed)),
    });
  const introId = useId();
  const eventsErrorId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    webhooks.clearFailure();
    const parsed = createWebhookRequestSchema.safeParse({ url, events });
    if (!parsed.success) {
      const next: { url?: string; events?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'events' ? 'events' : 'url';
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    webhooks.submit(parsed.data, () => {
      setRotated(null);
      setUrl('');
      setEvents(['batch.completed']);
    });
  };

  const toggle = (name: WebhookEvent, on: boolean) =>
    setEvents((current) =>
      on
        ? webhookEventTypes.filter((e) => e === name || current.includes(e))
        : current.filter((e) => e !== name),
    );

  return (
    <SecretsCard
      texts={
        rotated
          ? {
              ...t,
              createdTitle: t.rotatedTitle,
              createdWarning: t.rotatedWarning(when(rotated.previousSecretExpiresAt)),
            }
          : t
      }
      introId={introId}
      failure={failure}
      shownOnce={
        rotated
          ? { label: t.secretLabel, value: rotated.secret, onDone: () => setRotated(null) }
          : created
            ? { label: t.secretLabel, value: created.secret, onDone: webhooks.dismissCreated }
            : null
      }
      dialog={
        <ConfirmDialog
          open={removing !== null}
          title={t.removeTitle}
          cancelLabel={t.cancel}
          confirmLabel={t.confirmRemove}
          pendingLabel={t.removing}
          pending={remove.isPending}
          onCancel={webhooks.cancelDelete}
          onConfirm={webhooks.confirmDelete}
        >
          {removing ? <p className="text-slate-800">{t.removeText(removing)}</p> : null}
        </ConfirmDialog>
      }
    >
      <form noValidate onSubmit={onSubmit} aria-describedby={introId} className="flex flex-col gap-3">
        <TextField
          label={t.urlLabel}
          hint={`${t.urlHint} At most ${WEBHOOK_ENDPOINTS_MAX} webhooks.`}
          type="url"
          inputMode="url"
          autoComplete="off"
          aria-required
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={errors.url}
        />
        <fieldset
          className="flex flex-col gap-1"
          aria-describedby={errors.events ? eventsErrorId : undefined}
        >
          <legend className="text-sm font-medium text-slate-900">{t.eventsLegend}</legend>
          {webhookEventTypes.map((name) => (
            <label key={name} className="flex items-center gap-2 text-slate-900">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={events.includes(name)}
                onChange={(event) => toggle(name, event.target.checked)}
              />
              {t.eventLabels[name]}
            </label>
          ))}
          {errors.events ? (
            <p id={eventsErrorId} className="text-sm text-red-800">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        <div>
          <Button type="submit" isLoading={create.isPending} loadingText={t.adding}>
            {t.add}
          </Button>
        </div>
      </form>
      <WebhookList
        onRemove={webhooks.askToDelete}
        onRotate={onRotate}
        rotatingId={rotate.isPending ? (rotate.variables ?? null) : null}
      />
    </SecretsCard>
  );
}
