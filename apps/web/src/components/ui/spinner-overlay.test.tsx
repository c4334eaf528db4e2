import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SpinnerOverlay } from './spinner-overlay.tsx';

describe('SpinnerOverlay', () => {
  it('announces its label and makes the app behind it inert until it goes away', () => {
    const root = document.createElement('div');
    root.id = 'root';
    document.body.append(root);
    const { unmount } = render(<SpinnerOverlay label="Scraping Page... This may take a few moments." />, {
      container: root,
    });
    expect(screen.getByRole('status')).toHaveTextContent('Scraping Page... This may take a few moments.');
    expect(root).toHaveAttribute('inert');
    unmount();
    expect(root).not.toHaveAttribute('inert');
    root.remove();
  });
});
