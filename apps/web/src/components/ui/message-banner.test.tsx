import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageBanner } from './message-banner.tsx';

describe('MessageBanner', () => {
  it('interrupts with role=alert for errors', () => {
    render(<MessageBanner type="error">Failed to update profile</MessageBanner>);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to update profile');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('uses role=status for success and loading', () => {
    render(
      <>
        <MessageBanner type="success">Profile updated successfully!</MessageBanner>
        <MessageBanner type="loading">Updating...</MessageBanner>
      </>,
    );
    const [success, loading] = screen.getAllByRole('status');
    expect(success).toHaveTextContent('Profile updated successfully!');
    expect(loading).toHaveTextContent('Updating...');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
