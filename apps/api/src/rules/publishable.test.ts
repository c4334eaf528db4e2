import { describe, expect, it } from 'vitest';
import { judgePublishable } from './publishable.ts';

const ocr = [{ source: 'ocr', detail: 'Sale', score: 0.95 }];
const pixels = [{ source: 'pixels', detail: 'grey, green' }];

describe('judgePublishable', () => {
  it.each([
    ['Dark photograph in grey, green and black tones.', pixels],
    ['Black-and-white photograph with no clearly recognisable subject.', pixels],
    ['Graphic in grey, white and pink tones.', pixels],
    ['Plain background.', pixels],
  ])('refuses the kind-and-tone sentence %s', (altText, reasons) => {
    const verdict = judgePublishable({ altText, decorative: false, origin: 'ai', reasons });
    expect(verdict).toMatchObject({ publishable: false, code: 'kind-and-tone' });
  });

  it('refuses a page title pasted in front, even with grounds', () => {
    const verdict = judgePublishable({
      altText: 'Media library of http://127.0.0.1:8080: A red bicycle.',
      decorative: false,
      origin: 'ai',
      reasons: [{ source: 'detection', detail: 'bicycle', score: 0.9 }],
      context: { pageTitle: 'Media library of http://127.0.0.1:8080' },
    });
    expect(verdict).toMatchObject({ publishable: false, code: 'title-prefix' });
  });

  it('refuses a file-name echo', () => {
    const verdict = judgePublishable({
      altText: 'Teaser RIGHT1.',
      decorative: false,
      origin: 'ai',
      reasons: ocr,
      context: { fileName: 'teaser-right1.jpg' },
    });
    expect(verdict).toMatchObject({ publishable: false, code: 'file-name' });
  });

  it('asks for words where there is no alt and no decorative mark', () => {
    expect(judgePublishable({ altText: ' ', decorative: false, origin: 'ai', reasons: [] })).toMatchObject({
      publishable: false,
      code: 'needs-words',
    });
    expect(judgePublishable({ altText: '', decorative: true, origin: 'human', reasons: [] })).toEqual({
      publishable: true,
    });
  });

  it('refuses an engine sentence with no grounds and keeps a grounded one or a person’s', () => {
    expect(
      judgePublishable({ altText: 'A dog on a beach.', decorative: false, origin: 'ai', reasons: pixels }),
    ).toMatchObject({
      code: 'ungrounded',
    });
    expect(judgePublishable({ altText: 'Sale', decorative: false, origin: 'ai', reasons: ocr })).toEqual({
      publishable: true,
    });
    expect(
      judgePublishable({ altText: 'My dog Rex.', decorative: false, origin: 'ai-edited', reasons: [] }),
    ).toEqual({
      publishable: true,
    });
  });
});
