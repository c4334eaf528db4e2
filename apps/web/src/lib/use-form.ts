import { type ChangeEvent, type FormEvent, useCallback, useMemo, useRef, useState } from 'react';

/** The part of a zod schema the form needs; keeps zod itself out of this module. */
export type FormSchema<Output> = {
  safeParse: (
    data: unknown,
  ) =>
    | { success: true; data: Output }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
};

type Values = Record<string, string>;

export type FieldProps = {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  error: string | undefined;
};

/**
 * A small form state for text fields validated by one contracts schema (STYLE.md habit 1). Errors show
 * once a field has been touched (left, or the form submitted), as SPEC.md §5 asks; a submit with errors
 * touches every field and moves focus to the first invalid one instead of calling `onValid`.
 */
export function useForm<V extends Values, Output>(schema: FormSchema<Output>, initialValues: V) {
  const initial = useRef(initialValues);
  const [values, setValues] = useState<V>(initialValues);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});

  const result = useMemo(() => schema.safeParse(values), [schema, values]);

  const allErrors = useMemo(() => {
    const errors: Partial<Record<keyof V, string>> = {};
    if (result.success) return errors;
    for (const issue of result.error.issues) {
      const key = issue.path[0] as keyof V | undefined;
      if (key !== undefined && key in values && errors[key] === undefined) errors[key] = issue.message;
    }
    return errors;
  }, [result, values]);

  const errorOf = useCallback(
    (name: keyof V) => (touched[name] ? allErrors[name] : undefined),
    [touched, allErrors],
  );

  const setValue = useCallback((name: keyof V, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
  }, []);

  const field = (name: keyof V & string): FieldProps => ({
    name,
    value: values[name] ?? '',
    onChange: (event) => setValue(name, event.target.value),
    onBlur: () => setTouched((current) => (current[name] ? current : { ...current, [name]: true })),
    error: errorOf(name),
  });

  const handleSubmit =
    (onValid: (data: Output) => void | Promise<void>) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      setTouched(Object.fromEntries(Object.keys(values).map((key) => [key, true])) as typeof touched);
      if (result.success) {
        void onValid(result.data);
        return;
      }
      const firstInvalid = Object.keys(values).find((key) => allErrors[key as keyof V] !== undefined);
      if (firstInvalid) form.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
    };

  const reset = useCallback((next?: V) => {
    setValues(next ?? initial.current);
    setTouched({});
  }, []);

  return { values, setValue, field, handleSubmit, reset, isValid: result.success };
}
