import {
  type AccuracyReport,
  type AuditFault,
  accuracyReportSchema,
  type GraphicKind,
} from '@altwise/contracts/accuracy';
import {
  auditProblemCodes,
  auditProblemLabels,
  auditProblemRules,
  auditProblemTechniques,
} from '@altwise/contracts/audit-problems';
import type { ReactNode } from 'react';
import { usePageMeta } from '../../lib/page-meta.tsx';
import accuracyJson from './accuracy.json';

export const accuracyMeta = {
  title: 'Accuracy',
  description:
    'How well the Altwise offline alt-text engine and audit do on public development sets, per kind of image, what they get wrong and how to reproduce every figure.',
};

/** Written by `npm run eval:publish` (ADR 078); parsed with the schema the script wrote it with. */
export const accuracyReport: AccuracyReport = accuracyReportSchema.parse(accuracyJson);

const kindNames: Record<GraphicKind | 'photo', string> = {
  text: 'Images of text',
  functional: 'Links and buttons',
  logo: 'Logos',
  icon: 'Icons',
  informative: 'Informative images',
  complex: 'Charts and diagrams',
  decorative: 'Decorative images',
  photo: 'Wikipedia photos',
};

const faultNames: Record<AuditFault, string> = {
  'alt-removed': 'Alt attribute removed',
  'file-name-alt': 'Alt set to the file name',
  'placeholder-alt': 'Alt set to “image”',
  'empty-alt-in-link': 'Alt emptied on the only content of a link or button',
  'empty-alt-on-meaningful': 'Alt emptied on a meaningful image',
};

const recall = (x: number) => x.toFixed(3);
const outOf = (part: number, whole: number) => `${part} of ${whole}`;
const percent = (x: number) => `${x.toFixed(1)} %`;

const linkClass = 'font-semibold text-indigo-700 underline underline-offset-4';
const cellClass = 'border-b border-slate-200 px-1.5 py-2 align-top sm:px-3';
const headClass = `${cellClass} bg-slate-50 text-left font-semibold text-slate-900`;

function Table({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <table className="mt-4 w-full border-collapse text-xs text-slate-800 sm:text-sm">
      <caption className="mb-2 text-left font-semibold text-slate-900">{caption}</caption>
      <thead>
        <tr>
          {head.map((label) => (
            <th key={label} scope="col" className={headClass}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

function Row({ label, cells }: { label: string; cells: ReactNode[] }) {
  return (
    <tr>
      <th scope="row" className={`${cellClass} text-left font-medium text-slate-900`}>
        {label}
      </th>
      {cells.map((cell, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed and never reorder.
        <td key={index} className={cellClass}>
          {cell}
        </td>
      ))}
    </tr>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-12">
      <h2 className="text-2xl font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** What the figures say the engine and the audit get wrong, one sentence per non-zero count. */
export function misses(report: AccuracyReport): string[] {
  const found: string[] = [];
  for (const kind of report.graphics.byKind) {
    const name = kindNames[kind.kind].toLowerCase();
    if (kind.kind === 'decorative' && kind.decorativeWrong > 0)
      found.push(
        `Gave words to ${outOf(kind.decorativeWrong, kind.entries)} ${name}, where experts wrote alt="".`,
      );
    if (kind.kind !== 'decorative' && kind.decorativeWrong > 0)
      found.push(
        `Called ${outOf(kind.decorativeWrong, kind.entries)} ${name} decorative, where experts wrote words.`,
      );
    if (kind.needsWords > 0)
      found.push(
        `Left ${outOf(kind.needsWords, kind.entries)} ${name} for a person to write: nothing to go on.`,
      );
    if (kind.lowRecall > 0)
      found.push(
        `Wrote alt text sharing under half the experts’ words for ${outOf(kind.lowRecall, kind.entries)} ${name}.`,
      );
  }
  const { alone, withContext, images } = report.photos;
  const left =
    alone.needsWords > 0 ? `; ${outOf(alone.needsWords, images)} are left for a person to write` : '';
  const tones =
    alone.colourFallbacks > 0
      ? `; ${outOf(alone.colourFallbacks, images)} say only the colours and tones`
      : '';
  found.push(
    `Photos without their page: the alt text shares ${recall(alone.recall)} of the editors’ content words on average (${recall(withContext.recall)} with the page)${left}${tones}.`,
  );
  const unsupported = withContext.unsupportedClaims + alone.unsupportedClaims;
  if (unsupported > 0)
    found.push(
      `Named something in neither the picture’s reference nor the page in ${unsupported} photo results.`,
    );
  for (const fault of report.audit.seededFaults)
    if (fault.caught < fault.tried)
      found.push(
        `The audit missed “${faultNames[fault.fault].toLowerCase()}” on ${outOf(fault.tried - fault.caught, fault.tried)} web graphics.`,
      );
  return found;
}

export function AccuracyPage() {
  usePageMeta(accuracyMeta);
  const report = accuracyReport;
  const { photos, graphics, audit, ocr } = report;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Accuracy</h1>
      <p className="mt-4 text-lg text-slate-700">
        How well the offline alt-text engine and the audit do, per kind of image, on two public sets of images
        with alt text written by people: what they get right, what they get wrong, and the commands that
        produce every figure on this page.
      </p>
      <div className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-slate-900">
        <p>
          <strong>These are development sets.</strong> We used them while building the engine and the audit,
          so they show the product at its most familiar. We also measure it on held-out sets that are not
          shown here and that we do not tune against.
        </p>
      </div>
      <p className="mt-4 text-sm text-slate-700">
        Measured on {report.generatedAt.slice(0, 10)} at commit <code>{report.commit}</code> with the offline
        engine <code className="break-all">{report.engine.model}</code>. The figures are written by{' '}
        <code>npm run eval:publish</code> and shown here unchanged.
      </p>

      <Section title="The sets">
        <dl className="mt-4 space-y-4 text-slate-700">
          <div>
            <dt className="font-semibold text-slate-900">
              {photos.set}: {photos.images} photos from Wikipedia
            </dt>
            <dd className="mt-1">
              Thumbnails from Wikipedia articles with the alt text Wikipedia editors wrote, the figure caption
              and the paragraph beside them, as published in the Concadia dataset (Kreiss, Fang, Goodman and
              Potts, “Concadia: Towards Image-Based Text Generation with a Purpose”, EMNLP 2022). The images
              are on Wikimedia Commons, each under its own free licence (mostly CC BY-SA or public domain);
              Wikipedia’s text is under CC BY-SA 4.0. We quote a few of its alt texts below, with their
              articles; we do not show the images.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">
              {graphics.set}: {graphics.entries} web graphics with expert alt text
            </dt>
            <dd className="mt-1">
              Icons, logos, images of text, links and buttons, charts, diagrams and decorative images from the
              W3C Web Accessibility Initiative’s Images tutorial and other WAI pages (w3c/wai-website) and
              from WCAG techniques (w3c/wcag), each with the alt text W3C editors wrote for it and the HTML
              around it. Copyright © World Wide Web Consortium, under the W3C Document License, which does not
              allow derivative works: we show counts from this set, not its images or its alt texts.
            </dd>
          </div>
        </dl>
      </Section>

      <Section title="Photos: the offline engine on Wikipedia images">
        <p className="mt-4 text-slate-700">
          Each photo runs twice: alone, and in the page a Wikipedia article gives it (its title and heading,
          the figure with its caption, the paragraph after it), read by the product’s own page reader. The
          score is content-word recall: the share of the reference alt text’s content words (stop words left
          out, plurals and verb endings stripped) that our alt text also uses, averaged over the set. Copying
          the figure caption as the alt text scores {recall(photos.captionRecall)}.
        </p>
        <Table
          caption={`${photos.set}: ${photos.images} photos`}
          head={['Measure', 'Image alone', 'With its page']}
        >
          <Row
            label="Content-word recall"
            cells={[recall(photos.alone.recall), recall(photos.withContext.recall)]}
          />
          <Row
            label="Alt text given"
            cells={[
              outOf(photos.alone.published, photos.images),
              outOf(photos.withContext.published, photos.images),
            ]}
          />
          <Row
            label="Left for a person to write"
            cells={[
              outOf(photos.alone.needsWords, photos.images),
              outOf(photos.withContext.needsWords, photos.images),
            ]}
          />
          <Row
            label="Only colours and tones"
            cells={[
              outOf(photos.alone.colourFallbacks, photos.images),
              outOf(photos.withContext.colourFallbacks, photos.images),
            ]}
          />
          <Row
            label="Flagged for review"
            cells={[
              outOf(photos.alone.flaggedForReview, photos.images),
              outOf(photos.withContext.flaggedForReview, photos.images),
            ]}
          />
          <Row
            label="Named something not there"
            cells={[
              outOf(photos.alone.unsupportedClaims, photos.images),
              outOf(photos.withContext.unsupportedClaims, photos.images),
            ]}
          />
        </Table>
      </Section>

      <Section title="Web graphics: the offline engine per kind of image">
        <p className="mt-4 text-slate-700">
          Each graphic sits in the page its HTML snippet makes, with the experts’ alt text removed, and the
          engine writes it as it would for a scraped page. Recall is measured against the best of the wordings
          the source accepts; a decorative graphic scores 1 when the engine says it is decorative and 0
          otherwise.
        </p>
        <Table
          caption={`${graphics.set}: ${graphics.entries} web graphics by kind`}
          head={['Kind', 'Graphics', 'Recall', 'Decorative or not, as experts said', 'Left for a person']}
        >
          {graphics.byKind.map((kind) => (
            <Row
              key={kind.kind}
              label={kindNames[kind.kind]}
              cells={[
                kind.entries,
                recall(kind.recall),
                outOf(kind.decorativeAgrees, kind.entries),
                kind.kind === 'decorative' ? '–' : outOf(kind.needsWords, kind.entries),
              ]}
            />
          ))}
          <Row
            label="All"
            cells={[
              graphics.entries,
              recall(graphics.recall),
              percent(100 * graphics.decorativeAgreement),
              outOf(
                graphics.byKind.reduce((sum, kind) => sum + kind.needsWords, 0),
                graphics.entries,
              ),
            ]}
          />
        </Table>
        <p className="mt-4 text-slate-700">
          Images of text whose alt text matches an experts’ wording exactly (ignoring case, spacing and a
          closing full stop): {outOf(graphics.textExact, graphics.textEntries)}.
        </p>
      </Section>

      <Section title="Reading text in images">
        <p className="mt-4 text-slate-700">
          The OCR ({ocr.model}) on {ocr.images} synthetic web graphics with known text (seed {ocr.seed}): the
          character error rate is the edit distance over the reference’s length; exact words are reference
          words read letter for letter.
        </p>
        <Table
          caption={`Synthetic OCR benchmark: ${ocr.images} graphics`}
          head={['Kind', 'Graphics', 'Character error rate', 'Exact words']}
        >
          {ocr.byKind.map((kind) => (
            <Row
              key={kind.kind}
              label={kind.kind}
              cells={[kind.images, percent(kind.cerPercent), percent(kind.exactWordPercent)]}
            />
          ))}
          <Row label="All" cells={[ocr.images, percent(ocr.cerPercent), percent(ocr.exactWordPercent)]} />
        </Table>
        <p className="mt-4 text-slate-700">
          The images of text in {graphics.set} read exactly as they are written:{' '}
          {outOf(ocr.textExact, ocr.textEntries)}.
        </p>
      </Section>

      <Section title="The audit’s checks and WCAG">
        <p className="mt-4 text-slate-700">
          Each check the audit makes, the WCAG 2.2 success criteria it relates to, and the techniques it
          stands on: a failure technique (F) where WCAG names the fault, otherwise the sufficient technique
          whose condition the alt text breaks. A dash means the W3C Images tutorial advises it but no
          technique names it.
        </p>
        <Table caption="The audit’s checks" head={['Check', 'Severity', 'Success criteria', 'Techniques']}>
          {auditProblemCodes.map((code) => (
            <Row
              key={code}
              label={auditProblemLabels[code]}
              cells={[
                auditProblemRules[code].severity === 'fail' ? 'Fail' : 'Warning',
                auditProblemRules[code].wcag.join(', '),
                auditProblemTechniques[code].join(', ') || '–',
              ]}
            />
          ))}
        </Table>

        <h3 className="mt-8 text-xl font-semibold text-slate-900">Faults planted in the experts’ pages</h3>
        <p className="mt-2 text-slate-700">
          In each web graphic’s snippet we plant one fault at a time and run the audit as it reads a real
          page, with its pixel check. A fault counts as caught when the audit names it with the check made for
          it.
        </p>
        <Table caption="Planted faults the audit caught" head={['Fault', 'Expected check', 'Caught']}>
          {audit.seededFaults.map((fault) => (
            <Row
              key={fault.fault}
              label={faultNames[fault.fault]}
              cells={[
                fault.expected.map((code) => auditProblemLabels[code]).join(' or '),
                outOf(fault.caught, fault.tried),
              ]}
            />
          ))}
        </Table>

        <h3 className="mt-8 text-xl font-semibold text-slate-900">
          What the audit finds on alt text people wrote
        </h3>
        <p className="mt-2 text-slate-700">
          The same checks on the W3C experts’ alt text, in its own snippet, and on the Wikipedia editors’ alt
          text with its caption. The experts’ alt text is right in its context, so every problem found on it
          is a false alarm. The editors’ alt text is usually right but not always: some of what the audit
          finds there is real.
        </p>
        <Table
          caption="Alt text people wrote that the audit flagged"
          head={['Kind', 'Alt texts', 'Failed', 'Warned']}
        >
          {audit.falseAlarms
            .filter((row) => row.alts > 0)
            .map((row) => (
              <Row
                key={row.kind}
                label={kindNames[row.kind]}
                cells={[row.alts, outOf(row.failed, row.alts), outOf(row.warned, row.alts)]}
              />
            ))}
        </Table>
        {audit.falseAlarmCodes.length > 0 && (
          <p className="mt-4 text-slate-700">
            By check:{' '}
            {audit.falseAlarmCodes.map((row) => `${auditProblemLabels[row.code]} ${row.alts}`).join(', ')}.
          </p>
        )}
      </Section>

      <Section title="What it gets wrong">
        <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-700">
          {misses(report).map((miss) => (
            <li key={miss}>{miss}</li>
          ))}
        </ul>
        <h3 className="mt-8 text-xl font-semibold text-slate-900">
          Our weakest photo results, with the page
        </h3>
        <p className="mt-2 text-slate-700">
          The published results that share the fewest words with the Wikipedia editor’s alt text. Reference
          alt texts are from the Wikipedia articles named, under CC BY-SA 4.0.
        </p>
        <ul className="mt-4 space-y-4">
          {photos.misses.map((example) => (
            <li key={example.articleUrl} className="rounded-xl border border-slate-200 bg-white p-4">
              <p className="font-semibold text-slate-900">
                <a href={example.articleUrl} className={linkClass}>
                  Wikipedia: {example.article}
                </a>
              </p>
              <dl className="mt-2 grid gap-1 text-slate-700 sm:grid-cols-[8rem_1fr]">
                <dt className="font-medium text-slate-900">Reference</dt>
                <dd>{example.reference}</dd>
                <dt className="font-medium text-slate-900">Ours</dt>
                <dd>{example.ours}</dd>
                <dt className="font-medium text-slate-900">Recall</dt>
                <dd>{recall(example.recall)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Reproduce these figures">
        <p className="mt-4 text-slate-700">
          From a clone of the repository, with Node 24. The sets are kept outside the repository: each command
          takes the folder that holds a set’s <code>refs.json</code> and images.
        </p>
        <ul className="mt-4 space-y-3 text-slate-700">
          {[
            [
              'Everything on this page',
              'npm run eval:publish -- --quality <quality-dev> --graphics <web-graphics-dev>',
            ],
            [
              'The engine on one set, with per-image results',
              'npm run eval:quality -- --set <folder> --out results.jsonl',
            ],
            [
              'The audit on the experts’ alt text and the planted faults',
              'node apps/api/bench/audit-checks-experts.ts --graphics <web-graphics-dev> --photos <quality-dev>',
            ],
            ['The OCR benchmark', 'npm run bench:ocr -- --set <web-graphics-dev>'],
          ].map(([what, command]) => (
            <li key={command}>
              {what}:
              <pre className="mt-1 whitespace-pre-wrap break-words rounded-lg bg-slate-900 p-3 text-sm text-slate-50">
                <code>{command}</code>
              </pre>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
