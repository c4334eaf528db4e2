import { describe, expect, it } from 'vitest';
import { nameOfAxNode, readBrowserName } from './page-marks.ts';

const source = (attribute: string, value: string | null, superseded = false) => ({
  type: attribute === 'aria-labelledby' ? 'relatedElement' : 'attribute',
  attribute,
  ...(value === null ? {} : { value: { type: 'string', value } }),
  ...(superseded ? { superseded: true } : {}),
});

describe('nameOfAxNode: Chromium accessibility nodes to name and nameSource', () => {
  it.each([
    [
      'aria-labelledby wins over the alt',
      {
        role: { value: 'image' },
        name: { value: 'Map', sources: [source('aria-labelledby', 'Map'), source('alt', 'Old', true)] },
      },
      { name: 'Map', source: 'aria-labelledby' },
    ],
    [
      'the alt',
      {
        role: { value: 'image' },
        name: { value: ' A  cat ', sources: [source('aria-labelledby', null), source('alt', 'A cat')] },
      },
      { name: 'A cat', source: 'alt' },
    ],
    [
      "an svg's <title>",
      {
        role: { value: 'image' },
        name: {
          value: 'Wave',
          sources: [{ type: 'relatedElement', nativeSource: 'title', value: { value: 'Wave' } }],
        },
      },
      { name: 'Wave', source: 'svg-title' },
    ],
    [
      'an image button\'s default "Submit" is no name',
      { role: { value: 'button' }, name: { value: 'Submit', sources: [source('type', 'Submit')] } },
      { name: null, source: 'none' },
    ],
    [
      'an image without a name',
      { role: { value: 'image' }, name: { value: '', sources: [] } },
      { name: null, source: 'none' },
    ],
  ])('%s', (_, node, expected) => {
    expect(nameOfAxNode(node)).toEqual(expected);
  });

  it.each([
    ['an ignored node (alt="")', { ignored: true }],
    [
      'a generic element (a CSS background on a div with a title)',
      { role: { value: 'generic' }, name: { value: '' } },
    ],
    [
      'a name from contents, which the audit has no source word for',
      {
        role: { value: 'image' },
        name: { value: 'Text', sources: [{ type: 'contents', value: { value: 'Text' } }] },
      },
    ],
    ['no node at all', undefined],
  ])('leaves %s to the server', (_, node) => {
    expect(nameOfAxNode(node)).toBeNull();
  });
});

describe('readBrowserName: the name attribute found in the rendered HTML', () => {
  it('reads a name and its source, squashed and cut', () => {
    expect(readBrowserName('{"name":"  A   map ","source":"aria-label"}', 5)).toEqual({
      name: 'A map',
      source: 'aria-label',
    });
    expect(readBrowserName('{"name":"abcdefgh","source":"alt"}', 5)).toEqual({
      name: 'abcde',
      source: 'alt',
    });
    expect(readBrowserName('{"name":null,"source":"none"}', 5)).toEqual({ name: null, source: 'none' });
  });

  it.each([
    ['not JSON (a page that forged the attribute)', '<b>x</b>'],
    ['an unknown source', '{"name":"x","source":"contents"}'],
    ['a name that is no string', '{"name":42,"source":"alt"}'],
    ['an over-long value', `{"name":"${'x'.repeat(200)}","source":"alt"}`],
    ['no value', undefined],
  ])('ignores %s', (_, value) => {
    expect(readBrowserName(value, 10)).toBeNull();
  });
});
