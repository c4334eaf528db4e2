import { type ReactNode, useId } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
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
