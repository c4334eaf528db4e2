/**
 * Runs `work` on at most `limit` items at a time and yields the results in input order, as soon as
 * each one and all before it are done. Items are pulled from `items` only as slots free up, so a long
 * manifest is never read into memory ahead of the work. `work` must not reject: it reports failures
 * in its result, or the first rejection ends the run.
 */
export async function* mapInOrder<T, R>(
  items: AsyncIterable<T> | Iterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const source =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<T>)[Symbol.iterator]();
  const running: Array<Promise<R>> = [];
  let exhausted = false;
  const fill = async () => {
    while (!exhausted && running.length < limit) {
      const next = await source.next();
      if (next.done) exhausted = true;
      else running.push(work(next.value));
    }
  };
  try {
    await fill();
    while (running.length > 0) {
      // biome-ignore lint/style/noNonNullAssertion: the loop condition guarantees an element.
      yield await running.shift()!;
      await fill();
    }
  } finally {
    // The consumer stopped early: let the source close its files.
    if (!exhausted) await source.return?.();
  }
}
