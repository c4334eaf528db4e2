import { type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

type Described = { label: string; error?: string | undefined; hint?: string };

function describedBy(id: string, hint: string | undefined, error: string | undefined) {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Label({ id, label, required }: { id: string; label: string; required: boolean | undefined }) {
  return (
    <label htmlFor={id} className="text-sm font-medium text-slate-900">
      {label}
      {required ? <span className="text-slate-700"> (required)</span> : null}
    </label>
  );
}

function Messages({ id, hint, error }: { id: string; hint: string | undefined; error: string | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

const controlClass = (error: string | undefined) =>
  `rounded-md border bg-white px-3 py-2 text-slate-900 ${error ? 'border-red-700' : 'border-slate-500'}`;

/** A labelled textarea with the TextField's hint and error wiring. */
export function TextAreaField({
  label,
  error,
  hint,
  required,
  ...props
}: Described & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label id={id} label={label} required={required} />
      <textarea
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={controlClass(error)}
        {...props}
      />
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled select; the first option is an empty "choose" entry. */
export function SelectField({
  label,
  error,
  hint,
  required,
  placeholder,
  options,
  ...props
}: Described &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
    placeholder: string;
    options: readonly { value: string; label: string }[];
  }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label id={id} label={label} required={required} />
      <select
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`min-h-11 ${controlClass(error)}`}
        {...props}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}
