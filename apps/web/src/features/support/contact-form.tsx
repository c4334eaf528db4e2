import { CONTACT_MESSAGE_MAX_CHARS } from '@altwise/contracts/limits';
import { messages } from '@altwise/contracts/messages';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MessageBanner } from '../../components/ui/message-banner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import {
  type ContactMessage,
  contactErrorMessage,
  useSendContactMessage,
} from './api/send-contact-message.ts';

const emptyForm: ContactMessage = { firstName: '', lastName: '', email: '', message: '' };
const fields = Object.keys(emptyForm) as Array<keyof ContactMessage>;

/** The contact form of the product spec §2/§4: browser-required fields, 'Sending...' while pending, cleared on success. */
export function ContactForm() {
  const [form, setForm] = useState<ContactMessage>(emptyForm);
  const sendMessage = useSendContactMessage();
  const messageId = useId();
  const messageHintId = `${messageId}-hint`;
  const formRef = useRef<HTMLFormElement>(null);

  // The page is prerendered: keep whatever was typed into it before the app took over.
  useEffect(() => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    const typed = Object.fromEntries(fields.map((field) => [field, String(data.get(field) ?? '')]));
    if (Object.values(typed).some(Boolean)) setForm(typed as ContactMessage);
  }, []);

  const update = (field: keyof ContactMessage) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    sendMessage.mutate(form, { onSuccess: () => setForm(emptyForm) });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} className="grid gap-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="First Name"
          name="firstName"
          autoComplete="given-name"
          required
          value={form.firstName}
          onChange={(event) => update('firstName')(event.target.value)}
        />
        <TextField
          label="Last Name"
          name="lastName"
          autoComplete="family-name"
          required
          value={form.lastName}
          onChange={(event) => update('lastName')(event.target.value)}
        />
      </div>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={(event) => update('email')(event.target.value)}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={messageId} className="text-sm font-medium text-slate-900">
          Message<span className="text-slate-700"> (required)</span>
        </label>
        <p id={messageHintId} className="text-sm text-slate-700">
          Up to {CONTACT_MESSAGE_MAX_CHARS.toLocaleString('en-US')} characters.
        </p>
        <textarea
          id={messageId}
          name="message"
          required
          rows={6}
          maxLength={CONTACT_MESSAGE_MAX_CHARS}
          aria-describedby={messageHintId}
          value={form.message}
          onChange={(event) => update('message')(event.target.value)}
          className="rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900"
        />
      </div>
      <div aria-live="polite">
        {sendMessage.isSuccess ? (
          <MessageBanner type="success">{messages.contact.success}</MessageBanner>
        ) : null}
      </div>
      {sendMessage.isError ? (
        <MessageBanner type="error">{contactErrorMessage(sendMessage.error)}</MessageBanner>
      ) : null}
      <div>
        <Button type="submit" isLoading={sendMessage.isPending} loadingText={messages.contact.sending}>
          Send Message
        </Button>
      </div>
    </form>
  );
}
