import type { ImportCsvResponse } from '@altwise/contracts/generation';
import { MAX_IMPORT_ROWS } from '@altwise/contracts/generation';
import { routes } from '@altwise/contracts/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { MessageBanner } from '../../../components/ui/message-banner.tsx';
import { serverMessage } from '../../../lib/api-error.ts';
import { readUserId } from '../../../lib/auth-storage.ts';
import { creditsQueryKey } from '../../../lib/credits.ts';
import { importCsv } from '../api/import-csv.ts';

/** How many rejected rows the summary lists; the answer's total says how many there were. */
const SHOWN_REJECTIONS = 20;

const rows = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;

/**
 * "Import CSV" on /upload-images: a CSV or .xlsx file of image URLs (image_url, and
 * optionally id, page_url, existing_alt, caption, keywords, language) becomes one background batch
 * that the progress panel and the library follow like any other.
 */
export function ImportCsvSection({ prompt, disabled }: { prompt: string; disabled: boolean }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ImportCsvResponse | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const headingId = useId();

  const onImport = async () => {
    if (!file) return;
    setProblem(null);
    setResult(null);
    setSending(true);
    try {
      const chatGptPrompt = prompt.trim();
      const answer = await importCsv({
        file,
        userId: readUserId(),
        chatGptPrompt: chatGptPrompt || undefined,
      });
      setResult(answer);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
    } catch (error) {
      setProblem(serverMessage(error) ?? 'The file could not be imported. Please try again.');
    } finally {
      setSending(false);
      void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
    }
  };

  return (
    <Card className="mt-8">
      <section aria-labelledby={headingId} className="flex flex-col gap-4">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          Import a spreadsheet of image URLs
        </h2>
        <p className="text-sm text-slate-700">
          A CSV or Excel (.xlsx) file whose first row names the columns: <code>image_url</code> (required),
          and optionally <code>id</code>, <code>page_url</code>, <code>existing_alt</code>,{' '}
          <code>caption</code>, <code>keywords</code> (separated by <code>;</code>) and <code>language</code>.
          Up to {MAX_IMPORT_ROWS.toLocaleString('en-US')} rows and 50 MB; each imported row uses 1 credit.
        </p>
        <div className="flex flex-col gap-2">
          <label htmlFor={inputId} className="text-sm font-medium text-slate-900">
            CSV or Excel file
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            disabled={disabled || sending}
            onChange={(event) => {
              setProblem(null);
              setFile(event.target.files?.[0] ?? null);
            }}
            className="rounded-md border border-slate-500 bg-white px-3 py-2 text-sm text-slate-900 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-700 file:px-3 file:py-2 file:font-semibold file:text-white"
          />
        </div>
        {problem ? (
          <MessageBanner type="error" onDismiss={() => setProblem(null)}>
            <p>{problem}</p>
          </MessageBanner>
        ) : null}
        {result ? <ImportSummary result={result} /> : null}
        <div>
          <Button onClick={onImport} disabled={!file || disabled || sending}>
            {sending ? 'Importing...' : 'Import CSV'}
          </Button>
        </div>
      </section>
    </Card>
  );
}

function ImportSummary({ result }: { result: ImportCsvResponse }) {
  const shown = result.rejected.slice(0, SHOWN_REJECTIONS);
  return (
    <div
      role="status"
      className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-slate-900"
    >
      <p>
        Imported {rows(result.accepted)}: alt text is being written in the background.
        {result.duplicates > 0
          ? ` ${rows(result.duplicates)} repeated an earlier image URL (imported once).`
          : ''}
        {result.rejectedTotal > 0 ? ` ${rows(result.rejectedTotal)} could not be imported.` : ''}
      </p>
      {shown.length > 0 ? (
        <ul className="mt-2 list-disc pl-5">
          {shown.map((row) => (
            <li key={row.line}>
              Line {row.line}: {row.reason}
            </li>
          ))}
          {result.rejectedTotal > shown.length ? (
            <li>…and {rows(result.rejectedTotal - shown.length)} more.</li>
          ) : null}
        </ul>
      ) : null}
      <p className="mt-2">
        <Link
          to={routes.images}
          state={{ batchId: result.batchId }}
          className="font-semibold text-indigo-800 underline"
        >
          Open your library
        </Link>
      </p>
    </div>
  );
}
