import { MAX_GENERATION_PROMPT_CHARS } from '@altwise/contracts/generation';
import { useId } from 'react';

export type PromptFieldProps = {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
};

/** The optional custom prompt (`chatGptPrompt`) of the scraped-images and upload screens. */
export function PromptField({ value, onChange, disabled }: PromptFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-900">
        Custom prompt (optional)
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-700">
        Tell the writer what to focus on, e.g. “Mention the product colour and keep it under 125 characters.”
      </p>
      <textarea
        id={id}
        rows={3}
        maxLength={MAX_GENERATION_PROMPT_CHARS}
        aria-describedby={`${id}-hint`}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900"
      />
    </div>
  );
}
