import { describe, expect, it } from 'vitest';
import { auditFactsFor, judgeByAuditChecks } from '../../src/engines/audit-judge.ts';
import { type ChartTextLine, describeChart } from '../../src/engines/offline/chart.ts';
import { decideRole } from '../../src/engines/role.ts';
import type { AltTextResult, PageContext } from '../../src/engines/types.ts';
import { checkPageImages } from '../../src/rules/checks.ts';

/**
 * One rulebook (point 8, ADR 054): what the engine writes passes the audit's own checks in
 * its context, and an alt that would fail them is never handed back silently.
 */

const page = 'https://www.riverside-news.example/local/';
const threshold = 0.5;

function roleAlt(context: PageContext, imageText?: string): string {
  const decision = decideRole(context, imageText ? { imageText } : {});
  if (decision.kind !== 'functional') throw new Error(`expected a functional decision, got ${decision.kind}`);
  return decision.altText;
}

const at = (text: string, cx: number, y: number, height = 14): ChartTextLine => ({
  text,
  box: { x: cx - (text.length * 8) / 2, y, width: text.length * 8, height },
});
const barChart: ChartTextLine[] = [
  at('Visitors per month', 300, 12, 24),
  ...['1,200', '1,450', '1,800', '2,100', '2,400', '2,650'].map((v, n) =>
    at(v, 100 + n * 85, 330 - (n + 2) * 35),
  ),
  ...['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'].map((m, n) => at(m, 100 + n * 85, 345)),
];

describe('what the engine writes passes the audit’s checks in its own context', () => {
  const rows: Array<{ what: string; context: PageContext; write: (context: PageContext) => string }> = [
    {
      what: 'a nav button reading HOME',
      context: { role: 'link', linkTarget: 'https://www.riverside-news.example/', pageUrl: page },
      write: (context) => roleAlt(context, 'HOME'),
    },
    {
      what: 'a nav button reading NEWS on an address of ids',
      context: { role: 'link', linkTarget: '/archive/2024/index.php?cat=7', pageUrl: page },
      write: (context) => roleAlt(context, 'NEWS'),
    },
    {
      what: 'a linked logo with the site’s name in it',
      context: { role: 'link', linkTarget: '/', pageUrl: page, fileName: 'logo.png' },
      write: (context) => roleAlt(context, 'RIVERSIDE NEWS'),
    },
    {
      what: 'a "more" arrow after a teaser',
      context: {
        role: 'link',
        linkTarget: 'https://www.riverside-news.example/p/88',
        pageUrl: page,
        heading: 'Bridge reopens after repairs',
        fileName: 'read-more.png',
      },
      write: (context) => roleAlt(context, 'more'),
    },
    {
      what: 'an image button named searchbutton.png',
      context: { role: 'button', fileName: 'searchbutton.png' },
      write: (context) => roleAlt(context),
    },
    {
      what: 'a bar chart in a figure',
      context: { role: 'figure', caption: 'Our first half-year online', fileName: 'chart-2025.png' },
      write: () =>
        describeChart({ lines: barChart, width: 600, height: 400, hints: { shape: 'bars' } })?.alt ?? '',
    },
  ];
  it.each(rows)('$what', ({ context, write }) => {
    const altText = write(context);
    expect(altText).not.toBe('');
    const [verdict] = checkPageImages([auditFactsFor(altText, false, context)]);
    expect(verdict?.problems).toEqual([]);
    expect(verdict?.verdict).toBe('pass');
  });
});

function result(altText: string, overrides: Partial<AltTextResult> = {}): AltTextResult {
  return {
    altText,
    decorative: false,
    confidence: 0.9,
    needsReview: false,
    reasons: [{ source: 'ocr', detail: altText }],
    longDescription: null,
    signals: {
      width: 300,
      height: 80,
      format: 'png',
      kind: 'logo',
      greyscale: false,
      brightness: 'dark',
      colours: [],
      objects: [],
      faces: [],
      contextUsed: [],
      promptApplied: false,
      language: 'en',
      timingsMs: {},
    },
    engine: 'offline',
    model: 'test',
    ...overrides,
  };
}

const auditCodes = (judged: AltTextResult) =>
  judged.reasons.filter((reason) => reason.source === 'audit').map((reason) => reason.detail.split(':')[0]);

describe('an alt that fails the audit is never handed back silently', () => {
  it.each<{ what: string; altText: string; decorative?: boolean; context: PageContext; codes: string[] }>([
    { what: 'the placeholder "image"', altText: 'image', context: {}, codes: ['placeholder'] },
    { what: 'a camera file name (IMG_2041.jpg)', altText: 'IMG_2041.jpg', context: {}, codes: ['file-name'] },
    {
      what: 'the image’s own file stem',
      altText: 'hero-banner-2',
      context: { fileName: 'hero-banner-2.png' },
      codes: ['file-name'],
    },
    { what: 'a kind word only ("Company logo")', altText: 'Company logo', context: {}, codes: ['vague'] },
    {
      what: '"Logo" as the only content of a link',
      altText: 'Logo',
      context: { role: 'link', linkTarget: '/', pageUrl: page },
      codes: ['vague', 'link-without-purpose'],
    },
    {
      what: 'a picture description on a link to /pricing',
      altText: 'A woman smiling at a laptop',
      context: { role: 'link', linkTarget: '/pricing', pageUrl: page },
      codes: ['link-without-purpose'],
    },
    {
      what: 'alt="" on a button’s only image',
      altText: '',
      decorative: true,
      context: { role: 'button' },
      codes: ['link-without-purpose', 'empty-but-informative'],
    },
  ])('$what: flagged for review with the failed check’s code', ({ altText, decorative, context, codes }) => {
    const judged = judgeByAuditChecks(
      result(altText, { decorative: Boolean(decorative) }),
      context,
      threshold,
    );
    expect(judged.needsReview).toBe(true);
    expect(judged.confidence).toBeLessThan(threshold);
    expect(auditCodes(judged)).toEqual(codes);
    // The engine's own evidence stays: the reviewer sees both.
    expect(judged.reasons[0]).toEqual({ source: 'ocr', detail: altText });
  });

  it('a figure alt that repeats its caption word for word keeps its confidence but names the warning', () => {
    const caption = 'Oil-based paint on canvas. Eloisa Faulkner, 1756.';
    const judged = judgeByAuditChecks(result(caption), { role: 'figure', caption }, threshold);
    expect(judged).toMatchObject({ altText: caption, needsReview: false, confidence: 0.9 });
    expect(auditCodes(judged)).toEqual(['redundant']);
  });

  it('a 200-character alt is shortened to the audit’s 150 at a word boundary, and passes', () => {
    // No word three times: a repeated sentence would be keyword stuffing (ADR 060).
    const long =
      'A red brick lighthouse on a rocky point above a grey sea, with gulls circling its lamp room, a keeper’s cottage behind it, fishing boats heading home across the bay and storm clouds gathering over distant hills';
    expect(long.length).toBeGreaterThan(200);
    const judged = judgeByAuditChecks(result(long), {}, threshold);
    expect(judged.altText.length).toBeLessThanOrEqual(150);
    expect(judged.altText).toMatch(/^A red brick lighthouse .*\.$/);
    expect(judged).toMatchObject({ needsReview: false, confidence: 0.9 });
    expect(auditCodes(judged)).toEqual([]);
  });

  it('keyword stuffing the engine could not avoid is a reason for the reviewer (ADR 060)', () => {
    const judged = judgeByAuditChecks(result('Tulips, tulip bulbs and a tulip field'), {}, threshold);
    expect(auditCodes(judged)).toEqual(['keyword-stuffing']);
    expect(judged).toMatchObject({ needsReview: false });
  });

  it('an alt that repeats its link’s own text becomes alt="" (the link already says it)', () => {
    const context: PageContext = {
      role: 'link',
      linkTarget: '/report',
      linkText: 'Annual report 2025',
      pageUrl: page,
    };
    const judged = judgeByAuditChecks(result('Annual report 2025'), context, threshold);
    expect(judged).toMatchObject({
      altText: '',
      decorative: true,
      needsReview: false,
      longDescription: null,
    });
  });

  it('a passing alt comes back as the engine wrote it', () => {
    const written = result('Home', { confidence: 0.85 });
    const context: PageContext = { role: 'link', linkTarget: '/', pageUrl: page };
    expect(judgeByAuditChecks(written, context, threshold)).toBe(written);
  });

  it('a malformed page address in the context is checked as no page, not thrown', () => {
    const judged = judgeByAuditChecks(result('Company logo'), { pageUrl: 'http://[::1' }, threshold);
    expect(auditCodes(judged)).toEqual(['vague']);
  });
});
