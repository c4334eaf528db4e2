import { describe, expect, it } from 'vitest';
import { readPage } from '../../pages/extract-page.ts';
import type { AuditImageFacts } from '../../rules/checks.ts';
import { engineContext } from './engine-context.ts';

describe('engineContext language (ADR 071)', () => {
  it('carries the language of the image’s place on the page to the engine', () => {
    const reading = readPage(
      '<html lang="fr"><body><img src="/a.jpg"><p lang="ja"><img src="/b.jpg" alt=""></p></body></html>',
      new URL('https://harbour.test/gallery'),
    );
    const [first, second] = reading.images;
    expect(engineContext(first as AuditImageFacts, { pageTitle: 'Port' }).language).toBe('fr');
    expect(engineContext(second as AuditImageFacts, {}).language).toBe('ja');
  });
});
