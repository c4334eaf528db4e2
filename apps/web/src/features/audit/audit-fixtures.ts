import type { Audit, AuditImage } from '@altwise/contracts/audit';

/** Test data for the audit screens' tests. */
export const auditId = '11111111-1111-4111-8111-111111111111';

export const makeAudit = (over: Partial<Audit> = {}): Audit => ({
  id: auditId,
  url: 'https://shop.example/',
  scope: 'site',
  maxPages: 25,
  render: 'auto',
  pagesRendered: 0,
  status: 'completed',
  notices: [],
  pagesScanned: 3,
  imagesFound: 5,
  score: 0.4,
  counts: { pass: 2, fail: 2, warning: 1, decorative: 0 },
  problems: { missing: 1, 'file-name': 1, redundant: 1 },
  reviews: { pending: 0, accepted: 0, rejected: 0, edited: 0 },
  createdAt: '2026-11-23T10:00:00.000Z',
  finishedAt: '2026-11-23T10:01:00.000Z',
  ...over,
});

export const imageId = (n: number) => `aaaaaaaa-aaaa-4aaa-8aaa-${String(n).padStart(12, '0')}`;

export const makeImage = (n: number, over: Partial<AuditImage> = {}): AuditImage => ({
  id: imageId(n),
  pageUrl: 'https://shop.example/',
  src: `https://shop.example/img/${n}.jpg`,
  alt: `Alt ${n}`,
  role: 'content',
  element: 'img',
  name: over.alt === undefined ? `Alt ${n}` : over.alt?.trim() || null,
  nameSource: over.alt === undefined || over.alt?.trim() ? 'alt' : 'none',
  verdict: 'pass',
  problems: [],
  suggestion: null,
  longDescription: null,
  origin: null,
  reviewState: null,
  fixStatus: null,
  thumbnailUrl: `/files/previews/2026-11/${imageId(n)}.webp`,
  suggestionEvidence: null,
  screenshotUrl: null,
  usedIn: { heading: null, caption: null, linkTarget: null, linkText: null },
  ...over,
});
