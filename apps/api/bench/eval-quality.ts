/**
 * Alt-text quality eval: runs the configured engine (offline unless ALT_TEXT_ENGINE
 * says otherwise) over a quality set and prints the set's numbers.
 *   npm run eval:quality -- --set quality-dev [--out .tmp/eval-quality.jsonl] [--limit N]
 * A photo set is a folder with refs.json ({file, alt, caption, article, context}[]) and images/<file>;
 * each image runs twice, (a) alone and (b) with the context a real page gives, built through the
 * product's own scraper code; its README defines the metric (see recall.ts).
 * A web-graphics set (refs.json entries with `kind` and `context.html`, see web-graphics.ts) runs
 * each entry once, in the page its snippet makes, read by the same scraper, and reports recall per
 * kind, exact match of `text` entries and decorative agreement.
 * Per-image results go to --out as JSON lines.
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type AuditProblemCode, auditProblemRules } from '@altwise/contracts/audit-problems';
import { createAltTextEngine } from '../src/engines/alt-text-engine.ts';
import { auditProblemsFor } from '../src/engines/audit-judge.ts';
import { engineOptionsFromEnv } from '../src/engines/engine-options.ts';
import { wordsFor } from '../src/engines/offline/vocabulary.ts';
import { fileNameFromUrl } from '../src/engines/page-context.ts';
import { endsOnDanglingWord } from '../src/engines/quality-rules.ts';
import type { AltTextResult, PageContext } from '../src/engines/types.ts';
import { extractImages } from '../src/pages/extract-images.ts';
import {
  echoesFileName,
  groundedSources,
  hasTitlePrefix,
  isKindAndToneSentence,
  judgePublishable,
} from '../src/rules/publishable.ts';
import { resolveSet } from './lib/sets.ts';
import { contentWordRecall } from './recall.ts';
import {
  type GraphicKind,
  type GraphicRef,
  isGraphicSet,
  scoreGraphic,
  scrapedGraphic,
} from './web-graphics.ts';

interface Ref {
  file: string;
  alt: string;
  caption: string;
  article: string;
  context: string;
}

const { values } = parseArgs({
  options: {
    set: { type: 'string' },
    out: { type: 'string', default: '.tmp/eval-quality.jsonl' },
    limit: { type: 'string' },
  },
});
if (!values.set) {
  process.stderr.write('usage: npm run eval:quality -- --set <folder> [--out file.jsonl] [--limit N]\n');
  process.exit(2);
}
// npm runs scripts from the root; INIT_CWD is where the command was typed.
const base = process.env.INIT_CWD ?? process.cwd();
const setDir = resolveSet(values.set);
const outFile = resolve(base, values.out);
const allRefs = (JSON.parse(await readFile(join(setDir, 'refs.json'), 'utf8')) as unknown[]).slice(
  0,
  values.limit ? Number(values.limit) : undefined,
);

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The page a Wikipedia article gives the image: title and h1, the figure with its caption, the next paragraph. */
function pageFor(ref: Ref): string {
  return `<!doctype html><html><head><title>${escapeHtml(ref.article)}</title></head><body>
<h1>${escapeHtml(ref.article)}</h1>
<figure><img src="images/${encodeURIComponent(ref.file)}"><figcaption>${escapeHtml(ref.caption)}</figcaption></figure>
<p>${escapeHtml(ref.context)}</p>
</body></html>`;
}

/** The context the product passes the engine for a scraped image (as generation does: existing alt included). */
function scrapedContext(ref: Ref): PageContext {
  const [image] = extractImages(pageFor(ref), new URL('https://example.org/wiki/page'), 1);
  if (!image) throw new Error(`the scraper found no image on the page for ${ref.file}`);
  const context: Record<string, unknown> = { ...image.context, existingAlt: image.alt };
  for (const [key, value] of Object.entries(context))
    if (value === '' || value === undefined) delete context[key];
  return context as PageContext;
}

/** The offline engine's colour-and-tone fallback: nothing recognised, only the pixels' look. */
function isFallback(altText: string): boolean {
  return /^(?:Plain background|(?:Dark |Bright )?(?:black-and-white )?(?:photograph|graphic)(?: in .* tones| with no clearly recognisable subject)?)\.?$/i.test(
    altText.trim(),
  );
}

/**
 * How an answer stands under the publishable rule (ADR 067): `needsWords` (no alt, a person must
 * write it), `published` (an alt handed out), and among those `ungrounded` (the rule says no, or no
 * evidence is a grounded source), `fileName` (it echoes the file name) and `titlePrefix`.
 */
function publishing(result: AltTextResult, context: PageContext | undefined, fileName: string) {
  const published = !result.decorative && result.altText.trim() !== '';
  const pageContext = {
    ...(context?.pageTitle ? { pageTitle: context.pageTitle } : {}),
    ...(context?.heading ? { heading: context.heading } : {}),
    ...(context?.siteName ? { siteName: context.siteName } : {}),
    fileName,
  };
  const verdict = judgePublishable({
    altText: result.altText,
    decorative: result.decorative,
    origin: result.origin ?? 'ai',
    reasons: result.reasons,
    context: pageContext,
  });
  return {
    needsWords: result.needsWords === true || (!published && !result.decorative),
    published,
    ungrounded:
      published &&
      (!verdict.publishable || !result.reasons.some((reason) => groundedSources.has(reason.source))),
    fileNameEcho: published && echoesFileName(result.altText, fileName),
    titlePrefix: published && hasTitlePrefix(result.altText, pageContext),
    kindAndTone: published && isKindAndToneSentence(result.altText),
  };
}

/**
 * Things a published alt claims from a detector (a `detection` or `face` reason whose words the alt
 * uses) that neither the reference alt nor the page mentions: an unsupported object claim.
 */
function unsupportedClaims(result: AltTextResult, said: string): string[] {
  if (result.decorative || !result.altText) return [];
  const alt = new Set(result.altText.toLowerCase().match(/\p{L}+/gu) ?? []);
  const page = new Set(said.toLowerCase().match(/\p{L}+/gu) ?? []);
  const named = /\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/u.test(said);
  const claims: string[] = [];
  for (const reason of result.reasons) {
    if (reason.source !== 'detection' && reason.source !== 'face') continue;
    const label = reason.source === 'face' ? 'person' : reason.detail;
    const words = [...wordsFor(label), ...(label === 'person' ? ['portrait'] : [])];
    if (!words.some((word) => alt.has(word))) continue;
    // A compound on the page names the thing too: a "trolleybus" is a bus, a "warplane" a plane
    // (not for people, where "German" would vouch for "man").
    const onPage = (word: string) =>
      page.has(word) || (label !== 'person' && [...page].some((said) => said.endsWith(word)));
    if (words.some(onPage) || (label === 'person' && named)) continue;
    claims.push(label);
  }
  return [...new Set(claims)];
}

const options = engineOptionsFromEnv({
  ...process.env,
  ALT_TEXT_ENGINE: process.env.ALT_TEXT_ENGINE ?? 'offline',
});
const engine = createAltTextEngine(options);
await engine.warmUp();
if (isGraphicSet(allRefs)) {
  await evaluateGraphics(allRefs);
  process.exit(0);
}
const refs = allRefs as Ref[];

interface Row {
  file: string;
  mode: 'a' | 'b';
  reference: string;
  altText: string;
  recall: number;
  confidence: number;
  needsReview: boolean;
  decorative: boolean;
  fallback: boolean;
  needsWords: boolean;
  published: boolean;
  ungrounded: boolean;
  fileNameEcho: boolean;
  titlePrefix: boolean;
  kindAndTone: boolean;
  unsupported: string[];
  reasons: AltTextResult['reasons'];
  context?: PageContext;
  ms: number;
}

const rows: Row[] = [];
const started = performance.now();
for (const [index, ref] of refs.entries()) {
  const bytes = await readFile(join(setDir, 'images', ref.file));
  for (const mode of ['a', 'b'] as const) {
    const context = mode === 'b' ? scrapedContext(ref) : undefined;
    const t0 = performance.now();
    const result = await engine.describeImage(bytes, context ? { context } : {});
    rows.push({
      file: ref.file,
      mode,
      reference: ref.alt,
      altText: result.altText,
      recall: contentWordRecall(ref.alt, result.altText),
      confidence: result.confidence,
      needsReview: result.needsReview,
      decorative: result.decorative,
      fallback: isFallback(result.altText),
      ...publishing(result, context, ref.file),
      unsupported: unsupportedClaims(result, `${ref.alt} ${ref.caption} ${ref.article} ${ref.context}`),
      reasons: result.reasons,
      ...(context ? { context } : {}),
      ms: Math.round(performance.now() - t0),
    });
  }
  if ((index + 1) % 25 === 0) process.stderr.write(`${index + 1}/${refs.length} images\n`);
}
await engine.close();

await mkdir(dirname(outFile), { recursive: true });
await writeFile(outFile, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const share = (xs: boolean[]) =>
  `${((100 * xs.filter(Boolean).length) / Math.max(1, xs.length)).toFixed(1)} %`;
const of = (mode: 'a' | 'b') => rows.filter((r) => r.mode === mode);
const lines = [
  `alt-text quality: ${refs.length} images from ${setDir}, engine ${engine.name} (${engine.model}), review threshold ${options.reviewThreshold}`,
  '                          (a) image alone   (b) with page context',
  `content-word recall       ${mean(of('a').map((r) => r.recall))
    .toFixed(3)
    .padStart(15)}   ${mean(of('b').map((r) => r.recall))
    .toFixed(3)
    .padStart(21)}`,
  `colour/tone fallbacks     ${share(of('a').map((r) => r.fallback)).padStart(15)}   ${share(of('b').map((r) => r.fallback)).padStart(21)}`,
  `flagged for review        ${share(of('a').map((r) => r.needsReview)).padStart(15)}   ${share(of('b').map((r) => r.needsReview)).padStart(21)}`,
  ...(
    [
      ['publishable', (r: Row) => r.published],
      ['needs words', (r: Row) => r.needsWords],
      ['ungrounded published', (r: Row) => r.ungrounded],
      ['kind-and-tone sentences', (r: Row) => r.kindAndTone],
      ['file-name echoes', (r: Row) => r.fileNameEcho],
      ['title/heading prefixes', (r: Row) => r.titlePrefix],
      ['unsupported object claims', (r: Row) => r.unsupported.length > 0],
    ] as const
  ).map(
    ([label, test]) =>
      `${label.padEnd(26)}${String(of('a').filter(test).length).padStart(15)}   ${String(of('b').filter(test).length).padStart(21)}`,
  ),
  `recall of published alts  ${mean(
    of('a')
      .filter((r) => r.published)
      .map((r) => r.recall),
  )
    .toFixed(3)
    .padStart(15)}   ${mean(
    of('b')
      .filter((r) => r.published)
      .map((r) => r.recall),
  )
    .toFixed(3)
    .padStart(21)}`,
  `over ${String(options.defaultMaxLength).padEnd(3)} characters      ${String(of('a').filter((r) => r.altText.length > options.defaultMaxLength).length).padStart(15)}   ${String(of('b').filter((r) => r.altText.length > options.defaultMaxLength).length).padStart(21)}`,
  `"an other"                ${String(of('a').filter((r) => /\ban other\b/i.test(r.altText)).length).padStart(15)}   ${String(of('b').filter((r) => /\ban other\b/i.test(r.altText)).length).padStart(21)}`,
  `ending on a hanging word  ${String(of('a').filter((r) => endsOnDanglingWord(r.altText)).length).padStart(15)}   ${String(of('b').filter((r) => endsOnDanglingWord(r.altText)).length).padStart(21)}`,
  `time                      ${((performance.now() - started) / 1000).toFixed(0)} s`,
  `per-image results         ${outFile}`,
];
process.stdout.write(`${lines.join('\n')}\n`);

/**
 * "audit-check failures: N": the results the audit's own checks fail in their context (ADR 054),
 * with the problem codes and how many are flagged for review; then the results with warnings only.
 */
function auditCheckLines(
  rows: Array<{ id: string; auditProblems: AuditProblemCode[]; needsReview: boolean }>,
): string[] {
  const failing = (code: AuditProblemCode) => auditProblemRules[code].severity === 'fail';
  const summary = (label: string, found: typeof rows, counted: (code: AuditProblemCode) => boolean) => {
    const codes = new Map<string, number>();
    for (const row of found)
      for (const code of row.auditProblems.filter(counted)) codes.set(code, (codes.get(code) ?? 0) + 1);
    const listed = [...codes].map(([code, n]) => `${code} ×${n}`).join(', ');
    const flagged = found.filter((r) => r.needsReview).length;
    return `${label}${found.length}${found.length ? ` (${listed}; flagged for review: ${flagged}; ${found.map((r) => r.id).join(', ')})` : ''}`;
  };
  const fails = rows.filter((r) => r.auditProblems.some(failing));
  const warnings = rows.filter((r) => r.auditProblems.length > 0 && !r.auditProblems.some(failing));
  return [
    summary('audit-check failures: ', fails, failing),
    summary('audit-check warnings: ', warnings, (code) => !failing(code)),
  ];
}

/** A colour-and-tone sentence, alone or after a heading: "…: Graphic in white and grey tones." */
function hasColourSentence(altText: string): boolean {
  return /\btones\b|no clearly recognisable subject|(?:^|: )Logo in |Plain background/i.test(altText);
}

/** The web-graphics set: one run per entry, in the page its HTML snippet makes. */
async function evaluateGraphics(graphics: GraphicRef[]): Promise<void> {
  interface GraphicRow {
    id: string;
    file: string;
    kind: GraphicKind;
    reference: string;
    altText: string;
    recall: number;
    exact: boolean;
    decorative: boolean;
    decorativeAgrees: boolean;
    needsReview: boolean;
    confidence: number;
    /** A colour-and-tone sentence anywhere in the alt (after a heading, too). */
    fallback: boolean;
    /** The alt starts with the section heading. */
    headingFirst: boolean;
    needsWords: boolean;
    published: boolean;
    ungrounded: boolean;
    fileNameEcho: boolean;
    titlePrefix: boolean;
    kindAndTone: boolean;
    reasons: AltTextResult['reasons'];
    textInImage?: string;
    context: PageContext;
    /** The audit's problem codes for the alt in its own context (ADR 054): none when it passes. */
    auditProblems: AuditProblemCode[];
    ms: number;
  }
  const results: GraphicRow[] = [];
  const t = performance.now();
  for (const ref of graphics) {
    const image = scrapedGraphic(ref);
    // As generation does for a scraped image: its context, its existing alt, the page's address,
    // and (describeOnce) the file name of its address.
    const context: Record<string, unknown> = {
      ...image.context,
      existingAlt: image.alt,
      ...(ref.context.pageUrl ? { pageUrl: ref.context.pageUrl } : {}),
      fileName: fileNameFromUrl(image.src),
    };
    for (const [key, value] of Object.entries(context))
      if (value === '' || value === undefined) delete context[key];
    const bytes = await readFile(join(setDir, ref.file));
    const t0 = performance.now();
    const result = await engine.describeImage(bytes, { context: context as PageContext });
    const score = scoreGraphic(ref, result);
    results.push({
      id: ref.id,
      file: ref.file,
      kind: ref.kind,
      reference: ref.alt,
      altText: result.altText,
      ...score,
      decorative: result.decorative,
      needsReview: result.needsReview,
      confidence: result.confidence,
      fallback: hasColourSentence(result.altText),
      headingFirst: Boolean(
        (context as PageContext).heading && result.altText.startsWith(`${(context as PageContext).heading}:`),
      ),
      ...publishing(result, context as PageContext, fileNameFromUrl(image.src) ?? ref.file),
      reasons: result.reasons,
      ...(result.textInImage ? { textInImage: result.textInImage } : {}),
      context: context as PageContext,
      auditProblems: auditProblemsFor(result.altText, result.decorative, context as PageContext).map(
        (problem) => problem.code,
      ),
      ms: Math.round(performance.now() - t0),
    });
  }
  await engine.close();
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, `${results.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
  const pct = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;
  const kinds: GraphicKind[] = ['text', 'functional', 'logo', 'icon', 'informative', 'complex', 'decorative'];
  const line = (label: string, rs: GraphicRow[]) =>
    `${label.padEnd(26)}${String(rs.length).padStart(3)}   ${avg(rs.map((r) => r.recall)).toFixed(3)}`;
  const targeted = results.filter((r) => ['text', 'functional', 'logo'].includes(r.kind));
  const meaningful = results.filter((r) => r.kind !== 'decorative');
  const textRows = results.filter((r) => r.kind === 'text');
  const decorativeRows = results.filter((r) => r.kind === 'decorative');
  const out = [
    `web-graphics quality: ${graphics.length} entries from ${setDir}, engine ${engine.name} (${engine.model}), review threshold ${options.reviewThreshold}`,
    'recall by kind              n   recall (decorative: 1 when the engine says decorative)',
    ...kinds.map((kind) =>
      line(
        kind,
        results.filter((r) => r.kind === kind),
      ),
    ),
    line('text+functional+logo', targeted),
    line('all but decorative', meaningful),
    line('overall', results),
    `exact match, text entries  ${textRows.filter((r) => r.exact).length} of ${textRows.length}`,
    `decorative agreement       ${pct(results.filter((r) => r.decorativeAgrees).length, results.length)} (decorative entries said decorative: ${decorativeRows.filter((r) => r.decorative).length} of ${decorativeRows.length}; others said decorative: ${meaningful.filter((r) => r.decorative).length} of ${meaningful.length})`,
    `colour/tone sentences      ${pct(results.filter((r) => r.fallback).length, results.length)} (in links and buttons: ${results.filter((r) => r.fallback && (r.context.role === 'link' || r.context.role === 'button')).length})`,
    `heading in front           ${results.filter((r) => r.headingFirst).length} of ${results.length}`,
    `publishable                ${results.filter((r) => r.published).length} of ${results.length} (decorative: ${results.filter((r) => r.decorative).length})`,
    `needs words                ${results.filter((r) => r.needsWords).length} of ${results.length}`,
    `ungrounded published       ${results.filter((r) => r.ungrounded).length}`,
    `kind-and-tone sentences    ${results.filter((r) => r.kindAndTone).length}`,
    `file-name echoes           ${results.filter((r) => r.fileNameEcho).length}`,
    `title/heading prefixes     ${results.filter((r) => r.titlePrefix).length}`,
    `flagged for review         ${pct(results.filter((r) => r.needsReview).length, results.length)}`,
    ...auditCheckLines(results),
    `time                       ${((performance.now() - t) / 1000).toFixed(0)} s`,
    `per-image results          ${outFile}`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
