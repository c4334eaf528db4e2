import { describe, expect, it } from 'vitest';
import { altStates, statedFacts } from './image-text.ts';

/** ADR 060: the phone numbers, prices and dates read in an image, and whether an alt states them. */

describe('statedFacts', () => {
  it.each<[string, Array<[string, string]>]>([
    ['CALL US\n555-0142', [['phone number', '555-0142']]],
    ['Tel 0800 123 4567', [['phone number', '0800 123 4567']]],
    ['+44 20 7946 0958', [['phone number', '+44 20 7946 0958']]],
    ['SALE $1,299.00', [['price', '$1,299.00']]],
    ['Only 19,99 €', [['price', '19,99 €']]],
    ['Opening 12.03.2026', [['date', '12.03.2026']]],
    ['2026-05-01 concert', [['date', '2026-05-01']]],
    ['Sale ends March 31, 2026', [['date', 'March 31, 2026']]],
    ['Doors 7 May', [['date', '7 May']]],
  ])('%j', (text, facts) => {
    expect(statedFacts(text).map((fact) => [fact.kind, fact.text])).toEqual(facts);
  });

  it.each([
    ['an axis of years', '2021 2022 2023 2024'],
    ['an axis of numbers', '0 10 20 30 40'],
    ['opening hours', 'Open 9:00-17:00'],
    ['a jersey number', '38'],
    ['words only', 'SUMMER SALE'],
    ['numbers on two lines are not one phone number', '2024\n555 01'],
    ['an impossible date', '45.13.26'],
  ])('finds nothing in %s', (_what, text) => {
    expect(statedFacts(text)).toEqual([]);
  });

  it('reads a hostile 1 MB text of digits and separators in linear time', () => {
    const text = '1-2.3 '.repeat(200_000);
    const started = performance.now();
    statedFacts(text);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('altStates', () => {
  const fact = (text: string) => {
    const [found] = statedFacts(text);
    if (!found) throw new Error(`no fact in ${text}`);
    return found;
  };
  it.each<[string, string, boolean]>([
    ['555-0142', 'Call us on 555 0142', true],
    ['555-0142', 'Call us on 555-0199', false],
    ['+44 20 7946 0958', 'Phone 020 7946 0958', true],
    ['$1,299.00', 'Sale: 1299 dollars', true],
    ['€19,99', 'Only 19.99 euros', true],
    ['€19,99', 'Only 29.99 euros', false],
    ['12.03.2026', 'Opening on 12 March 2026', true],
    ['12.03.2026', 'Opening on 13 March 2026', false],
    ['12.03.26', 'Opening 12/03/2026', true],
    ['March 31, 2026', 'Sale ends 31 March 2026', true],
    ['March 31, 2026', 'Sale ends 30 March', false],
    ['2026-05-01', 'Concert on 1 May 2026', true],
  ])('%s in %j: %s', (read, alt, states) => {
    expect(altStates(fact(read), alt)).toBe(states);
  });
});
