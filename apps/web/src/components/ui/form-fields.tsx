import {
  type ChangeEvent,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

const controlClass = 'rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900';

function Hint({ id, hint }: { id: string; hint: string | undefined }) {
  return hint ? (
    <p id={`${id}-hint`} className="text-sm text-slate-700">
      {hint}
    </p>
  ) : null;
}

/** A labelled textarea with an optional hint and an error message tied to it. */
export function TextAreaField({
  label,
  hint,
  error,
  ...props
}: { label: string; hint?: string; error?: string | undefined } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id'
> & { ref?: Ref<HTMLTextAreaElement> }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-900">
        {label}
      </label>
      <Hint id={id} hint={hint} />
      <textarea
        id={id}
        aria-describedby={describedBy || undefined}
        aria-invalid={error ? true : undefined}
        className={`rounded-md border bg-white px-3 py-2 text-slate-900 ${error ? 'border-red-700' : 'border-slate-500'}`}
        {...props}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled select. */
export function SelectField({
  label,
  hint,
  options,
  ...props
}: {
  label: string;
  hint?: string;
  options: readonly { value: string; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-900">
        {label}
      </label>
      <Hint id={id} hint={hint} />
      <select
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={`min-h-11 ${controlClass}`}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled file picker; the page decides what to do with the chosen files. */
export function FileField({
  label,
  hint,
  accept,
  multiple = false,
  disabled,
  onFiles,
}: {
  label: string;
  hint?: string;
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  onFiles: (files: File[], input: HTMLInputElement) => void;
}) {
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    onFiles(Array.from(event.target.files ?? []), event.target);
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-900">
        {label}
      </label>
      <Hint id={id} hint={hint} />
      <input
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={onChange}
        className="block w-full text-sm text-slate-900 file:mr-4 file:min-h-11 file:rounded-md file:border-0 file:bg-indigo-700 file:px-4 file:text-sm file:font-semibold file:text-white hover:file:bg-indigo-800"
      />
    </div>
  );
}

/**
 * A labelled progress bar (role=progressbar). `value` is a percentage; `estimated` says in its text
 * that the number is a time-based estimate, not a measurement.
 */
export function ProgressBar({ label, value, detail }: { label: string; value: number; detail?: string }) {
  const id = useId();
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-between text-sm text-slate-800">
        <span id={id}>{label}</span>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={detail ? `${percent}% (${detail})` : `${percent}%`}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-indigo-700 transition-all" style={{ width: `${percent}%` }} />
      </div>
      {detail ? <p className="text-xs text-slate-700">{detail}</p> : null}
    </div>
  );
}
