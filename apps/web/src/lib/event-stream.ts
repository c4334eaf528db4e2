import { errorCodes, statusForCode } from '@altwise/contracts/errors';
import { messages } from '@altwise/contracts/messages';
import { API_BASE } from '@altwise/contracts/routes';
import { ApiError } from './api-error.ts';
import { readToken } from './auth-storage.ts';

/**
 * Reads a server-sent event stream of the API (`path` under /api/v1) with fetch, since the streams need
 * the Bearer header and EventSource cannot send one. Calls `onEvent` with the parsed JSON of each event
 * named `event`; when it returns true the stream is closed. Resolves when the stream ends; throws when it
 * cannot be opened.
 */
export async function readEventStream(
  path: string,
  event: string,
  signal: AbortSignal,
  onEvent: (data: unknown) => boolean,
): Promise<void> {
  const token = readToken();
  if (!token)
    throw new ApiError({
      status: statusForCode(errorCodes.unauthorized),
      code: errorCodes.unauthorized,
      message: messages.common.noToken,
    });
  const response = await fetch(`${API_BASE}${path}`, {
    headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
    signal,
    credentials: 'same-origin',
  });
  if (!response.ok || !response.body) throw new Error(`Event stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (name !== event || data.length === 0) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.join('\n'));
      } catch {
        continue;
      }
      if (onEvent(parsed)) {
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
  }
}
