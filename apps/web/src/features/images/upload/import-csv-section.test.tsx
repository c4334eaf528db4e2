import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../test/mock-api.ts';
import { renderApp, storeSession } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const credits = { 'GET /credits/remaining': () => json({ success: true, imageCredits: 10 }) };
const csv = () =>
  new File(['image_url,id\nhttps://example.com/a.jpg,A-1\n'], 'images.csv', { type: 'text/csv' });

async function openUpload(handlers: Parameters<typeof mockApi>[0]) {
  const calls = mockApi({ ...credits, ...handlers });
  storeSession('jwt-1');
  renderApp('/upload-images');
  await screen.findByRole('heading', { level: 1, name: 'Upload Images' }, { timeout: 5000 });
  return calls;
}

describe('Import CSV on /upload-images', () => {
  it('sends the chosen file and shows what was imported and which lines were rejected', async () => {
    const calls = await openUpload({
      'POST /images/import-csv': () =>
        json(
          {
            success: true,
            batchId: 'b-1',
            accepted: 2,
            duplicates: 1,
            rejected: [{ line: 4, reason: 'image_url must start with http:// or https:// (not ftp:)' }],
            rejectedTotal: 1,
            creditsReserved: 2,
            remainingCredits: 8,
          },
          202,
        ),
    });
    const button = screen.getByRole('button', { name: 'Import CSV' });
    expect(button).toBeDisabled();
    await userEvent.upload(screen.getByLabelText('CSV or Excel file'), csv());
    expect(button).toBeEnabled();
    await userEvent.click(button);

    const summary = await screen.findByRole('status');
    expect(summary).toHaveTextContent('Imported 2 rows');
    expect(summary).toHaveTextContent('1 row repeated an earlier image URL (imported once).');
    expect(within(summary).getByText(/Line 4: image_url must start with http/)).toBeInTheDocument();
    expect(within(summary).getByRole('link', { name: 'Open your library' })).toHaveAttribute(
      'href',
      '/images',
    );
    const sent = calls.find((call) => call.method === 'POST' && call.path === '/images/import-csv');
    expect(sent?.headers.get('authorization')).toBe('Bearer jwt-1');
    // The other upload controls keep their names.
    expect(screen.getByRole('button', { name: 'Generate Alt Text' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose images')).toBeInTheDocument();
  });

  it('shows the server’s reason when the balance is short', async () => {
    await openUpload({
      'POST /images/import-csv': () =>
        json(
          {
            message:
              'Insufficient credits: this import needs 25 credits and your balance is 10. Nothing was imported.',
            code: 'INSUFFICIENT_CREDITS',
            creditsNeeded: 25,
          },
          402,
        ),
    });
    await userEvent.upload(screen.getByLabelText('CSV or Excel file'), csv());
    await userEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    expect(await screen.findByText(/this import needs 25 credits/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
