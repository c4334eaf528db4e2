import { describe, expect, it } from 'vitest';
import { describeStep, parseEditInstructions } from './edit-instructions.ts';
import { escapeXml, fitText, wrapText } from './svg-text.ts';
import { EditPromptError } from './types.ts';

const words = (prompt: string) => parseEditInstructions(prompt).map(describeStep);

describe('parseEditInstructions', () => {
  it.each([
    ['Make it black and white', ['black and white']],
    ['greyscale please', ['black and white']],
    ['B&W', ['black and white']],
    ['sepia', ['sepia']],
    ['give it a vintage look', ['sepia']],
    ['blur it slightly', ['blurred']],
    ['slightly blur', ['slightly blurred']],
    ['sharpen', ['sharpened']],
    ['make it brighter', ['brighter']],
    ['a bit darker', ['slightly darker']],
    ['much more contrast', ['much more contrast']],
    ['less contrast', ['less contrast']],
    ['more saturation', ['more saturated']],
    ['desaturate', ['less saturated']],
    ['make it warmer', ['warmer']],
    ['cooler tones', ['cooler']],
    ['invert the colours', ['inverted colours']],
  ])('reads %j', (prompt, expected) => {
    expect(words(prompt)).toEqual(expected);
  });

  it('reads rotations by angle and direction', () => {
    expect(words('rotate 90 degrees')).toEqual(['rotated 90° clockwise']);
    expect(words('rotate left')).toEqual(['rotated 90° anticlockwise']);
    expect(words('turn it right')).toEqual(['rotated 90° clockwise']);
    expect(words('rotate 180')).toEqual(['rotated 180°']);
    expect(words('rotate 270°')).toEqual(['rotated 90° anticlockwise']);
    expect(words('turn it upside down')).toEqual(['rotated 180°']);
    expect(words('rotate')).toEqual(['rotated 90° clockwise']);
  });

  it('refuses angles that are not quarter turns, saying which it can do', () => {
    expect(() => parseEditInstructions('rotate 45 degrees')).toThrow(/90, 180 or 270/);
  });

  it('reads flips and mirrors', () => {
    expect(words('mirror it')).toEqual(['mirrored (left to right)']);
    expect(words('flip horizontally')).toEqual(['mirrored (left to right)']);
    expect(words('flip vertically')).toEqual(['flipped upside down']);
    expect(words('flip it upside down')).toEqual(['flipped upside down']);
  });

  it('reads crops to a square or a ratio', () => {
    expect(words('crop to square')).toEqual(['cropped to a square']);
    expect(words('make it square')).toEqual(['cropped to a square']);
    expect(words('crop to 16:9')).toEqual(['cropped to 16:9']);
    expect(words('crop it to 4:5')).toEqual(['cropped to 4:5']);
    expect(words('aspect ratio 3:2')).toEqual(['cropped to 3:2']);
    expect(parseEditInstructions('crop to 16:9')).toEqual([{ kind: 'crop', ratio: [16, 9] }]);
  });

  it('reads resizes to a width, a height, a box or a percentage', () => {
    expect(words('resize to 800 px wide')).toEqual(['resized to 800 px wide']);
    expect(words('resize to 600 pixels tall')).toEqual(['resized to 600 px tall']);
    expect(words('resize to 50%')).toEqual(['resized to 50%']);
    expect(words('scale it to 1024x768')).toEqual(['resized to fit 1024×768 px']);
    expect(words('half the size')).toEqual(['resized to 50%']);
  });

  it('reads captions with their words kept as written, at the top or bottom', () => {
    expect(parseEditInstructions('add a caption "Black Friday: 50% off!" at the top')).toEqual([
      { kind: 'caption', text: 'Black Friday: 50% off!', position: 'top' },
    ]);
    expect(parseEditInstructions('add the text “Hello <world>”')).toEqual([
      { kind: 'caption', text: 'Hello <world>', position: 'bottom' },
    ]);
    expect(parseEditInstructions('put "Sale" on the bottom')).toEqual([
      { kind: 'caption', text: 'Sale', position: 'bottom' },
    ]);
  });

  it('reads borders with an optional colour and thickness, without reading the colour as a filter', () => {
    expect(words('add a border')).toEqual(['white border']);
    expect(words('add a thick black border')).toEqual(['thick black border']);
    expect(words('add a grey frame')).toEqual(['grey border']);
    expect(words('add a border in #ff0000')).toEqual(['#ff0000 border']);
  });

  it('carries out several instructions in the order written', () => {
    expect(
      words(
        'Rotate left, then crop to square, black and white, add a caption "Hi" at the bottom and a thin navy border',
      ),
    ).toEqual([
      'rotated 90° anticlockwise',
      'cropped to a square',
      'black and white',
      'caption at the bottom: “Hi”',
      'thin navy border',
    ]);
  });

  it('does not read a caption’s words as instructions', () => {
    expect(words('add a caption "Rotate your black and white photos" at the top')).toEqual([
      'caption at the top: “Rotate your black and white photos”',
    ]);
  });

  it('refuses a prompt with nothing it can do, listing what it can', () => {
    for (const prompt of [
      'Turn this into a Van Gogh painting',
      'remove the person on the left',
      'make it nice',
    ]) {
      expect(() => parseEditInstructions(prompt), prompt).toThrow(EditPromptError);
    }
    expect(() => parseEditInstructions('add a dragon')).toThrow(
      /black and white \(greyscale\), sepia.*crop to square.*add a caption "your text" at the top or bottom/,
    );
  });
});

describe('svg text', () => {
  it('escapes markup and drops control characters', () => {
    expect(escapeXml('<b>"Tom" & \'Jerry\'</b>\u0007')).toBe(
      '&lt;b&gt;&quot;Tom&quot; &amp; &apos;Jerry&apos;&lt;/b&gt;',
    );
  });

  it('wraps at spaces and cuts words longer than a line', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('a\nb', 10)).toEqual(['a', 'b']);
  });

  it('shrinks the font until the text fits, and ends with an ellipsis when it never does', () => {
    const short = fitText('Hello', { width: 500, maxSize: 60, minSize: 20, maxLines: 2 });
    expect(short).toEqual({ fontSize: 60, lines: ['Hello'] });
    const long = fitText('word '.repeat(200), { width: 300, maxSize: 40, minSize: 20, maxLines: 3 });
    expect(long.fontSize).toBe(20);
    expect(long.lines).toHaveLength(3);
    expect(long.lines[2]).toMatch(/…$/);
  });
});
