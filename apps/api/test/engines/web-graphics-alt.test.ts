import { describe, expect, it } from 'vitest';
import type { PixelStats } from '../../src/engines/image-stats.ts';
import { type ComposeInput, composeAltText, linesAsWritten } from '../../src/engines/offline/compose.ts';
import { asWritten, fileNameWords } from '../../src/engines/page-context.ts';
import { decideRole } from '../../src/engines/role.ts';
import type { PageContext } from '../../src/engines/types.ts';

/**
 * The images websites are made of. A table of page contexts and what the OCR read →
 * the alt text the offline engine writes. The OCR result is given directly, so these rules hold
 * whatever OCR reads the pixels.
 */

const graphicStats: PixelStats = {
  greyscale: false,
  brightness: 'dark',
  meanLuma: 60,
  lumaStd: 70,
  colours: ['navy', 'white'],
  distinctColoursPerK: 8,
  topColourShare: 0.8,
  flatShare: 0.95,
  edgeShare: 0.08,
  uniform: false,
  meanSaturation: 0.4,
};

const read = (text: string, confidence = 92) => ({
  text,
  confidence,
  words: text.split(/\s+/).filter(Boolean).length,
  numbers: (text.match(/\b\d[\d.,]*\b/g) ?? []).length,
});
const nothingRead = { text: '', confidence: 0, words: 0, numbers: 0 };

function compose(overrides: Partial<ComposeInput>) {
  return composeAltText({
    stats: graphicStats,
    objects: [],
    faces: [],
    ocr: nothingRead,
    width: 300,
    height: 80,
    transparentShare: 0,
    context: {},
    minDetectionScore: 0.4,
    ...overrides,
  });
}

const page = 'https://www.riverside-news.example/local/';

describe('links and buttons say where they go or what they do', () => {
  it.each<{ what: string; context: PageContext; imageText?: string; altText: string }>([
    {
      what: 'a nav button reading HOME (white on dark, all caps) → "Home"',
      context: { role: 'link', linkTarget: 'https://www.riverside-news.example/', pageUrl: page },
      imageText: 'HOME',
      altText: 'Home',
    },
    {
      what: 'a nav button reading NEWS beats the address words',
      context: { role: 'link', linkTarget: '/archive/2024/index.php?cat=7', pageUrl: page },
      imageText: 'NEWS',
      altText: 'News',
    },
    {
      what: 'a linked logo with the site’s name in it → the name and "home"',
      context: { role: 'link', linkTarget: 'https://www.riverside-news.example/', pageUrl: page },
      imageText: 'RIVERSIDE NEWS',
      altText: 'Riverside news home',
    },
    {
      what: 'a linked logo in capitals, spelled as the page title spells the name',
      context: {
        role: 'link',
        linkTarget: '/',
        pageUrl: page,
        pageTitle: 'Local news | Riverside News',
      },
      imageText: 'RIVERSIDE NEWS',
      altText: 'Riverside News home',
    },
    {
      what: 'a carousel button reading NEXT → "Next"',
      context: { role: 'button' },
      imageText: 'NEXT',
      altText: 'Next',
    },
    {
      what: 'a linked logo nothing can be read from → the site name for the home page',
      context: {
        role: 'link',
        linkTarget: 'https://www.riverside-news.example/',
        pageUrl: page,
        pageTitle: 'Local – Riverside-News',
      },
      altText: 'Riverside-News home',
    },
    {
      what: 'a "more" arrow after a news teaser → names the story, not the target’s file name',
      context: {
        role: 'link',
        linkTarget: 'https://www.riverside-news.example/article.php?id=4711',
        pageUrl: page,
        heading: 'Council approves the new riverside park',
        fileName: 'more-arrow.gif',
      },
      altText: 'More about Council approves the new riverside park',
    },
    {
      what: 'a teaser picture whose address repeats the heading → the story',
      context: {
        role: 'link',
        linkTarget: 'https://www.riverside-news.example/2024/council-approves-riverside-park.html',
        pageUrl: page,
        heading: 'Council approves riverside park',
        fileName: 'DSC_0042.jpg',
      },
      altText: 'Council approves riverside park',
    },
    {
      what: 'a print icon on javascript:print() → "Print this page"',
      context: { role: 'link', linkTarget: 'javascript:print()', pageUrl: page },
      altText: 'Print this page',
    },
    {
      what: 'a javascript: location target → where it goes',
      context: {
        role: 'link',
        linkTarget: "javascript:window.location.href='/opening-times/'",
        pageUrl: page,
      },
      altText: 'Opening times',
    },
    {
      what: 'a button whose onclick moves to an address → where it goes',
      context: {
        role: 'button',
        linkTarget: 'https://www.riverside-news.example/opening-times/',
        pageUrl: page,
      },
      altText: 'Opening times',
    },
    {
      what: 'an image button named searchbutton.png → "Search"',
      context: { role: 'button', fileName: 'searchbutton.png' },
      altText: 'Search',
    },
    {
      what: 'a carousel chevron-left button → "Previous"',
      context: { role: 'button', fileName: 'chevron-left.png' },
      altText: 'Previous',
    },
  ])('$what', ({ context, imageText, altText }) => {
    const decision = decideRole(context, imageText ? { imageText } : {});
    expect(decision).toMatchObject({ kind: 'functional', altText });
  });

  it('an "arrow" read in the image is not a name: the teaser heading is', () => {
    const decision = decideRole(
      {
        role: 'link',
        linkTarget: 'https://www.riverside-news.example/p/88',
        pageUrl: page,
        heading: 'Bridge reopens after repairs',
        fileName: 'read-more.png',
      },
      { imageText: 'more' },
    );
    expect(decision).toMatchObject({ altText: 'More about Bridge reopens after repairs' });
  });

  it('link text that is only a file size ("(254KB)") does not name the link; its file name is not grounds', () => {
    const decision = decideRole({ role: 'link', linkTarget: '/report.doc', linkText: '(254KB)' });
    expect(decision.kind).toBe('describe');
    const icon = compose({
      context: { role: 'link', linkText: '(254KB)', fileName: 'worddocument.png' },
      width: 16,
      height: 16,
    });
    // "Word document" from worddocument.png would echo the file name (ADR 067): a person's words.
    expect(icon).toMatchObject({ decorative: false, altText: '' });
  });

  it('an image in a link with nothing known gets no alt (needs words), never its colours', () => {
    const result = compose({
      context: { role: 'link', linkTarget: 'javascript:void(0)' },
      width: 40,
      height: 40,
    });
    expect(result).toMatchObject({ altText: '', decorative: false });
    expect(result.confidence).toBeLessThan(0.5);
    const button = compose({ context: { role: 'button' }, width: 40, height: 40 });
    expect(button).toMatchObject({ altText: '', decorative: false });
  });
});

describe('an image of text gets its text', () => {
  it.each<{ what: string; text: string; altText: string; width?: number; height?: number }>([
    { what: 'a phone number kept exact', text: 'CALL US\n0123 456 7890', altText: 'Call us, 0123 456 7890' },
    { what: 'a price and its currency', text: 'Only $10,000.00', altText: 'Only $10,000.00' },
    { what: 'a heading in capitals in sentence case', text: 'OPENING TIMES', altText: 'Opening times' },
    { what: 'capitals broken over two lines stay one phrase', text: 'SUMMER\nSALE', altText: 'Summer sale' },
    {
      what: 'words with digits and known abbreviations stay',
      text: 'FREE PDF GUIDE TO HTML5',
      altText: 'Free PDF guide to HTML5',
    },
    {
      what: 'mixed case as written',
      text: 'Web Accessibility Initiative',
      altText: 'Web Accessibility Initiative',
    },
    {
      what: 'labels of a form picture, in reading order',
      text: 'Rate your response\nHated it\nLoved it',
      altText: 'Rate your response, Hated it, Loved it',
    },
  ])('$what: “$text” → “$altText”', ({ text, altText, width, height }) => {
    const result = compose({ ocr: read(text), width: width ?? 420, height: height ?? 120 });
    expect(result.altText).toBe(altText);
    expect(result.altText).not.toMatch(/\b(?:logo|graphic|text on|background|tones)\b/i);
  });

  it('labels scattered over a diagram (the OCR says they cover little of it) are not its alt text', () => {
    const labels = { ...read('content\ndevelopers\nusers'), coverage: 0.04 };
    const result = compose({ ocr: labels, width: 468, height: 292 });
    expect(result.altText).toBe('Graphic labelled “content developers users”');
    const button = compose({ ocr: { ...read('HOME'), coverage: 0.45 }, width: 100, height: 25 });
    expect(button.altText).toBe('Home');
  });

  it('a logo with a name gets the name, never "logo" or colours', () => {
    const result = compose({ ocr: read('ACME'), width: 200, height: 60, transparentShare: 0.5 });
    expect(result).toMatchObject({ kind: 'logo', altText: 'Acme' });
  });
});

describe('say less, not wrong', () => {
  it('a heading is not pasted in front of an unrelated icon', () => {
    const result = compose({
      context: {
        heading: 'Our opening hours',
        pageTitle: 'Visit us – Riverside Library',
        fileName: 'phone.png',
      },
      width: 32,
      height: 32,
    });
    // Neither the heading nor the file name is grounds (ADR 067): nothing is written.
    expect(result.altText).toBe('');
  });

  it('a section label ("Example 1: …") never leads, even before a large photograph', () => {
    const result = compose({
      stats: { ...graphicStats, flatShare: 0.1, topColourShare: 0.05, colours: ['green', 'brown'] },
      context: { heading: 'Example 1: Images used to label other information' },
      width: 800,
      height: 600,
    });
    expect(result.altText).not.toMatch(/Example 1/);
  });

  it('a heading never leads, even a figure of its subject (ADR 067)', () => {
    const result = compose({
      stats: { ...graphicStats, flatShare: 0.1, topColourShare: 0.05, colours: ['green', 'brown'] },
      objects: [{ label: 'dog', score: 0.9, area: 0.4, box: [0.2, 0.2, 0.5, 0.6] }],
      context: { role: 'figure', heading: 'Buster the rescue dog' },
      width: 800,
      height: 600,
    });
    expect(result.altText).toBe('A dog.');
  });

  it('page furniture named by its file (a background strip) is decorative', () => {
    const result = compose({ context: { fileName: 'topinfo_bg.png' }, width: 600, height: 40 });
    expect(result.decorative).toBe(true);
  });

  it('a thumbnail illustrating the paragraph beside it (most of its name is there) is decorative, flagged', () => {
    const result = compose({
      context: {
        fileName: 'page-structure-navigation.png',
        heading: 'Navigation',
        surroundingText: 'A web page can have any number of navigation menus. Label each one.',
      },
      width: 196,
      height: 122,
    });
    expect(result).toMatchObject({ decorative: true, altText: '' });
    expect(result.confidence).toBeLessThan(0.5);
    // An icon whose name the text does not carry is not named from its file (ADR 067).
    const cart = compose({
      context: { fileName: 'shopping-cart.png', surroundingText: '0 items' },
      width: 32,
      height: 32,
    });
    expect(cart).toMatchObject({ decorative: false, altText: '' });
  });

  it('a portrait beside text about the person is not decorative, whatever its file name', () => {
    const result = compose({
      stats: { ...graphicStats, flatShare: 0.1, topColourShare: 0.05 },
      objects: [{ label: 'person', score: 0.9, area: 0.5, box: [0.2, 0.1, 0.6, 0.9] }],
      context: { fileName: 'peter-taylor.jpg', surroundingText: 'Peter Taylor was a footballer.' },
      width: 400,
      height: 500,
    });
    expect(result.decorative).toBe(false);
  });

  it('a picture whose file name the text beside it spells out is decorative', () => {
    const result = compose({
      stats: { ...graphicStats, flatShare: 0.1, topColourShare: 0.05 },
      context: { fileName: 'sleepingdog.jpg', surroundingText: 'The sleeping dog: let sleeping dogs lie.' },
      width: 400,
      height: 300,
    });
    expect(result.decorative).toBe(true);
  });
});

describe('helpers', () => {
  it.each([
    ['red-leather-handbag.jpg', 'red leather handbag'],
    ['hero-banner-800x600@2x.png', 'hero banner'],
    ['IMG_2041.jpg', undefined],
    ['DSC0001.JPG', undefined],
    ['a9f3c2e1d4b5.png', undefined],
    ['20240101_123456.jpg', undefined],
    ['x.png', undefined],
  ])('fileNameWords(%s) → %s', (name, expected) => {
    expect(fileNameWords(name)).toBe(expected);
  });

  it.each([
    ['HOME', 'Home'],
    ['CALL 0800 123 456', 'Call 0800 123 456'],
    ['W3C', 'W3C'],
    ['Accessibility: Essential for some', 'Accessibility: Essential for some'],
  ])('asWritten(%s) → %s', (text, expected) => {
    expect(asWritten(text)).toBe(expected);
  });

  it('linesAsWritten joins a sentence’s continuation with a space', () => {
    expect(linesAsWritten('Call me when balance\nexceeds $10,000')).toBe(
      'Call me when balance exceeds $10,000',
    );
  });
});
