import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * An import's accepted rows, written to a temporary file as they are checked and read back a chunk
 * at a time when the batch is stored: the API process never holds a 100,000-row file's rows at once
 * (ADR 031's addendum has the measurements). One JSON line per row, in the file's order.
 */
export type RowSpool<Row> = {
  /** The file, in a directory of its own under the system's temporary directory. */
  readonly file: string;
  /** Rows written so far. */
  readonly count: number;
  write(row: Row): Promise<void>;
  /** Flushes and closes the file; call once, before reading. */
  finish(): Promise<void>;
  /** The rows in order, `size` at a time. */
  chunks(size: number): AsyncGenerator<Row[]>;
  /** Deletes the file (also when nothing was read). */
  remove(): Promise<void>;
};

export async function createRowSpool<Row>(): Promise<RowSpool<Row>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'altwise-import-'));
  const file = path.join(dir, 'rows.ndjson');
  const out = createWriteStream(file, { highWaterMark: 1024 * 1024 });
  // An error (a full disk) is kept for the next write or finish rather than thrown from the stream.
  let failure: Error | undefined;
  out.on('error', (error) => {
    failure = error;
  });
  let count = 0;
  return {
    file,
    get count() {
      return count;
    },
    async write(row) {
      if (failure) throw failure;
      count++;
      if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
    },
    async finish() {
      if (failure) throw failure;
      out.end();
      await once(out, 'finish');
    },
    chunks: createRowSpoolReader<Row>(file).chunks,
    async remove() {
      out.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A spool another thread wrote and finished (the import sandbox checks the file there): read and
 * removed here, never written.
 */
export function openRowSpool<Row>(file: string, count: number): RowSpool<Row> {
  const written = createRowSpoolReader<Row>(file);
  return {
    file,
    count,
    write() {
      return Promise.reject(new Error('This spool is finished.'));
    },
    finish() {
      return Promise.resolve();
    },
    chunks: written.chunks,
    remove: () => rm(path.dirname(file), { recursive: true, force: true }),
  };
}

function createRowSpoolReader<Row>(file: string): Pick<RowSpool<Row>, 'chunks'> {
  return {
    async *chunks(size) {
      const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
      let chunk: Row[] = [];
      for await (const line of lines) {
        chunk.push(JSON.parse(line) as Row);
        if (chunk.length === size) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    },
  };
}
