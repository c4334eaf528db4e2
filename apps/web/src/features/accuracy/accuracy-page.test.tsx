import { accuracyReportSchema } from '@altwise/contracts/accuracy';
import { auditProblemLabels } from '@altwise/contracts/audit-problems';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import accuracyJson from './accuracy.json';

const report = accuracyReportSchema.parse(accuracyJson);

/**
 * The table captioned `caption` (role queries over every table are slow in jsdom: one test checks the
 * caption names its table, the rest find tables by their caption).
 */
function table(caption: string): HTMLElement {
  const found = screen.getByText(caption, { selector: 'caption' }).closest('table');
  if (!found) throw new Error(`no table captioned ${caption}`);
  return found;
}

/** The data cells of the row whose header cell says `label`. */
function cells(inTable: HTMLElement, label: string): string[] {
  const header = within(inTable).getByText(label, { selector: 'th[scope="row"]' });
  return [...(header.closest('tr')?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent ?? '');
}

describe('accuracy page', () => {
  it('shows the committed report’s figures in captioned tables, and is linked from the footer', async () => {
    renderApp('/accuracy');
    await screen.findByRole('heading', { level: 1, name: 'Accuracy' }, { timeout: 10_000 });
    await waitFor(() => expect(document.title).toBe('Accuracy – Altwise'));
    expect(screen.getByText(/These are development sets\./)).toBeInTheDocument();
    expect(screen.getByText(/held-out sets that are not shown here/)).toBeInTheDocument();

    // The caption names its table for a screen reader.
    const photos = screen.getByRole('table', {
      name: `${report.photos.set}: ${report.photos.images} photos`,
    });
    expect(cells(photos, 'Content-word recall')).toEqual([
      report.photos.alone.recall.toFixed(3),
      report.photos.withContext.recall.toFixed(3),
    ]);

    const icons = report.graphics.byKind.find((kind) => kind.kind === 'icon');
    expect(
      cells(table(`${report.graphics.set}: ${report.graphics.entries} web graphics by kind`), 'Icons'),
    ).toEqual([
      String(icons?.entries),
      icons?.recall.toFixed(3),
      `${icons?.decorativeAgrees} of ${icons?.entries}`,
      `${icons?.needsWords} of ${icons?.entries}`,
    ]);

    expect(cells(table(`Synthetic OCR benchmark: ${report.ocr.images} graphics`), 'All')[1]).toBe(
      `${report.ocr.cerPercent.toFixed(1)} %`,
    );

    const checks = table('The audit’s checks');
    expect(cells(checks, auditProblemLabels.missing)).toEqual(['Fail', '1.1.1', 'F65']);
    expect(cells(checks, auditProblemLabels['link-without-purpose'])).toEqual([
      'Fail',
      '2.4.4, 4.1.2',
      'F89, H30',
    ]);

    const removed = report.audit.seededFaults.find((fault) => fault.fault === 'alt-removed');
    expect(cells(table('Planted faults the audit caught'), 'Alt attribute removed')).toEqual([
      'Missing alt',
      `${removed?.caught} of ${removed?.tried}`,
    ]);

    for (const example of report.photos.misses)
      expect(screen.getByRole('link', { name: `Wikipedia: ${example.article}` })).toHaveAttribute(
        'href',
        example.articleUrl,
      );
    expect(screen.getByText(/npm run eval:publish -- --quality/)).toBeInTheDocument();

    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Accuracy' })).toHaveAttribute('href', '/accuracy');
  }, 30_000);

  it('keeps its headings in order: one h1, then h2 sections with h3 inside', async () => {
    renderApp('/accuracy');
    await screen.findByRole('heading', { level: 1, name: 'Accuracy' }, { timeout: 10_000 });
    const main = screen.getByRole('main');
    const levels = within(main)
      .getAllByRole('heading')
      .map((heading) => Number(heading.tagName.slice(1)));
    expect(levels[0]).toBe(1);
    for (const [index, level] of levels.entries())
      if (index > 0) expect(level - (levels[index - 1] ?? 1)).toBeLessThanOrEqual(1);
  }, 30_000);
});
