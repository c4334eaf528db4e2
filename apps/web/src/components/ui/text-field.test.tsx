import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TextField } from './text-field.tsx';

describe('TextField', () => {
  it('labels the input and ties an error to it', () => {
    render(<TextField label="Email Address" type="email" required error="Enter a valid email" />);
    const input = screen.getByRole('textbox', { name: /Email Address/ });
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Enter a valid email');
  });

  it('is not marked invalid without an error', () => {
    render(<TextField label="First Name" />);
    expect(screen.getByRole('textbox', { name: 'First Name' })).not.toHaveAttribute('aria-invalid');
  });
});
