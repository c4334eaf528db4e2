import {
  type ApiKeyRecord,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createApiKeyRequestSchema,
  MAX_API_KEYS,
} from '@altwise/contracts/api-keys';
import { useId } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useForm } from '../../lib/use-form.ts';
import {
  ConfirmDialog,
  failureReason as reason,
  SecretsCard,
  useCreateAndDelete,
  formatWhen as when,
} from './account-parts.tsx';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api/api-keys.ts';

export const apiKeyTexts = {
  heading: 'API keys',
  intro:
    'Call the Altwise API from a script, a build or your CMS: send a key as “Authorization: Bearer ak_…”. A key can do what you can, except manage keys and webhooks, change your password, email or account, or pay.',
  nameLabel: 'Key name',
  nameHint: 'For example the script or site that will use it.',
  create: 'Create key',
  creating: 'Creating...',
  createdTitle: 'Your new API key',
  createdWarning: 'Copy this key now and keep it somewhere safe: it will not be shown again.',
  keyLabel: 'New API key',
  copy: 'Copy key',
  copied: 'API key copied!',
  done: 'I have saved it',
  loading: 'Loading API keys...',
  loadFailed: 'Could not load your API keys.',
  none: 'You have no API keys yet.',
  createFailed: 'Could not create the API key.',
  never: 'Never used',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this API key?',
  revokeText: (key: ApiKeyRecord) =>
    `Anything that uses “${key.name}” (${key.prefix}…) stops working at once. This cannot be undone.`,
  cancel: 'Cancel',
  confirmRevoke: 'Revoke key',
  revoking: 'Revoking...',
  revoked: 'API key revoked.',
  revokeFailed: 'Could not revoke the API key.',
} as const;

const t = apiKeyTexts;

function KeyList({ onRevoke }: { onRevoke: (key: ApiKeyRecord) => void }) {
  const keys = useApiKeys();
  if (keys.isPending)
    return (
      <p role="status" className="text-slate-800">
        {t.loading}
      </p>
    );
  if (keys.isError) return <MessageBanner type="error">{reason(keys.error, t.loadFailed)}</MessageBanner>;
  if (keys.data.length === 0) return <p className="text-slate-800">{t.none}</p>;
  return (
    <ul aria-label="Your API keys" className="divide-y divide-slate-200 rounded-lg border border-slate-300">
      {keys.data.map((key) => (
        <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
          <div className="flex flex-col gap-0.5">
            <span className="font-medium text-slate-900">{key.name}</span>
            <span className="font-mono text-sm text-slate-800">{key.prefix}…</span>
            <span className="text-sm text-slate-700">
              Created {when(key.createdAt)} · {key.lastUsedAt ? `Last used ${when(key.lastUsedAt)}` : t.never}
            </span>
          </div>
          <Button
            variant="secondary"
            size="sm"
            aria-label={`${t.revoke} ${key.name}`}
            onClick={() => onRevoke(key)}
          >
            {t.revoke}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The /account screen's "API keys" section (ADR 028): create a key (shown once, with a copy
 * button and a warning), the list with each key's last use, and revoking with a confirmation dialog.
 */
export function ApiKeysSection() {
  const form = useForm(createApiKeyRequestSchema, { name: '' });
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const keys = useCreateAndDelete<CreateApiKeyRequest, CreatedApiKey, ApiKeyRecord, void>(create, revoke, {
    createFailed: t.createFailed,
    deleted: t.revoked,
    deleteFailed: t.revokeFailed,
  });
  const { created, failure, deleting: revoking } = keys;
  const introId = useId();

  const onSubmit = form.handleSubmit((values) => keys.submit(values, () => form.reset({ name: '' })));

  return (
    <SecretsCard
      texts={t}
      introId={introId}
      failure={failure}
      shownOnce={created ? { label: t.keyLabel, value: created.key, onDone: keys.dismissCreated } : null}
      dialog={
        <ConfirmDialog
          open={revoking !== null}
          title={t.revokeTitle}
          cancelLabel={t.cancel}
          confirmLabel={t.confirmRevoke}
          pendingLabel={t.revoking}
          pending={revoke.isPending}
          onCancel={keys.cancelDelete}
          onConfirm={keys.confirmDelete}
        >
          {revoking ? <p className="text-slate-800">{t.revokeText(revoking)}</p> : null}
        </ConfirmDialog>
      }
    >
      <form noValidate onSubmit={onSubmit} aria-describedby={introId} className="flex flex-col gap-3">
        <TextField
          label={t.nameLabel}
          hint={`${t.nameHint} At most ${MAX_API_KEYS} keys.`}
          autoComplete="off"
          aria-required
          {...form.field('name')}
        />
        <div>
          <Button type="submit" isLoading={create.isPending} loadingText={t.creating}>
            {t.create}
          </Button>
        </div>
      </form>
      <KeyList onRevoke={keys.askToDelete} />
    </SecretsCard>
  );
}
