import { describe, expect, it } from 'vitest';
import { describedImageMarkup, descriptionId } from './described-image-markup.ts';

describe('describedImageMarkup', () => {
  it('links the image to a visible paragraph with aria-describedby', () => {
    expect(
      describedImageMarkup({
        id: '3f2b8c1e-9d4a-4c1b-8e2f-1a2b3c4d5e6f',
        src: 'https://example.com/chart.png',
        alt: 'Bar chart: visitors per month, January to June',
        longDescription: 'Visitors per month. January: 1,200; June: 2,650.',
      }),
    ).toBe(
      '<img src="https://example.com/chart.png" alt="Bar chart: visitors per month, January to June" aria-describedby="desc-3f2b8c1e">\n' +
        '<p id="desc-3f2b8c1e">Visitors per month. January: 1,200; June: 2,650.</p>',
    );
  });

  it('gives a plain img without a long description', () => {
    expect(
      describedImageMarkup({ id: 'x', src: 'https://e.com/a.png', alt: 'A', longDescription: ' ' }),
    ).toBe('<img src="https://e.com/a.png" alt="A">');
  });

  it('escapes hostile quotes and tags in the src, the alt and the description', () => {
    const markup = describedImageMarkup({
      id: 'abc',
      src: 'https://e.com/a.png" onerror="alert(1)',
      alt: '"><script>alert(1)</script>',
      longDescription: '</p><script>alert(2)</script> & more',
    });
    expect(markup).not.toMatch(/<script|" onerror=/);
    expect(markup).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(markup).toContain('&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; more</p>');
  });

  it('makes a safe id from any image id', () => {
    expect(descriptionId('"><b>')).toBe('desc-b');
    expect(descriptionId('')).toBe('desc-image');
  });
});
