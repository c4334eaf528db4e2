import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useForm } from './use-form.ts';

const schema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required'),
  email: z.email('Enter a valid email'),
});

const changeTo = (value: string) => ({ target: { value } }) as never;
const submitEvent = () =>
  ({ preventDefault: vi.fn(), currentTarget: document.createElement('form') }) as never;

describe('useForm', () => {
  it('keeps errors hidden until a field is touched', () => {
    const { result } = renderHook(() => useForm(schema, { name: '', email: '' }));
    expect(result.current.field('name').error).toBeUndefined();
    act(() => result.current.field('name').onBlur());
    expect(result.current.field('name').error).toBe('Name is required');
    expect(result.current.field('email').error).toBeUndefined();
    act(() => result.current.field('name').onChange(changeTo('Ada')));
    expect(result.current.field('name').error).toBeUndefined();
  });

  it('submits parsed values when valid, and only touches the fields when not', () => {
    const onValid = vi.fn();
    const { result } = renderHook(() => useForm(schema, { name: ' Ada ', email: 'nope' }));
    act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.field('email').error).toBe('Enter a valid email');
    act(() => result.current.field('email').onChange(changeTo('ada@example.com')));
    act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).toHaveBeenCalledWith({ name: 'Ada', email: 'ada@example.com' });
  });

  it('resets to the first values, or to new ones, and forgets what was touched', () => {
    const { result } = renderHook(() => useForm(schema, { name: '', email: '' }));
    act(() => result.current.field('name').onBlur());
    act(() => result.current.reset());
    expect(result.current.field('name').error).toBeUndefined();
    act(() => result.current.reset({ name: 'Grace', email: 'grace@example.com' }));
    expect(result.current.values).toEqual({ name: 'Grace', email: 'grace@example.com' });
  });

  it('with a schema still loading, shows no error yet and submits once the schema has arrived', async () => {
    let arrive: (value: typeof schema) => void = () => {};
    const load = () => new Promise<typeof schema>((resolve) => (arrive = resolve));
    const onValid = vi.fn();
    const { result } = renderHook(() => useForm(load, { name: ' Ada ', email: 'ada@example.com' }));
    act(() => result.current.field('email').onChange(changeTo('nope')));
    act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(result.current.field('email').error).toBeUndefined();
    await act(async () => arrive(schema));
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.field('email').error).toBe('Enter a valid email');
    act(() => result.current.field('email').onChange(changeTo('ada@example.com')));
    act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).toHaveBeenCalledWith({ name: 'Ada', email: 'ada@example.com' });
  });
});
