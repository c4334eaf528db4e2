import { describe, expect, it } from 'vitest';
import type { PixelStats } from '../../src/engines/image-stats.ts';
import { type ComposeInput, composeAltText } from '../../src/engines/offline/compose.ts';
import type { DetectedFace, DetectedObject } from '../../src/engines/types.ts';

const photoStats: PixelStats = {
  greyscale: false,
  brightness: 'medium',
  meanLuma: 115,
  lumaStd: 50,
  colours: ['grey', 'brown'],
  distinctColoursPerK: 45,
  topColourShare: 0.08,
  flatShare: 0.12,
  edgeShare: 0.1,
  uniform: false,
  meanSaturation: 0.3,
};

const person = (score = 0.62, area = 0.7): DetectedObject => ({
  label: 'person',
  score,
  area,
  box: [0.1, 0.05, 0.8, 0.9],
});
const face = (expression?: string, score = 0.9): DetectedFace => ({
  score,
  area: 0.08,
  box: [0.35, 0.15, 0.28, 0.28],
  ...(expression ? { expression } : {}),
});

function compose(overrides: Partial<ComposeInput>) {
  return composeAltText({
    stats: photoStats,
    objects: [],
    faces: [],
    ocr: { text: '', confidence: 0, words: 0, numbers: 0 },
    width: 640,
    height: 640,
    transparentShare: 0,
    context: {},
    minDetectionScore: 0.4,
    ...overrides,
  });
}

describe('page context names the person the pixels show', () => {
  it('Peter Taylor: a portrait in his article comes out as a photo of Peter Taylor, not "a smiling person"', () => {
    const result = compose({
      objects: [person()],
      faces: [face('happy')],
      context: {
        pageTitle: 'Peter Taylor',
        caption:
          'Peter Taylor was the first Palace player to be capped by England while playing in the Third Division.',
      },
    });
    expect(result.altText).toMatch(/^Portrait of Peter Taylor\b/);
    expect(result.altText).not.toMatch(/smiling person/);
    // The biography in the caption is not what the picture shows.
    expect(result.altText).not.toMatch(/capped|Third Division/);
    expect(result.contextUsed).toEqual(expect.arrayContaining(['caption', 'pageTitle']));
  });

  it('does not put a name on an image where no person is seen', () => {
    const result = compose({
      objects: [{ label: 'cup', score: 0.7, area: 0.3, box: [0.2, 0.2, 0.5, 0.5] }],
      context: { pageTitle: 'Peter Taylor', caption: 'Peter Taylor was the first Palace player…' },
    });
    expect(result.altText).not.toContain('Peter Taylor');
    expect(result.altText).toMatch(/cup/);
  });

  it('does not take a title alone as the name of whoever is pictured', () => {
    const result = compose({ objects: [person()], faces: [face()], context: { pageTitle: 'Peter Taylor' } });
    expect(result.altText).not.toContain('Peter Taylor');
  });

  it('accepts a title that is a name when the surrounding text agrees', () => {
    const result = compose({
      objects: [person()],
      faces: [face()],
      context: { heading: 'Peter Taylor', surroundingText: 'Peter Taylor joined Palace in 1973.' },
    });
    expect(result.altText).toContain('Peter Taylor');
  });

  it('does not mistake a club for a person', () => {
    const result = compose({
      objects: [person()],
      faces: [face()],
      context: { caption: 'Crystal Palace won the match 2–0.' },
    });
    expect(result.altText).not.toContain('Crystal Palace');
  });

  it('names one person among several without claiming which one', () => {
    const result = compose({
      objects: [person(0.7, 0.3), { ...person(0.6, 0.2), box: [0.6, 0.1, 0.3, 0.8] }],
      context: { caption: 'Peter Taylor with team-mates after training.' },
    });
    expect(result.altText).toMatch(/Peter Taylor and (one|an?) other person/);
  });
});

describe('captions and existing alt text', () => {
  it('uses a caption that mentions what the detector sees', () => {
    const result = compose({
      objects: [{ label: 'dog', score: 0.45, area: 0.8, box: [0, 0, 1, 1] }],
      context: { caption: 'Chelsea the cat asleep on a rug. She is twelve.' },
    });
    expect(result.altText).toBe('Chelsea the cat asleep on a rug.');
  });

  it('ignores a caption that talks about something else than what is seen', () => {
    const result = compose({
      objects: [{ label: 'motorcycle', score: 0.8, area: 0.5, box: [0.1, 0.1, 0.8, 0.7] }],
      context: { caption: 'Our new office opened in March.' },
    });
    expect(result.altText).not.toContain('office');
    expect(result.altText).toMatch(/motorcycle/i);
  });

  it('uses a caption when the pixels show nothing the detector knows', () => {
    const result = compose({
      context: { caption: 'A Falcon 9 rocket lifts off from Cape Canaveral at night' },
    });
    expect(result.altText).toBe('A Falcon 9 rocket lifts off from Cape Canaveral at night.');
  });

  it('puts the kind in front of a caption sentence, not into it', () => {
    const result = compose({
      stats: { ...photoStats, greyscale: true, colours: ['grey'] },
      objects: [person(0.6, 0.4)],
      context: { caption: 'A cameraman sets up his tripod on the lawn.' },
    });
    expect(result.altText).toBe('Black-and-white photograph: A cameraman sets up his tripod on the lawn.');
  });

  it('ignores an existing alt that is only a file name', () => {
    const result = compose({ context: { existingAlt: 'IMG_2041.jpg', fileName: 'IMG_2041.jpg' } });
    expect(result.altText).not.toContain('IMG');
  });
});

describe('what the pixels alone support', () => {
  it('names a confident detection and only the family of an unsure one', () => {
    expect(
      compose({ objects: [{ label: 'cat', score: 0.8, area: 0.4, box: [0, 0, 1, 1] }] }).altText,
    ).toMatch(/^A cat/);
    expect(
      compose({ objects: [{ label: 'dog', score: 0.45, area: 0.4, box: [0, 0, 1, 1] }] }).altText,
    ).toMatch(/^An animal/);
  });

  it('does not name an unsure object that fills the whole frame', () => {
    const result = compose({ objects: [{ label: 'umbrella', score: 0.57, area: 0.95, box: [0, 0, 1, 1] }] });
    expect(result.altText).not.toMatch(/umbrella/);
  });

  it('calls one thing filling the frame a close-up', () => {
    const result = compose({ objects: [{ label: 'cat', score: 0.8, area: 0.9, box: [0, 0, 1, 1] }] });
    expect(result.altText).toBe('Close-up of a cat, in grey and brown tones.');
  });

  it('does not count a "face" found on an animal as a person', () => {
    const result = compose({
      objects: [{ label: 'dog', score: 0.47, area: 0.9, box: [0, 0, 1, 1] }],
      faces: [face(undefined, 0.83)],
    });
    expect(result.altText).not.toMatch(/person|people|portrait/i);
  });

  it('never states age or gender', () => {
    const result = compose({ objects: [person()], faces: [face('happy')] });
    expect(result.altText).toBe('Portrait of a smiling person.');
    expect(result.altText).not.toMatch(/\b(man|woman|boy|girl|male|female|old|young|aged)\b/i);
  });

  it('names the colour a single person is wearing, but not in black-and-white', () => {
    expect(compose({ objects: [person()], faces: [face('happy')], clothingColour: 'orange' }).altText).toBe(
      'Portrait of a smiling person wearing orange.',
    );
    const grey = { ...photoStats, greyscale: true, colours: ['grey'] };
    expect(
      compose({ stats: grey, objects: [person()], faces: [face()], clothingColour: 'grey' }).altText,
    ).not.toMatch(/wearing/);
  });

  it('says black-and-white when the photograph is', () => {
    const result = compose({
      stats: { ...photoStats, greyscale: true, colours: ['grey'] },
      objects: [person(0.6, 0.4)],
    });
    expect(result.altText).toBe('Black-and-white photograph of a person.');
  });

  it('describes a scene honestly when nothing is recognised', () => {
    const result = compose({ stats: { ...photoStats, brightness: 'dark', colours: ['navy', 'black'] } });
    expect(result.altText).toBe('Dark photograph in navy and black tones.');
  });
});

describe('text, charts, logos and decorative images', () => {
  const flat: PixelStats = {
    ...photoStats,
    flatShare: 0.95,
    topColourShare: 0.9,
    colours: ['blue', 'white'],
  };

  it('quotes the text of a text graphic', () => {
    const result = compose({
      stats: flat,
      ocr: { text: 'Summer Sale\n50% off all shoes', confidence: 95, words: 6, numbers: 1 },
      width: 800,
      height: 300,
    });
    expect(result.kind).toBe('text');
    expect(result.altText).toBe('Text on a blue background: “Summer Sale. 50% off all shoes”');
    expect(result.textInImage).toBe('Summer Sale. 50% off all shoes');
  });

  it('titles a chart from its first line of text', () => {
    const result = compose({
      stats: { ...flat, colours: ['white', 'blue', 'orange'] },
      ocr: {
        text: 'Monthly visitors 2024\n1500\n1000\n500\n0\nJan Feb Mar',
        confidence: 90,
        words: 10,
        numbers: 4,
      },
    });
    expect(result.kind).toBe('chart');
    expect(result.altText).toBe('Chart titled “Monthly visitors 2024” in blue and orange.');
  });

  it('calls a small graphic with a word a logo', () => {
    const result = compose({
      stats: flat,
      ocr: { text: 'Acme', confidence: 96, words: 1, numbers: 0 },
      width: 240,
      height: 90,
      transparentShare: 0.6,
    });
    expect(result.altText).toBe('“Acme” logo.');
  });

  it('does not hide a low-contrast picture as decorative', () => {
    const dim = { ...flat, edgeShare: 0, lumaStd: 25, greyscale: true, colours: ['grey'] };
    expect(compose({ stats: dim }).decorative).toBe(false);
  });

  it('needs a stronger detection on drawings than on photographs', () => {
    const drawing = { ...flat, greyscale: true, colours: ['white', 'black'], flatShare: 0.98 };
    expect(
      compose({ stats: drawing, objects: [{ label: 'kite', score: 0.4, area: 0.3, box: [0, 0, 0.5, 0.5] }] })
        .altText,
    ).toBe('Black-and-white graphic with no clearly recognisable subject.');
    expect(
      compose({ stats: drawing, objects: [{ label: 'horse', score: 0.56, area: 0.5, box: [0, 0, 1, 1] }] })
        .altText,
    ).toBe('Black-and-white illustration of a horse.');
  });

  it('calls a page of text "text" unless it is shaped like a screen', () => {
    const words =
      'Men may seem detestable as joint stock companies and nations knaves fools and murderers there may be';
    const ocr = { text: words, confidence: 90, words: 18, numbers: 0 };
    expect(compose({ stats: flat, ocr, width: 448, height: 333 }).kind).toBe('text');
    expect(compose({ stats: flat, ocr, width: 1280, height: 800 }).kind).toBe('screenshot');
  });

  it('marks spacers, tiny images and plain backgrounds decorative', () => {
    expect(compose({ width: 1, height: 1 }).decorative).toBe(true);
    expect(compose({ width: 16, height: 16 }).decorative).toBe(true);
    expect(compose({ stats: { ...flat, uniform: true } }).decorative).toBe(true);
    expect(compose({ stats: { ...flat, uniform: true } }).altText).toBe('');
  });
});
