/**
 * A few slots shared fairly between owners (users), in one process (ADR 070). A slot goes to the
 * waiter whose owner holds the fewest, first come among equals; a holder asked to `yieldTurn` between
 * two steps of its work gives its slot up and waits again when another owner waits who holds at least
 * two fewer. So an owner never holds two slots while another owner waits with none, however long
 * each piece of work runs.
 */

/** The slots were closed (the process stops): the waiting work gives up, its job retries later. */
export class SlotsClosedError extends Error {
  constructor() {
    super('The slots were closed while this work waited for one.');
    this.name = 'SlotsClosedError';
  }
}

type Waiter = { owner: string; grant: () => void; refuse: (error: Error) => void };

export function createFairSlots(size: number) {
  const held = new Map<string, number>();
  const waiting: Waiter[] = [];
  let inUse = 0;
  let closed = false;
  const holding = (owner: string) => held.get(owner) ?? 0;

  function dispatch() {
    while (inUse < size && waiting.length > 0) {
      let best = 0;
      for (let at = 1; at < waiting.length; at++)
        if (holding((waiting[at] as Waiter).owner) < holding((waiting[best] as Waiter).owner)) best = at;
      const [next] = waiting.splice(best, 1) as [Waiter];
      inUse++;
      held.set(next.owner, holding(next.owner) + 1);
      next.grant();
    }
  }

  function acquire(owner: string): Promise<void> {
    if (closed) return Promise.reject(new SlotsClosedError());
    return new Promise((grant, refuse) => {
      waiting.push({ owner, grant, refuse });
      dispatch();
    });
  }

  function release(owner: string) {
    const n = holding(owner);
    if (n === 0) return;
    inUse--;
    if (n === 1) held.delete(owner);
    else held.set(owner, n - 1);
    dispatch();
  }

  return {
    /** Resolves once `owner` holds a slot; rejects with SlotsClosedError once closed. */
    acquire,
    /** Gives one of `owner`'s slots back. */
    release,
    /** Whether `owner` already has work waiting for a slot (more would only queue behind it). */
    isWaiting: (owner: string) => waiting.some((waiter) => waiter.owner === owner),
    /** Between two steps: gives the slot to a waiting owner who holds at least two fewer, and waits again. */
    async yieldTurn(owner: string): Promise<void> {
      const mine = holding(owner);
      if (!waiting.some((waiter) => waiter.owner !== owner && holding(waiter.owner) + 1 < mine)) return;
      release(owner);
      await acquire(owner);
    },
    /** Slots held now, by owner (tests). */
    holders: () => new Map(held),
    /** Refuses every waiter and every later acquire; holders finish and release as usual. */
    close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter.refuse(new SlotsClosedError());
    },
  };
}

export type FairSlots = ReturnType<typeof createFairSlots>;
