import { describe, expect, it } from 'vitest';
import { createFairSlots, SlotsClosedError } from './fair-slots.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('fair slots', () => {
  it('gives a freed slot to the owner holding fewest, not to the first in line', async () => {
    const slots = createFairSlots(2);
    await slots.acquire('a');
    await slots.acquire('a');
    const order: string[] = [];
    void slots.acquire('a').then(() => order.push('a'));
    void slots.acquire('b').then(() => order.push('b'));
    await tick();
    expect(order).toEqual([]);
    slots.release('a');
    await tick();
    expect(order).toEqual(['b']);
    expect(slots.holders()).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
  });

  it('makes an owner holding every slot yield one to another owner who waits, and only then', async () => {
    const slots = createFairSlots(2);
    await slots.acquire('a');
    await slots.acquire('a');
    // Nobody else waits: the turn goes on at once.
    await slots.yieldTurn('a');
    expect(slots.holders().get('a')).toBe(2);
    let bRuns = false;
    void slots.acquire('b').then(() => {
      bRuns = true;
    });
    let aBack = false;
    const yielded = slots.yieldTurn('a').then(() => {
      aBack = true;
    });
    await tick();
    expect(bRuns).toBe(true);
    expect(aBack).toBe(false);
    expect(slots.holders()).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
    // With one slot each, nobody yields to a third owner: it waits for one to end.
    let cRuns = false;
    void slots.acquire('c').then(() => {
      cRuns = true;
    });
    await slots.yieldTurn('b');
    await tick();
    expect(cRuns).toBe(false);
    slots.release('b');
    await tick();
    // The freed slot goes to c (holding none), not back to a's second run (a holds one).
    expect(cRuns).toBe(true);
    expect(aBack).toBe(false);
    slots.close();
    await expect(yielded).rejects.toBeInstanceOf(SlotsClosedError);
    await expect(slots.acquire('d')).rejects.toBeInstanceOf(SlotsClosedError);
  });
});
