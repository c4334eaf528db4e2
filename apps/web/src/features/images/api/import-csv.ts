import { type ImportCsvResponse, importCsvResponseSchema } from '@altwise/contracts/generation';
import { api } from '../../../lib/api-client.ts';

export type ImportCsvInput = {
  file: File;
  userId?: string | null | undefined;
  chatGptPrompt?: string | undefined;
  language?: string | undefined;
};

/** POST /images/import-csv: one CSV or .xlsx file of image URLs becomes one batch. */
export function importCsv(input: ImportCsvInput): Promise<ImportCsvResponse> {
  const form = new FormData();
  if (input.userId) form.append('userId', input.userId);
  if (input.chatGptPrompt) form.append('chatGptPrompt', input.chatGptPrompt);
  if (input.language) form.append('language', input.language);
  // The file last: the server reads the fields it needs first, then streams the rows.
  form.append('file', input.file, input.file.name);
  return api.post('/images/import-csv', form, { schema: importCsvResponseSchema });
}
