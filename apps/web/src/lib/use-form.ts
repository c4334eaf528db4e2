import { type ChangeEvent, type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';

/** The part of a zod schema the form needs; keeps zod itself out of this module. */
export type FormSchema<Output> = {
  safeParse: (
    data: unknown,
  ) =>
    | { success: true; data: Output }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
};

type ParseResult<Output> = ReturnType<FormSchema<Output>['safeParse']>;

/**
 * The schema, or a function that loads it: the sign-in pages load theirs (and zod) after they are on screen
 * (ADR 038). Until it has arrived no field shows an error, and a submit waits for it.
 */
export type FormSchemaSource<Output> = FormSchema<Output> | (() => Promise<FormSchema<Output>>);

type Values = Record<string, string>;

export type FieldProps = {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  error: string | undefined;
};

/**
 * A small form state for text fields validated by one contracts schema (docs/contributing.md, habit 1). Errors show
 * once a field has been touched (left, or the form submitted), as the product spec §5 asks; a submit with errors
 * touches every field and moves focus to the first invalid one instead of calling `onValid`.
 */
export function useForm<V extends Values, Output>(source: FormSchemaSource<Output>, initialValues: V) {
  const initial = useRef(initialValues);
  const [values, setValues] = useState<V>(initialValues);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  // One load per form: started after the first render, awaited by a submit made before it arrives.
  const loading = useRef<Promise<FormSchema<Output>> | undefined>(undefined);
  const load = useRef(typeof source === 'function' ? () => (loading.current ??= source()) : undefined);
  const [loaded, setLoaded] = useState<FormSchema<Output>>();
  const schema = typeof source === 'function' ? loaded : source;

  useEffect(() => {
    if (!load.current) return;
    let live = true;
    load.current().then(
      (arrived) => live && setLoaded(() => arrived),
      (error: unknown) => console.error('The form could not load its rules.', error),
    );
    return () => {
      live = false;
    };
  }, []);

  const result = useMemo(() => schema?.safeParse(values), [schema, values]);
  const allErrors = useMemo(() => errorsOf<V, Output>(result, values), [result, values]);

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
      const submit = (parsed: ParseResult<Output>) => {
        if (parsed.success) {
          void onValid(parsed.data);
          return;
        }
        const errors = errorsOf<V, Output>(parsed, values);
        const firstInvalid = Object.keys(values).find((key) => errors[key as keyof V] !== undefined);
        if (firstInvalid) form.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      };
      if (result) submit(result);
      else load.current?.().then((arrived) => submit(arrived.safeParse(values)), console.error);
    };

  const reset = useCallback((next?: V) => {
    setValues(next ?? initial.current);
    setTouched({});
  }, []);

  return { values, setValue, field, handleSubmit, reset, isValid: result?.success ?? false };
}

/** The first message per field of a parse result (none while the schema has not arrived). */
function errorsOf<V extends Values, Output>(
  result: ParseResult<Output> | undefined,
  values: V,
): Partial<Record<keyof V, string>> {
  const errors: Partial<Record<keyof V, string>> = {};
  if (!result || result.success) return errors;
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof V | undefined;
    if (key !== undefined && key in values && errors[key] === undefined) errors[key] = issue.message;
  }
  return errors;
}
