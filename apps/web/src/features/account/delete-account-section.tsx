import { accountDeletionMessages, deleteAccountRequestSchema } from '@altwise/contracts/auth';
import { routes } from '@altwise/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { notify } from '../../components/ui/notify.ts';
import { TextField } from '../../components/ui/text-field.tsx';
import { isApiError } from '../../lib/api-error.ts';
import { clearAllStorage } from '../../lib/auth-storage.ts';
import { useForm } from '../../lib/use-form.ts';
import { useDeleteAccount } from './api/delete-account.ts';

const m = accountDeletionMessages;

/**
 * The /account screen's "Delete account" section (ADR 022): a warning, the password, and a dialog
 * that asks once more. After the server deletes the account, this browser signs out and goes home.
 */
export function DeleteAccountSection() {
  const form = useForm(deleteAccountRequestSchema, { password: '' });
  const remove = useDeleteAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const warningId = useId();
  const deleted = useRef(false);

  // The account is gone: once the page is left, forget the session and everything cached for it.
  useEffect(
    () => () => {
      if (!deleted.current) return;
      clearAllStorage();
      queryClient.clear();
    },
    [queryClient],
  );

  const onSubmit = form.handleSubmit(() => {
    setFailure(null);
    setConfirming(true);
  });

  const confirm = () => {
    remove.mutate(
      { password: form.values.password },
      {
        onSuccess: () => {
          setConfirming(false);
          notify.success(m.deleted);
          // Signing out waits until this page has gone (see the effect above): signing out while it
          // is still shown would make its route guard send the person to the login screen instead.
          deleted.current = true;
          navigate(routes.home, { replace: true });
        },
        onError: (error) => {
          setConfirming(false);
          // The server's reason (a wrong password) when it gave one; otherwise our own words.
          setFailure(isApiError(error) && error.status > 0 && error.message ? error.message : m.failed);
        },
      },
    );
  };

  return (
    <Card title={m.heading}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-describedby={warningId}>
        <p id={warningId} className="text-slate-800">
          {m.warning}
        </p>
        {failure ? (
          <MessageBanner type="error">
            <p>{failure}</p>
          </MessageBanner>
        ) : null}
        <TextField
          label={m.passwordLabel}
          type="password"
          autoComplete="current-password"
          aria-required
          {...form.field('password')}
        />
        <div>
          <Button type="submit" variant="danger">
            {m.button}
          </Button>
        </div>
      </form>
      <Dialog
        open={confirming}
        onClose={() => {
          if (!remove.isPending) setConfirming(false);
        }}
        title={m.dialogTitle}
      >
        <p className="text-slate-800">{m.dialogText}</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" disabled={remove.isPending} onClick={() => setConfirming(false)}>
            {m.cancel}
          </Button>
          <Button variant="danger" isLoading={remove.isPending} loadingText={m.deleting} onClick={confirm}>
            {m.confirm}
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
