import { changePasswordRequestSchema, updateProfileRequestSchema } from '@altwise/contracts/auth';
import { messages } from '@altwise/contracts/messages';
import { type FormEvent, useEffect, useState } from 'react';
import { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { isApiError, serverMessage } from '../../lib/api-error.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useProfile } from '../../lib/profile.ts';
import { useForm } from '../../lib/use-form.ts';
import { useChangePassword } from './api/change-password.ts';
import { useUpdateProfile } from './api/update-profile.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

/** The account banner of the product spec §4: empty, loading ('Updating...'), success or error. */
type Status =
  | { type: 'loading' }
  | { type: 'success' | 'error'; message: string; detail?: string | undefined }
  | null;

const m = messages.account;

/**
 * the product spec §8 tells apart a call the server refused ('Failed to …') and one that went wrong on the way
 * ('Error …'). When the server said why (a wrong current password, a too-long name), that goes underneath.
 */
function failure(error: unknown, failed: string, errored: string): Status {
  if (isApiError(error) && error.status > 0) {
    const detail = serverMessage(error);
    return { type: 'error', message: failed, detail: detail === failed ? undefined : detail };
  }
  return { type: 'error', message: errored };
}

function StatusBanner({ status }: { status: Status }) {
  if (!status) return null;
  if (status.type === 'loading') return <MessageBanner type="loading">{m.updating}</MessageBanner>;
  return (
    <MessageBanner type={status.type}>
      <p>{status.message}</p>
      {status.detail ? <p className="mt-1">{status.detail}</p> : null}
    </MessageBanner>
  );
}

function ProfileForm({
  profile,
  onStatus,
}: {
  profile: {
    firstName: string;
    lastName: string;
    email: string;
    defaultLanguage?: string | null | undefined;
  };
  onStatus: (status: Status) => void;
}) {
  const form = useForm(updateProfileRequestSchema, {
    firstName: profile.firstName,
    lastName: profile.lastName,
    defaultLanguage: profile.defaultLanguage ?? '',
  });
  const update = useUpdateProfile();
  const { reset } = form;

  useEffect(() => {
    reset({
      firstName: profile.firstName,
      lastName: profile.lastName,
      defaultLanguage: profile.defaultLanguage ?? '',
    });
  }, [profile.firstName, profile.lastName, profile.defaultLanguage, reset]);

  const onSubmit = form.handleSubmit((values) => {
    onStatus({ type: 'loading' });
    // The language goes only when it changed: the names alone stay the product spec's body.
    const { defaultLanguage, ...names } = values;
    const body =
      (defaultLanguage ?? '') === (profile.defaultLanguage ?? '')
        ? names
        : { ...names, defaultLanguage: defaultLanguage || null };
    update.mutate(body, {
      onSuccess: (response) =>
        onStatus(
          response.status === 'success'
            ? { type: 'success', message: m.profileUpdated }
            : { type: 'error', message: m.profileUpdateFailed },
        ),
      onError: (error) => {
        console.error('Profile update failed.', error);
        onStatus(failure(error, m.profileUpdateFailed, m.profileUpdateError));
      },
    });
  });

  return (
    <Card title="Profile Information">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="First Name"
            autoComplete="given-name"
            aria-required
            {...form.field('firstName')}
          />
          <TextField label="Last Name" autoComplete="family-name" aria-required {...form.field('lastName')} />
        </div>
        <TextField
          label="Email"
          type="email"
          value={profile.email}
          readOnly
          hint="Your email address cannot be changed."
        />
        <TextField
          label="Alt text language"
          autoComplete="off"
          placeholder="en"
          hint="A language tag such as en, de or pt-BR, used when a request names none. Leave empty for the server's default. Languages other than English need a vision model."
          {...form.field('defaultLanguage')}
        />
        <div>
          <Button type="submit" isLoading={update.isPending} loadingText="Saving...">
            Update Profile
          </Button>
        </div>
      </form>
    </Card>
  );
}

const changePasswordFieldsSchema = changePasswordRequestSchema.extend({ confirmNewPassword: z.string() });
const emptyPasswords = { currentPassword: '', newPassword: '', confirmNewPassword: '' };

function ChangePasswordForm({ onStatus }: { onStatus: (status: Status) => void }) {
  const form = useForm(changePasswordFieldsSchema, emptyPasswords);
  const change = useChangePassword();

  const submitValid = form.handleSubmit(({ currentPassword, newPassword }) => {
    onStatus({ type: 'loading' });
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (response) => {
          if (response.status !== 'success') {
            onStatus({ type: 'error', message: m.passwordUpdateFailed });
            return;
          }
          form.reset(emptyPasswords);
          onStatus({ type: 'success', message: m.passwordUpdated });
        },
        onError: (error) => {
          console.error('Password change failed.', error);
          onStatus(failure(error, m.passwordUpdateFailed, m.passwordUpdateError));
        },
      },
    );
  });

  // the product spec §5: a mismatch is said at once and nothing is sent.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (form.values.newPassword !== form.values.confirmNewPassword) {
      event.preventDefault();
      onStatus({ type: 'error', message: m.passwordsDoNotMatch });
      return;
    }
    submitValid(event);
  };

  return (
    <Card title="Change Password">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          aria-required
          {...form.field('currentPassword')}
        />
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...form.field('newPassword')}
        />
        <TextField
          label="Confirm New Password"
          type="password"
          autoComplete="new-password"
          aria-required
          {...form.field('confirmNewPassword')}
        />
        <div>
          <Button type="submit" isLoading={change.isPending} loadingText="Saving...">
            Change Password
          </Button>
        </div>
      </form>
    </Card>
  );
}

/**
 * /account (the product spec §2 Account Settings): the profile form, the change-password form, one status
 * banner, and the "Delete account" section (ADR 022).
 */
export function AccountPage() {
  usePageTitle('Account settings');
  const profile = useProfile();
  const [status, setStatus] = useState<Status>(null);

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Account Settings</h1>
      <div className="mt-6 empty:hidden">
        <StatusBanner status={status} />
      </div>
      {profile.isPending ? (
        <p role="status" className="mt-8 flex items-center gap-3 text-slate-800">
          <Spinner className="size-5 text-indigo-700" />
          Loading...
        </p>
      ) : profile.isError ? (
        <MessageBanner type="error" className="mt-8">
          {profile.error.message}
        </MessageBanner>
      ) : (
        <div className="mt-8 flex flex-col gap-8">
          <ProfileForm profile={profile.data.user} onStatus={setStatus} />
          <ChangePasswordForm onStatus={setStatus} />
          <ApiKeysSection />
          <WebhooksSection />
          <DeleteAccountSection />
        </div>
      )}
    </div>
  );
}
