import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from './notify.ts';
import { Toaster } from './toaster.tsx';

afterEach(() => {
  act(() => notify.clear());
  vi.useRealTimers();
});

describe('toasts', () => {
  it('show top-right by default and bottom-right on request, and are announced', () => {
    render(<Toaster />);
    act(() => {
      notify.success('Profile updated successfully!');
      notify.error('Failed to initiate checkout', { position: 'bottom-right' });
    });
    const top = screen.getByRole('region', { name: 'Notifications (top right)' });
    const bottom = screen.getByRole('region', { name: 'Notifications (bottom right)' });
    expect(top).toHaveTextContent('Profile updated successfully!');
    expect(bottom).toHaveTextContent('Failed to initiate checkout');
    expect(top).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to initiate checkout');
    // Each message is in the page once, so a search for its text finds one element.
    expect(screen.getAllByText('Profile updated successfully!')).toHaveLength(1);
  });

  it('close success after 3 s and errors after 5 s', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      notify.info('Copied');
      notify.error('Something failed');
    });
    act(() => vi.advanceTimersByTime(3000));
    const region = screen.getByRole('region', { name: 'Notifications (top right)' });
    expect(within(region).queryByText('Copied')).not.toBeInTheDocument();
    expect(within(region).getByText('Something failed')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2000));
    expect(within(region).queryByText('Something failed')).not.toBeInTheDocument();
  });

  it('can be dismissed with its button', async () => {
    render(<Toaster />);
    act(() => {
      notify.success('Saved');
    });
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).click());
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
