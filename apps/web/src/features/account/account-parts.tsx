import type { UseMutationResult } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { isApiError, serverMessage } from '../../lib/api-error.ts';
import { copyText } from '../../lib/copy-text.ts';

/** Pieces the /account sections for API keys and webhooks share. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatWhen = (iso: string) => dateTime.format(new Date(iso));

/** The server's reason when it answered with one; otherwise our own words. */
export const failureReason = (error: unknown, fallback: string) =>
  isApiError(error) && error.status > 0 ? serverMessage(error) || fallback : fallback;

/**
 * A secret shown this one time (an API key, a webhook signing secret): a labelled read-only field
 * described by the warning, a copy button, and a button that dismisses it for good.
 */
export function ShownOncePanel(props: {
  title: string;
  warning: string;
  label: string;
  value: string;
  copyLabel: string;
  copiedMessage: string;
  doneLabel: string;
  onDone: () => void;
}) {
  const warningId = useId();
  return (
    <section
      aria-label={props.title}
      className="flex flex-col gap-3 rounded-lg border border-amber-600 bg-amber-50 p-4"
    >
      <h3 className="font-semibold text-slate-900">{props.title}</h3>
      <p id={warningId} className="text-slate-900">
        {props.warning}
      </p>
      <TextField
        label={props.label}
        value={props.value}
        readOnly
        aria-describedby={warningId}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="flex flex-wrap gap-3">
        <Button onClick={() => copyText(props.value, props.copiedMessage)}>{props.copyLabel}</Button>
        <Button variant="secondary" onClick={props.onDone}>
          {props.doneLabel}
        </Button>
      </div>
    </section>
  );
}

/**
 * The frame of a section that creates secrets (API keys, webhooks): the intro that describes its form,
 * the last failure, the new secret shown once, then the form and the list, and the confirm dialog.
 */
export function SecretsCard(props: {
  texts: {
    heading: string;
    intro: string;
    createdTitle: string;
    createdWarning: string;
    copy: string;
    copied: string;
    done: string;
  };
  introId: string;
  failure: string | null;
  /** The secret just created, with its field's label; null once dismissed. */
  shownOnce: { label: string; value: string; onDone: () => void } | null;
  dialog: ReactNode;
  children: ReactNode;
}) {
  const { texts, shownOnce } = props;
  return (
    <Card title={texts.heading}>
      <div className="flex flex-col gap-4">
        <p id={props.introId} className="text-slate-800">
          {texts.intro}
        </p>
        {props.failure ? (
          <MessageBanner type="error">
            <p>{props.failure}</p>
          </MessageBanner>
        ) : null}
        {shownOnce ? (
          <ShownOncePanel
            title={texts.createdTitle}
            warning={texts.createdWarning}
            label={shownOnce.label}
            value={shownOnce.value}
            copyLabel={texts.copy}
            copiedMessage={texts.copied}
            doneLabel={texts.done}
            onDone={shownOnce.onDone}
          />
        ) : null}
        {props.children}
      </div>
      {props.dialog}
    </Card>
  );
}

/** Confirms a destructive action; it cannot be closed while the action is under way. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={props.open}
      onClose={() => {
        if (!props.pending) props.onCancel();
      }}
      title={props.title}
    >
      {props.children}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" disabled={props.pending} onClick={props.onCancel}>
          {props.cancelLabel}
        </Button>
        <Button
          variant="danger"
          isLoading={props.pending}
          loadingText={props.pendingLabel}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * The state and handlers around a section's create and delete calls: the item just created (its
 * secret shown once), the failure shown above the form, and the item whose deletion awaits the
 * confirmation dialog. A deletion closes the dialog either way, then toasts or shows the failure.
 */
export function useCreateAndDelete<Input, Created, Item extends { id: string }, Deleted>(
  create: Pick<UseMutationResult<Created, Error, Input>, 'mutate'>,
  remove: Pick<UseMutationResult<Deleted, Error, string>, 'mutate'>,
  texts: { createFailed: string; deleted: string; deleteFailed: string },
) {
  const [created, setCreated] = useState<Created | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  return {
    created,
    failure,
    deleting,
    clearFailure: () => setFailure(null),
    dismissCreated: () => setCreated(null),
    askToDelete: setDeleting,
    cancelDelete: () => setDeleting(null),
    /** Sends the create call; `onCreated` (clearing the form) runs before the new item is shown. */
    submit(input: Input, onCreated: () => void) {
      setFailure(null);
      create.mutate(input, {
        onSuccess: (value) => {
          onCreated();
          setCreated(value);
        },
        onError: (error) => setFailure(failureReason(error, texts.createFailed)),
      });
    },
    confirmDelete() {
      if (!deleting) return;
      remove.mutate(deleting.id, {
        onSuccess: () => {
          setDeleting(null);
          notify.success(texts.deleted);
        },
        onError: (error) => {
          setDeleting(null);
          setFailure(failureReason(error, texts.deleteFailed));
        },
      });
    },
  };
}
