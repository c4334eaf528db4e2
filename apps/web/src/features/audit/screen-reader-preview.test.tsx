import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client.ts';
import { json, mockApi } from '../../test/mock-api.ts';
import { storeSession } from '../../test/render-app.tsx';
import { auditId } from './audit-fixtures.ts';
import { ScreenReaderPreview } from './screen-reader-preview.tsx';

afterEach(() => vi.unstubAllGlobals());

const scannedPage = {
  id: '7d2f4a90-1c3b-4e8f-b6a5-3e9d0c2b1a47',
  url: 'https://shop.example/',
  status: 'scanned',
  note: null,
  images: 2,
  hiddenImages: 0,
  rendered: true,
};

describe('ScreenReaderPreview', () => {
  it('reads the pages once more when the audit finishes between two polls', async () => {
    storeSession();
    let scanned = false;
    const calls = mockApi({
      [`GET /audits/${auditId}/pages`]: () =>
        json({ items: scanned ? [scannedPage] : [{ ...scannedPage, status: 'fetching' }] }),
    });
    const client = createQueryClient();
    const view = (poll: boolean) => (
      <QueryClientProvider client={client}>
        <ScreenReaderPreview auditId={auditId} poll={poll} />
      </QueryClientProvider>
    );
    const { rerender } = render(view(true));
    await screen.findByText('No page has been scanned yet.');
    // The page is scanned and the audit completes before the next poll: polling stops.
    scanned = true;
    rerender(view(false));
    const summary = await screen.findByText(
      (_text, element) =>
        element?.tagName === 'SUMMARY' &&
        (element.textContent ?? '').startsWith('Screen-reader preview of https://shop.example/'),
    );
    expect(summary).toHaveTextContent('(2 images)');
    expect(calls.filter((call) => call.path.endsWith('/pages'))).toHaveLength(2);
  });
});
