import { useId } from 'react';
import type { FieldProps } from '../../lib/use-form.ts';

/** A fieldset of radios, one per option, named by its legend; the field's error is tied to the group. */
export function RadioGroup<T extends string>(props: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  field: Pick<FieldProps, 'name' | 'value' | 'onChange' | 'error'>;
}) {
  const errorId = `${useId()}-error`;
  const { field } = props;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={field.error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-900">{props.legend}</legend>
      {props.options.map((option) => (
        <label key={option} className="flex min-h-11 items-center gap-3 text-slate-900">
          <input
            type="radio"
            name={field.name}
            value={option}
            checked={field.value === option}
            onChange={field.onChange}
            className="size-5 accent-indigo-700"
          />
          {props.labels[option]}
        </label>
      ))}
      {field.error ? (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {field.error}
        </p>
      ) : null}
    </fieldset>
  );
}
