import { EditPromptError } from './types.ts';

/**
 * Reads plain-English edit instructions ("black and white, crop to square and add a caption
 * "Summer sale" at the bottom") into steps the offline editor carries out in the order written.
 * Without a language model it only knows the phrases below; it says so instead of guessing.
 */

export type Strength = 'slight' | 'normal' | 'strong';
export type CaptionPosition = 'top' | 'bottom';
export type Rgb = { r: number; g: number; b: number };

export type EditStep =
  | { kind: 'greyscale' }
  | { kind: 'sepia' }
  | { kind: 'invert' }
  | { kind: 'blur'; strength: Strength }
  | { kind: 'sharpen'; strength: Strength }
  | { kind: 'brightness'; direction: 'up' | 'down'; strength: Strength }
  | { kind: 'contrast'; direction: 'up' | 'down'; strength: Strength }
  | { kind: 'saturation'; direction: 'up' | 'down'; strength: Strength }
  | { kind: 'temperature'; direction: 'warmer' | 'cooler'; strength: Strength }
  | { kind: 'rotate'; degrees: 90 | 180 | 270 }
  | { kind: 'flip'; axis: 'horizontal' | 'vertical' }
  | { kind: 'crop'; ratio: [number, number] }
  | { kind: 'resize'; width?: number; height?: number; percent?: number }
  | { kind: 'caption'; text: string; position: CaptionPosition }
  | { kind: 'border'; colour: Rgb; colourName: string; strength: Strength };

/** What the offline editor understands, for the 422 message and the usage instructions. */
export const OFFLINE_EDIT_CAPABILITIES =
  'black and white (greyscale), sepia, invert, blur, sharpen, brighter or darker, more or less contrast, ' +
  'more or less saturation, warmer or cooler, rotate (left, right, 90, 180 or 270 degrees), flip or mirror, ' +
  'crop to square or to a ratio such as 16:9 or 4:5, resize (to 800 px wide or to 50%), ' +
  'add a caption "your text" at the top or bottom, and add a border (optionally in a colour such as white or navy)';

export const OFFLINE_EDIT_EXAMPLE =
  'black and white, crop to square and add a caption "Summer sale" at the bottom';

/** Largest side a resize may ask for; beyond it the result would be a decompression bomb of our own. */
export const MAX_RESIZE_SIDE = 8000;

const colours: Record<string, Rgb> = {
  white: { r: 255, g: 255, b: 255 },
  black: { r: 0, g: 0, b: 0 },
  red: { r: 220, g: 38, b: 38 },
  green: { r: 22, g: 163, b: 74 },
  blue: { r: 37, g: 99, b: 235 },
  yellow: { r: 250, g: 204, b: 21 },
  orange: { r: 249, g: 115, b: 22 },
  purple: { r: 147, g: 51, b: 234 },
  pink: { r: 236, g: 72, b: 153 },
  grey: { r: 128, g: 128, b: 128 },
  gray: { r: 128, g: 128, b: 128 },
  gold: { r: 212, g: 175, b: 55 },
  silver: { r: 192, g: 192, b: 192 },
  navy: { r: 30, g: 41, b: 99 },
  teal: { r: 13, g: 148, b: 136 },
  brown: { r: 120, g: 72, b: 40 },
  beige: { r: 232, g: 220, b: 196 },
  cream: { r: 250, g: 243, b: 224 },
};
const colourWords = `${Object.keys(colours).join('|')}|#[0-9a-f]{6}|#[0-9a-f]{3}`;

function parseColour(word: string | undefined): { colour: Rgb; name: string } | null {
  if (!word) return null;
  const lower = word.toLowerCase();
  const named = colours[lower];
  if (named) return { colour: named, name: lower };
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(lower)?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return {
    colour: {
      r: Number.parseInt(full.slice(0, 2), 16),
      g: Number.parseInt(full.slice(2, 4), 16),
      b: Number.parseInt(full.slice(4, 6), 16),
    },
    name: `#${full}`,
  };
}

type Match = { index: number; step: EditStep };

/** Runs `pattern` over the text still unclaimed, claims what it matched and records its steps. */
function claim(
  state: { text: string; found: Match[] },
  pattern: RegExp,
  toStep: (groups: RegExpExecArray, before: string) => EditStep | null,
) {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
  );
  for (const match of state.text.matchAll(global)) {
    const before = clauseBefore(state.text, match.index);
    const step = toStep(match as RegExpExecArray, before);
    if (!step) continue;
    state.found.push({ index: match.index, step });
    // Blank the claimed words (same length) so later patterns cannot read them again.
    state.text =
      state.text.slice(0, match.index) +
      ' '.repeat(match[0].length) +
      state.text.slice(match.index + match[0].length);
  }
}

/** The words of the same clause just before a match, where "slightly" or "much" would be. */
function clauseBefore(text: string, index: number): string {
  const start = Math.max(text.lastIndexOf(',', index), text.lastIndexOf(';', index), index - 30, 0);
  return text.slice(start, index).toLowerCase();
}

function strengthOf(words: string): Strength {
  if (/\b(slight(ly)?|a (little )?bit|a little|subtle|subtly|gentle|gently|soft(ly)?|touch)\b/.test(words))
    return 'slight';
  if (/\b(much|a lot|lots|very|really|strong(ly)?|heav(y|ily)|extra|way|super|dramatic(ally)?)\b/.test(words))
    return 'strong';
  return 'normal';
}

function describeStrength(strength: Strength): string {
  return strength === 'slight' ? 'slightly ' : strength === 'strong' ? 'much ' : '';
}

/** Parses a prompt; throws EditPromptError (with what the editor can do) when nothing is understood. */
export function parseEditInstructions(prompt: string): EditStep[] {
  const state = { text: prompt.replace(/\s+/g, ' '), found: [] as Match[] };

  // 1. Captions first: their quoted words must not be read as instructions ("add "Black Friday"").
  claim(
    state,
    /\b(?:add|put|write|place|insert|with)?\s*(?:an?\s+|the\s+)?(?:caption|text|title|label|headline|words?)\s*(?:saying|that says|which says|reading|of|:)?\s*["“”„'‘’«]([^"“”„«»]{1,200}?)["“”'’»](?:\s*(?:at|on|to|along|across)\s+(?:the\s+)?(top|bottom|upper|lower))?(?:\s+(?:of\s+(?:the\s+)?)?(?:image|picture|photo))?/i,
    (m) => {
      const text = (m[1] ?? '').trim();
      if (!text) return null;
      const where = (m[2] ?? '').toLowerCase();
      return { kind: 'caption', text, position: where === 'top' || where === 'upper' ? 'top' : 'bottom' };
    },
  );
  claim(
    state,
    /\b(?:add|put|write|place|insert)\s+["“”„«]([^"“”„«»]{1,200}?)["“”»](?:\s*(?:at|on|to|along|across)\s+(?:the\s+)?(top|bottom|upper|lower))?/i,
    (m) => {
      const text = (m[1] ?? '').trim();
      if (!text) return null;
      const where = (m[2] ?? '').toLowerCase();
      return { kind: 'caption', text, position: where === 'top' || where === 'upper' ? 'top' : 'bottom' };
    },
  );
  // 2. Borders and frames (before colours are read as greyscale or warmth: "a grey border").
  claim(
    state,
    new RegExp(
      `\\b(?:(thin|thick|wide|narrow|big|small|fat)\\s+)?(?:(${colourWords})\\s+)?(?:(thin|thick|wide|narrow|big|small|fat)\\s+)?(?:border|frame)\\b(?:\\s+(?:in|of|coloured|colored)?\\s*(${colourWords})\\b)?`,
      'i',
    ),
    (m) => {
      const size = (m[1] ?? m[3] ?? '').toLowerCase();
      const parsed = parseColour(m[2] ?? m[4]) ?? { colour: colours.white as Rgb, name: 'white' };
      const strength: Strength = /thin|narrow|small/.test(size)
        ? 'slight'
        : /thick|wide|big|fat/.test(size)
          ? 'strong'
          : 'normal';
      return { kind: 'border', colour: parsed.colour, colourName: parsed.name, strength };
    },
  );
  // 3. Flips ("flip it upside down" is a flip, not a rotation).
  claim(
    state,
    /\b(?:flip(?:ped)?|mirror(?:ed)?)\b(?:\s+(?:it|the\s+(?:image|picture|photo)))?(?:\s+(vertical(?:ly)?|upside[- ]down|top to bottom|horizontal(?:ly)?|left to right|sideways))?/i,
    (m) => ({
      kind: 'flip',
      axis: /vertical|upside|top to bottom/i.test(m[1] ?? '') ? 'vertical' : 'horizontal',
    }),
  );
  // 4. Rotations.
  claim(
    state,
    // "rotate" alone is a quarter turn clockwise; "turn" and "spin" need an angle or a direction.
    /\b(?:rotate|(?:turn|spin)(?=\s+(?:(?:it|the\s+(?:image|picture|photo))\s+)?(?:(?:by|to(?:\s+the)?)\s+)?(?:-?\d{1,3}\s*(?:°|deg)|left|right|anti-?clockwise|counter-?clockwise|clockwise|upside[- ]down|around)))\b(?:\s+(?:it|the\s+(?:image|picture|photo)))?(?:\s+(?:by|to(?:\s+the)?))?\s*(?:(-?\d{1,3})\s*(?:°|deg(?:rees?)?)?(?:\s+(clockwise|anti-?clockwise|counter-?clockwise))?|(left|right|anti-?clockwise|counter-?clockwise|clockwise|upside[- ]down|around))?/i,
    (m) => {
      const direction = (m[2] ?? m[3] ?? '').toLowerCase();
      const counter = /left|anti|counter/.test(direction);
      if (/upside|around/.test(direction)) return { kind: 'rotate', degrees: 180 };
      let degrees = m[1] ? Number(m[1]) : 90;
      if (degrees % 90 !== 0 || degrees === 0) {
        throw new EditPromptError(
          `The offline editor rotates by quarter turns only: 90, 180 or 270 degrees, left or right (not ${m[1]}).`,
        );
      }
      if (counter) degrees = -degrees;
      const normalised = (((degrees % 360) + 360) % 360) as 90 | 180 | 270;
      return { kind: 'rotate', degrees: normalised };
    },
  );
  claim(state, /\bupside[- ]down\b/i, () => ({ kind: 'rotate', degrees: 180 }));
  // 5. Crops to a shape.
  claim(
    state,
    /\b(?:crop(?:ped)?|cut|trim|make\s+it|turn\s+it\s+into|reframe)\b(?:\s+(?:it|the\s+(?:image|picture|photo)))?(?:\s+(?:to|into|as|for))?\s*(?:an?\s+)?(?:(square|instagram post|story|portrait|landscape|widescreen)|(\d{1,2})\s*[:x×/]\s*(\d{1,2}))/i,
    (m) => {
      const word = (m[1] ?? '').toLowerCase();
      if (word === 'square' || word === 'instagram post') return { kind: 'crop', ratio: [1, 1] };
      if (word === 'story') return { kind: 'crop', ratio: [9, 16] };
      if (word === 'portrait') return { kind: 'crop', ratio: [4, 5] };
      if (word === 'landscape' || word === 'widescreen') return { kind: 'crop', ratio: [16, 9] };
      const w = Number(m[2]);
      const h = Number(m[3]);
      if (!w || !h || w / h > 10 || h / w > 10) return null;
      return { kind: 'crop', ratio: [w, h] };
    },
  );
  claim(state, /\b(?:aspect\s+)?ratio\s+(?:of\s+)?(\d{1,2})\s*:\s*(\d{1,2})\b/i, (m) =>
    Number(m[1]) && Number(m[2]) ? { kind: 'crop', ratio: [Number(m[1]), Number(m[2])] } : null,
  );
  claim(state, /\b(?:make\s+it\s+)?square\b/i, () => ({ kind: 'crop', ratio: [1, 1] }));
  // 6. Resizes.
  claim(
    state,
    /\b(?:resize|scale|shrink|enlarge|reduce|downsize|upscale|make\s+it)\b(?:\s+(?:it|the\s+(?:image|picture|photo)))?(?:\s+(?:down|up))?(?:\s+(?:to|by))?\s*(?:(\d{1,3}(?:\.\d+)?)\s*(?:%|percent)|(\d{2,5})\s*[x×]\s*(\d{2,5})(?:\s*(?:px|pixels?))?|(\d{2,5})\s*(?:px|pixels?)?\s*(wide|width|in width|across|tall|high|height|in height)?|(half|a quarter|quarter|double|twice)(?:\s+(?:the\s+)?size)?)/i,
    (m) => {
      if (m[1]) return { kind: 'resize', percent: Number(m[1]) };
      if (m[2] && m[3]) return { kind: 'resize', width: Number(m[2]), height: Number(m[3]) };
      if (m[4]) {
        const n = Number(m[4]);
        return /tall|high|height/i.test(m[5] ?? '')
          ? { kind: 'resize', height: n }
          : { kind: 'resize', width: n };
      }
      const word = (m[6] ?? '').toLowerCase();
      const percent = word === 'half' ? 50 : word.includes('quarter') ? 25 : 200;
      return { kind: 'resize', percent };
    },
  );
  claim(state, /\b(half|double)\s+(?:the\s+)?size\b/i, (m) => ({
    kind: 'resize',
    percent: (m[1] ?? '').toLowerCase() === 'half' ? 50 : 200,
  }));

  // 7. Colour and tone. "less"/"reduce" forms before the bare words they contain.
  claim(
    state,
    /\b(?:black\s*(?:and|&|n'?)\s*white|b\s*&\s*w|b\/w|gr[ae]y\s*-?\s*scale|monochrome|mono|colou?rless|gr[ae]y)\b/i,
    () => ({ kind: 'greyscale' }),
  );
  claim(state, /\b(?:sepia|vintage|old[- ]fashioned|antique|retro)\b/i, () => ({ kind: 'sepia' }));
  claim(state, /\b(?:invert(?:ed)?(?:\s+(?:the\s+)?colou?rs)?|negative)\b/i, () => ({ kind: 'invert' }));
  claim(
    state,
    /\b(?:less|lower|reduce|decrease|tone\s+down(?:\s+the)?)\s+(?:the\s+)?(?:saturation|saturated|colou?rs?|colou?rful|vivid)|desaturate[sd]?|muted|washed[- ]out|faded|fade\b/i,
    (_m, before) => ({ kind: 'saturation', direction: 'down', strength: strengthOf(before) }),
  );
  claim(
    state,
    /\b(?:more|increase|boost|raise|higher|enhance|pump\s+up)\s+(?:the\s+)?(?:saturation|saturated|colou?rs?|colou?rful|vivid|vibrant)|saturate[sd]?|more\s+vibrant|vivid|vibrant|colou?rful|pop\b/i,
    (_m, before) => ({ kind: 'saturation', direction: 'up', strength: strengthOf(before) }),
  );
  claim(
    state,
    /\b(?:less|lower|reduce|decrease|soften)\s+(?:the\s+)?contrast\b|\blow[- ]contrast\b/i,
    (_m, before) => ({ kind: 'contrast', direction: 'down', strength: strengthOf(before) }),
  );
  claim(
    state,
    /\b(?:(?:more|increase|boost|raise|higher|add|enhance|stronger)\s+(?:the\s+)?contrast|high[- ]contrast|contrast(?:y)?)\b/i,
    (_m, before) => ({ kind: 'contrast', direction: 'up', strength: strengthOf(before) }),
  );
  claim(
    state,
    /\b(?:darker|darken(?:ed)?|dimmer|dim|(?:less|lower|reduce|decrease)\s+(?:the\s+)?brightness|underexpose[d]?|moody)\b/i,
    (_m, before) => ({ kind: 'brightness', direction: 'down', strength: strengthOf(before) }),
  );
  claim(
    state,
    /\b(?:brighter|brighten(?:ed)?|lighter|lighten(?:ed)?|(?:more|increase|raise|boost)\s+(?:the\s+)?(?:brightness|light|exposure)|bright|overexpose[d]?)\b/i,
    (_m, before) => ({ kind: 'brightness', direction: 'up', strength: strengthOf(before) }),
  );
  claim(state, /\b(?:warmer|warm(?:\s+(?:it\s+)?up)?|golden(?:\s+hour)?|sunnier)\b/i, (_m, before) => ({
    kind: 'temperature',
    direction: 'warmer',
    strength: strengthOf(before),
  }));
  claim(state, /\b(?:cooler|cool(?:\s+(?:it\s+)?down)?|colder|cold|bluer|icy)\b/i, (_m, before) => ({
    kind: 'temperature',
    direction: 'cooler',
    strength: strengthOf(before),
  }));
  claim(state, /\b(?:un)?blur(?:ry|red|s)?\b|\bout of focus\b|\bsoft[- ]focus\b/i, (m, before) =>
    /^unblur/i.test(m[0]) ? null : { kind: 'blur', strength: strengthOf(before) },
  );
  claim(
    state,
    /\b(?:sharpen(?:ed)?|sharper|crisper|crisp|more\s+detail(?:ed)?|unblur|deblur|clearer)\b/i,
    (_m, before) => ({ kind: 'sharpen', strength: strengthOf(before) }),
  );

  const steps = state.found.sort((a, b) => a.index - b.index).map((match) => match.step);
  if (steps.length === 0) {
    throw new EditPromptError(
      `The offline editor could not find an edit it can make in this prompt. It understands: ${OFFLINE_EDIT_CAPABILITIES}. ` +
        `Several can go in one prompt, for example: ${OFFLINE_EDIT_EXAMPLE}.`,
    );
  }
  return steps;
}

/** A step in words, for the answer's `operations`. */
export function describeStep(step: EditStep): string {
  switch (step.kind) {
    case 'greyscale':
      return 'black and white';
    case 'sepia':
      return 'sepia';
    case 'invert':
      return 'inverted colours';
    case 'blur':
      return `${describeStrength(step.strength)}blurred`;
    case 'sharpen':
      return `${describeStrength(step.strength)}sharpened`;
    case 'brightness':
      return `${describeStrength(step.strength)}${step.direction === 'up' ? 'brighter' : 'darker'}`;
    case 'contrast':
      return `${describeStrength(step.strength)}${step.direction === 'up' ? 'more' : 'less'} contrast`;
    case 'saturation':
      return `${describeStrength(step.strength)}${step.direction === 'up' ? 'more' : 'less'} saturated`;
    case 'temperature':
      return `${describeStrength(step.strength)}${step.direction}`;
    case 'rotate':
      return step.degrees === 180
        ? 'rotated 180°'
        : `rotated 90° ${step.degrees === 90 ? 'clockwise' : 'anticlockwise'}`;
    case 'flip':
      return step.axis === 'horizontal' ? 'mirrored (left to right)' : 'flipped upside down';
    case 'crop':
      return step.ratio[0] === step.ratio[1]
        ? 'cropped to a square'
        : `cropped to ${step.ratio[0]}:${step.ratio[1]}`;
    case 'resize':
      return step.percent !== undefined
        ? `resized to ${step.percent}%`
        : step.width && step.height
          ? `resized to fit ${step.width}×${step.height} px`
          : step.width
            ? `resized to ${step.width} px wide`
            : `resized to ${step.height} px tall`;
    case 'caption':
      return `caption at the ${step.position}: “${step.text}”`;
    case 'border':
      return `${step.strength === 'slight' ? 'thin ' : step.strength === 'strong' ? 'thick ' : ''}${step.colourName} border`;
  }
}
