import { describe, expect, it } from 'vitest';
import type { PixelStats } from '../../src/engines/image-stats.ts';
import {
  type ComposeInput,
  composeAltText,
  quotableInPhoto,
  readsAsWords,
} from '../../src/engines/offline/compose.ts';
import { isKnownWord } from '../../src/engines/offline/known-words.ts';
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

const portrait = { objects: [person(0.76, 0.6)], faces: [face('happy')] };
const greyPortrait = { ...portrait, stats: { ...photoStats, greyscale: true, colours: ['grey'] } };
const crowd = {
  objects: [person(0.8, 0.2), { ...person(0.75, 0.2), box: [0.6, 0.1, 0.3, 0.8] as DetectedObject['box'] }],
  faces: [],
};
const nothingSeen = { objects: [], faces: [] };
const church = {
  objects: [0.56, 0.53, 0.49].map((score) => ({
    label: 'clock',
    score,
    area: 0.02,
    box: [0.4, 0.2, 0.1, 0.1],
  })),
  faces: [],
} as Pick<ComposeInput, 'objects' | 'faces'>;

describe('composer v2: page context and detections → sentence', () => {
  it.each<[string, Partial<ComposeInput>, string]>([
    [
      'a caption is used even when the detector sees something else',
      {
        objects: [{ label: 'dog', score: 0.45, area: 0.8, box: [0, 0, 1, 1] }],
        context: { caption: 'Chelsea the cat asleep on a rug' },
      },
      'Chelsea the cat asleep on a rug.',
    ],
    [
      'credits, bracketed dates and file names leave the caption',
      {
        ...nothingSeen,
        context: { caption: 'Battersea Railway Bridge (1863) IMG_2041.jpg. Photo: J. Smith' },
      },
      'Battersea Railway Bridge.',
    ],
    [
      'an archive number goes, a bracket that says something stays',
      {
        ...nothingSeen,
        context: { caption: 'Three Swift Boats in Cam Ranh Bay (va025931), the (left) boat leading' },
      },
      'Three Swift Boats in Cam Ranh Bay, the (left) boat leading.',
    ],
    [
      '© and (Credit …) go too',
      { ...nothingSeen, context: { caption: 'The old mill at dawn (Credit: Jane Roe) © 2019 Jane Roe' } },
      'The old mill at dawn.',
    ],
    [
      'a label in front of a caption is not a credit',
      { ...nothingSeen, context: { caption: 'Image: The cathedral at night, seen from the river' } },
      'The cathedral at night, seen from the river.',
    ],
    [
      'a credit after the caption goes, its initials included',
      { ...nothingSeen, context: { caption: 'Yachts on the bay. Photo by J. R. Smith' } },
      'Yachts on the bay.',
    ],
    [
      'a caption that is only a credit is no caption',
      { ...portrait, context: { caption: 'Photo by Dana Goldberg', pageTitle: 'Efrat Mishori' } },
      'Portrait of a smiling person.',
    ],
    [
      'a name enters from the caption, with its other content kept',
      { ...portrait, context: { caption: 'Peter Taylor in 1975, in a Crystal Palace shirt' } },
      'Portrait of Peter Taylor in 1975, in a Crystal Palace shirt.',
    ],
    [
      'a caption that tells the story of the person stays a sentence',
      { ...portrait, context: { caption: 'Peter Taylor was the first Palace player to score for England' } },
      'Peter Taylor was the first Palace player to score for England.',
    ],
    [
      'never a name from the page title alone',
      { ...portrait, context: { pageTitle: 'Peter Taylor', heading: 'Peter Taylor' } },
      'Portrait of a smiling person.',
    ],
    [
      'a title that is a name completes the surname the caption names',
      { ...greyPortrait, context: { pageTitle: 'John William Heisman', caption: 'Heisman at Auburn' } },
      'Black-and-white portrait of John William Heisman at Auburn.',
    ],
    [
      'but not when the caption does not name them',
      { ...greyPortrait, context: { pageTitle: 'Efrat Mishori', caption: 'On a motorbike in Tel Aviv' } },
      'Black-and-white photograph: On a motorbike in Tel Aviv. A person in view.',
    ],
    [
      'a caption naming the surname gets the full name the title starts with',
      {
        ...portrait,
        context: {
          pageTitle: 'Bipasha Basu filmography',
          caption: 'Basu at the audio release of Creature 3D',
        },
      },
      'Portrait of Bipasha Basu at the audio release of Creature 3D.',
    ],
    [
      'but not another word that merely starts like it',
      { ...nothingSeen, context: { pageTitle: 'Peter Wood', caption: 'Woodland near the village' } },
      'Woodland near the village.',
    ],
    [
      'the page title is never pasted in front of the caption (ADR 067)',
      { ...nothingSeen, context: { pageTitle: 'Whippet', caption: 'Full extension' } },
      'Full extension.',
    ],
    [
      'not when the caption already names it',
      {
        ...nothingSeen,
        context: {
          pageTitle: 'Hurricane Humberto (2007)',
          caption: 'Hurricane Humberto shortly after peak intensity',
        },
      },
      'Hurricane Humberto shortly after peak intensity.',
    ],
    [
      'not a "List of …" title',
      { ...portrait, context: { pageTitle: 'List of Crystal Palace F.C. players', caption: 'Peter Taylor' } },
      'Portrait of Peter Taylor.',
    ],
    [
      'a site name after the title is not part of it',
      {
        ...nothingSeen,
        context: { pageTitle: 'Carry Nation Home – Wikipedia', caption: 'The front porch in spring' },
      },
      'The front porch in spring.',
    ],
    [
      'the kind prefix only when the caption keeps all its words',
      { ...greyPortrait, objects: [], faces: [], context: { caption: 'New Zealand encampment at Anzac' } },
      'Black-and-white photograph: New Zealand encampment at Anzac.',
    ],
    [
      'people the detector is sure of join a caption that does not mention them',
      { ...crowd, context: { caption: 'Opening day of the new market hall' } },
      'Opening day of the new market hall. Two people in view.',
    ],
    [
      'but not when the caption already speaks of them',
      { ...crowd, context: { caption: 'Two players shake hands after the final' } },
      'Two players shake hands after the final.',
    ],
    [
      'confusable labels below the high bar are never named: no "three clocks" for round windows',
      { ...church, context: {} },
      '',
    ],
    [
      'legible text in the image is used even with a caption',
      {
        ...nothingSeen,
        ocr: read(['HOMES NOT CAPITALISM']),
        context: { caption: 'A protestor during a march for housing' },
      },
      'A protestor during a march for housing. Text: “HOMES NOT CAPITALISM”.',
    ],
    [
      'a stray number read by OCR is not text',
      {
        ...nothingSeen,
        ocr: { text: '3 8', confidence: 90, words: 2, numbers: 2 },
        context: { caption: 'Two men at microphones' },
      },
      'Two men at microphones.',
    ],
    [
      'several people and a name from the existing alt: counted right, never "an other"',
      { ...crowd, context: { existingAlt: 'Maya Moore with a team-mate' } },
      'Maya Moore with a team-mate.',
    ],
  ])('%s', (_, input, expected) => {
    expect(compose(input).altText).toBe(expected);
  });

  it('counts people in words, never "an other person"', () => {
    const three = {
      objects: [0.8, 0.75, 0.7].map((score, i) => ({
        ...person(score, 0.2),
        box: [0.3 * i, 0.1, 0.3, 0.8] as DetectedObject['box'],
      })),
      faces: [],
    };
    expect(compose(three).altText).toBe('Three people.');
    expect(compose(crowd).altText).toBe('Two people.');
    // With a person-name title only: the title does not name them, nor does it lead.
    expect(compose({ ...three, context: { pageTitle: 'Peter Taylor' } }).altText).toBe('Three people.');
  });

  it('a long caption is left for the quality rules to shorten; optional parts never push it over', () => {
    const caption =
      'The interchange of Anthony Henday Drive and Yellowhead Trail east of Edmonton is a hybrid design with braided ramps and high flyovers';
    const result = compose({ ...crowd, stats: { ...photoStats, greyscale: true }, context: { caption } });
    expect(result.altText).toBe(`${caption}.`);
  });
});

describe('confidence and reasons', () => {
  it('lists the caption and each detection with its score, never the title', () => {
    const result = compose({ ...portrait, context: { pageTitle: 'Whippet', caption: 'Full extension' } });
    expect(result.reasons).toEqual([
      { source: 'caption', detail: 'Full extension' },
      { source: 'detection', detail: 'person', score: 0.76 },
      { source: 'face', detail: 'face', score: 0.9 },
      { source: 'pixels', detail: 'photo, grey and brown tones' },
    ]);
  });

  it('is high for a caption, higher when the detector agrees with it, low for colours alone', () => {
    const caption = compose({ ...nothingSeen, context: { caption: 'Battersea Railway Bridge' } }).confidence;
    const agreed = compose({ ...portrait, context: { caption: 'A woman at the microphone' } }).confidence;
    const story = compose({
      ...nothingSeen,
      context: { caption: 'Whale directed the iconic horror film Bride of Frankenstein in 1935' },
    }).confidence;
    const colours = compose(nothingSeen).confidence;
    const face = compose(portrait).confidence;
    expect(agreed).toBeGreaterThan(caption);
    expect(caption).toBeGreaterThan(story);
    expect(story).toBeGreaterThanOrEqual(0.5);
    expect(face).toBeGreaterThanOrEqual(0.5);
    expect(colours).toBeLessThan(0.5);
  });
});

describe('what the pixels alone support', () => {
  it('names a confident detection and only the family of an unsure one', () => {
    expect(
      compose({ objects: [{ label: 'cat', score: 0.8, area: 0.4, box: [0, 0, 1, 1] }] }).altText,
    ).toMatch(/^A cat/);
    expect(
      compose({ objects: [{ label: 'dog', score: 0.62, area: 0.4, box: [0, 0, 1, 1] }] }).altText,
    ).toMatch(/^An animal/);
    // Below the calibrated family score (calibration.ts) an animal is not grounds at all.
    expect(compose({ objects: [{ label: 'dog', score: 0.45, area: 0.4, box: [0, 0, 1, 1] }] }).altText).toBe(
      '',
    );
  });

  it('does not name an unsure object that fills the whole frame', () => {
    const result = compose({ objects: [{ label: 'umbrella', score: 0.57, area: 0.95, box: [0, 0, 1, 1] }] });
    expect(result.altText).not.toMatch(/umbrella/);
  });

  it('calls one thing filling the frame a close-up', () => {
    const result = compose({ objects: [{ label: 'cat', score: 0.8, area: 0.9, box: [0, 0, 1, 1] }] });
    expect(result.altText).toBe('Close-up of a cat.');
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
    // Colours are not a subject: nothing is written, and the engine's last stage asks for words.
    expect(result.altText).toBe('');
  });
});

describe('text, charts, logos and decorative images', () => {
  const flat: PixelStats = {
    ...photoStats,
    flatShare: 0.95,
    topColourShare: 0.9,
    colours: ['blue', 'white'],
  };

  it('gives a text graphic its text as written, with no kind word or colours', () => {
    const result = compose({
      stats: flat,
      ocr: { text: 'Summer Sale\n50% off all shoes', confidence: 95, words: 6, numbers: 1 },
      width: 800,
      height: 300,
    });
    expect(result.kind).toBe('text');
    expect(result.altText).toBe('Summer Sale, 50% off all shoes');
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
    expect(result.altText).toBe('Chart titled “Monthly visitors 2024”');
  });

  it('leaves out a chart title whose words run together, a misread of small print (hostile: "fApparFerCapitato")', () => {
    const result = compose({
      stats: { ...flat, colours: ['white', 'blue', 'orange'] },
      ocr: {
        text: 'fApparFerCapitato the Cha BangadeshdaPaistanand Lana\n$80.00\n$60.00\n$40.00\n1989 1999 2009',
        confidence: 90,
        words: 12,
        numbers: 6,
      },
    });
    expect(result.kind).toBe('chart');
    expect(result.altText).toBe('');
  });

  it('gives a small graphic with a word (a logo) that word, never "logo"', () => {
    const result = compose({
      stats: flat,
      ocr: { text: 'Acme', confidence: 96, words: 1, numbers: 0 },
      width: 240,
      height: 90,
      transparentShare: 0.6,
    });
    expect(result.kind).toBe('logo');
    expect(result.altText).toBe('Acme');
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
    ).toBe('');
    expect(
      compose({ stats: drawing, objects: [{ label: 'horse', score: 0.56, area: 0.5, box: [0, 0, 1, 1] }] })
        .altText,
    ).toBe('');
    expect(
      compose({ stats: drawing, objects: [{ label: 'horse', score: 0.75, area: 0.5, box: [0, 0, 1, 1] }] })
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

/** An OCR reading of a photograph's lines: every word at `confidence`, looked up in the known-word list. */
function read(lines: string[], confidence = 95): ComposeInput['ocr'] {
  const regions = lines.map((line) =>
    line.split(' ').map((text) => ({ text, confidence, known: knownWord(text) })),
  );
  const words = regions.flat();
  return {
    text: lines.join('\n'),
    confidence,
    words: words.length,
    numbers: words.filter((w) => /^\d/.test(w.text)).length,
    coverage: 0.1,
    lines: lines.map((text, i) => ({ text, regions: regions[i] ?? [] })),
  };
}

/** As the OCR thread marks a word: every run of letters in the list. */
function knownWord(text: string): boolean {
  const runs = text.match(/\p{L}+/gu) ?? [];
  return runs.length > 0 && runs.every(isKnownWord);
}

describe("quotableInPhoto: a photograph's text is quoted only when every word is sure and real", () => {
  it.each([
    ['garbled capitals in a mixed case pattern', ['HoNES', 'NOT'], ''],
    ['word-shaped misreads that are no words', ['JOHN WEST', 'OSPRLYS', 'jower'], ''],
    [
      'a plaque read half right: picked lines would make a new sentence',
      ['130h', 'Percy Abbott', 'Mageal', 'yenrs', 'Celebratiom'],
      '',
    ],
    ['letters run together', ['TOPWINEPROOUCNGCOUNTRES', '2. ITALY', '3UNTEDSTATES'], ''],
    ['one word alone', ['KEEL'], ''],
    [
      'a road sign read right',
      ['15 NORTH', 'New Haven', 'NO COMMERCIAL', 'VEHICLES'],
      '15 NORTH. New Haven. NO COMMERCIAL. VEHICLES',
    ],
    [
      'a road sign with one line misread: that line is left out',
      ['15SOUTH', '15 NORTH', 'New Haven', 'NO COMMERCIAL', 'VEHICLES'],
      '15 NORTH. New Haven. NO COMMERCIAL. VEHICLES',
    ],
    ['a German sign', ['In diesem Haus wohnte'], 'In diesem Haus wohnte'],
    ['a banner with a year and a hyphenated word', ['Open-air concert 2024'], 'Open-air concert 2024'],
  ])('%s', (_, lines, expected) => {
    expect(quotableInPhoto(read(lines))).toBe(expected);
  });

  it('a real word read unsurely (88 %) is not quoted: "Texis" may be "Texas" or not', () => {
    expect(quotableInPhoto(read(['Woman Suffrage Association'], 88))).toBe('');
    expect(quotableInPhoto(read(['Woman Suffrage Association'], 96))).toBe('Woman Suffrage Association');
  });

  it('without words and their confidence, only text read at 90 or more that reads as words', () => {
    const plain = (text: string, confidence: number) => ({ text, confidence, words: 3, numbers: 0 });
    expect(quotableInPhoto(plain('HOMES NOT CAPITALISM', 88))).toBe('');
    expect(quotableInPhoto(plain('HOMES NOT CAPITALISM', 94))).toBe('HOMES NOT CAPITALISM');
    expect(quotableInPhoto(plain('HoNES NOT', 99))).toBe('');
  });

  it('the alt of a photograph leaves misread text out and quotes text read right', () => {
    expect(compose({ ...nothingSeen, ocr: read(['HoNES', 'NOT']) }).altText).toBe('');
    expect(compose({ ...nothingSeen, ocr: read(['HoNES', 'NOT']) }).textInImage).toBeUndefined();
    expect(compose({ ...nothingSeen, ocr: read(['NO COMMERCIAL VEHICLES']) }).altText).toBe(
      'Photograph of text reading “NO COMMERCIAL VEHICLES”',
    );
    expect(
      compose({
        ...nothingSeen,
        ocr: read(['JOHN WEST', 'OSPRLYS', 'jower']),
        context: { caption: 'Shane Williams playing for the Ospreys' },
      }).altText,
    ).toBe('Shane Williams playing for the Ospreys.');
  });

  it('a graphic keeps its text as read only when it is words (ADR 067)', () => {
    const flat = { ...photoStats, flatShare: 0.9, colours: ['white', 'blue'] };
    const graphic = (line: string) =>
      compose({ ...nothingSeen, stats: flat, width: 300, height: 80, ocr: read([line], 80) });
    expect(graphic('SUMMER SALE').textInImage).toBe('SUMMER SALE');
    const misread = graphic('SUMMR SALE');
    expect(misread.textInImage).toBeUndefined();
    expect(misread.altText).toBe('');
    expect(misread.reasons).toContainEqual({
      source: 'pixels',
      detail: 'text read but not words: “SUMMR SALE”',
      score: 0.8,
    });
  });

  it('a graphic’s misread text stays out even when the page names the brand', () => {
    const flat = { ...photoStats, flatShare: 0.9, colours: ['white', 'blue'] };
    const result = compose({
      ...nothingSeen,
      stats: flat,
      width: 300,
      height: 80,
      ocr: read(['CITYLIGHTS your aceesto the'], 90),
      context: { pageTitle: 'City Lights' },
    });
    expect(result.textInImage).toBeUndefined();
  });
});

describe('readsAsWords: text quoted from a photograph', () => {
  it.each([
    ['UN CHAPEAU DE PAILLE DITALIE', true],
    ['15SOUTH. 15 NORTH. New Haven. NO COMMERCIAL. VEHICLES', true],
    ['Tthnny entz', false],
    ['HoNES. NOT', false],
    ['KELERKR', false],
    ['JOHN WEST. OSPRLYS jower', false],
    ['ASC.', false],
  ])('%s → %s', (text, expected) => {
    expect(readsAsWords(text)).toBe(expected);
  });
});
