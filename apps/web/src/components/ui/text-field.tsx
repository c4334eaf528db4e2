import { type InputHTMLAttributes, useId } from 'react';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** Shown under the field and tied to it with aria-describedby; marks the field aria-invalid. */
  error?: string | undefined;
  hint?: string;
  id?: string;
};

export function TextField({ label, error, hint, id, required, className = '', ...props }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-slate-900">
        {label}
        {required ? <span className="text-slate-700"> (required)</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <input
        id={inputId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`min-h-11 rounded-md border bg-white px-3 py-2 text-slate-900 placeholder:text-slate-600 read-only:bg-slate-100 ${
          error ? 'border-red-700' : 'border-slate-500'
        }`}
        {...props}
      />
      {error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
