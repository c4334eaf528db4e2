/**
 * Words for the 80 COCO classes the offline detector knows. A confident detection is named
 * specifically; an uncertain one only by its family ("an animal"), which stays true when the
 * detector confuses a cat with a dog.
 */

export type Family = 'person' | 'animal' | 'vehicle' | 'food' | 'furniture' | 'device' | 'object';

interface Noun {
  singular: string;
  plural: string;
  family: Family;
  /** Words in a caption that refer to the same thing. */
  synonyms?: string[];
}

const noun = (singular: string, family: Family, plural = `${singular}s`, synonyms: string[] = []): Noun => ({
  singular,
  plural,
  family,
  synonyms,
});

export const cocoNouns: Record<string, Noun> = {
  person: noun('person', 'person', 'people', [
    'man',
    'men',
    'woman',
    'women',
    'boy',
    'girl',
    'child',
    'children',
    'kid',
    'player',
    'portrait',
    'people',
    'he',
    'she',
    'his',
    'her',
    'team',
    'crowd',
    'astronaut',
  ]),
  bicycle: noun('bicycle', 'vehicle', 'bicycles', ['bike', 'cyclist']),
  car: noun('car', 'vehicle', 'cars', ['vehicle']),
  motorcycle: noun('motorcycle', 'vehicle', 'motorcycles', ['motorbike', 'bike', 'scooter']),
  airplane: noun('aeroplane', 'vehicle', 'aeroplanes', ['plane', 'airplane', 'aircraft', 'jet']),
  bus: noun('bus', 'vehicle', 'buses'),
  train: noun('train', 'vehicle', 'trains', ['locomotive', 'railway']),
  truck: noun('truck', 'vehicle', 'trucks', ['lorry']),
  boat: noun('boat', 'vehicle', 'boats', ['ship', 'yacht', 'ferry']),
  'traffic light': noun('traffic light', 'object'),
  'fire hydrant': noun('fire hydrant', 'object'),
  'stop sign': noun('stop sign', 'object'),
  'parking meter': noun('parking meter', 'object'),
  bench: noun('bench', 'furniture', 'benches'),
  bird: noun('bird', 'animal', 'birds'),
  cat: noun('cat', 'animal', 'cats', ['kitten']),
  dog: noun('dog', 'animal', 'dogs', ['puppy']),
  horse: noun('horse', 'animal', 'horses', ['pony']),
  sheep: noun('sheep', 'animal', 'sheep', ['lamb']),
  cow: noun('cow', 'animal', 'cows', ['cattle', 'calf']),
  elephant: noun('elephant', 'animal'),
  bear: noun('bear', 'animal'),
  zebra: noun('zebra', 'animal'),
  giraffe: noun('giraffe', 'animal'),
  backpack: noun('backpack', 'object'),
  umbrella: noun('umbrella', 'object'),
  handbag: noun('handbag', 'object', 'handbags', ['bag']),
  tie: noun('tie', 'object'),
  suitcase: noun('suitcase', 'object'),
  frisbee: noun('frisbee', 'object'),
  skis: noun('pair of skis', 'object', 'pairs of skis'),
  snowboard: noun('snowboard', 'object'),
  'sports ball': noun('ball', 'object', 'balls', ['football']),
  kite: noun('kite', 'object'),
  'baseball bat': noun('baseball bat', 'object'),
  'baseball glove': noun('baseball glove', 'object'),
  skateboard: noun('skateboard', 'object'),
  surfboard: noun('surfboard', 'object'),
  'tennis racket': noun('tennis racket', 'object'),
  bottle: noun('bottle', 'object'),
  'wine glass': noun('wine glass', 'object', 'wine glasses', ['glass', 'wine']),
  cup: noun('cup', 'object', 'cups', ['mug', 'coffee', 'tea', 'espresso', 'latte', 'cappuccino']),
  fork: noun('fork', 'object'),
  knife: noun('knife', 'object', 'knives'),
  spoon: noun('spoon', 'object'),
  bowl: noun('bowl', 'object'),
  banana: noun('banana', 'food'),
  apple: noun('apple', 'food'),
  sandwich: noun('sandwich', 'food', 'sandwiches'),
  orange: noun('orange', 'food'),
  broccoli: noun('broccoli', 'food', 'broccoli'),
  carrot: noun('carrot', 'food'),
  'hot dog': noun('hot dog', 'food'),
  pizza: noun('pizza', 'food'),
  donut: noun('doughnut', 'food', 'doughnuts', ['donut']),
  cake: noun('cake', 'food'),
  chair: noun('chair', 'furniture'),
  couch: noun('sofa', 'furniture', 'sofas', ['couch']),
  'potted plant': noun('potted plant', 'object', 'potted plants', ['plant']),
  bed: noun('bed', 'furniture'),
  'dining table': noun('table', 'furniture', 'tables'),
  toilet: noun('toilet', 'furniture'),
  tv: noun('television', 'device', 'televisions', ['tv', 'screen']),
  laptop: noun('laptop', 'device', 'laptops', ['computer']),
  mouse: noun('computer mouse', 'device', 'computer mice'),
  remote: noun('remote control', 'device'),
  keyboard: noun('keyboard', 'device'),
  'cell phone': noun('mobile phone', 'device', 'mobile phones', ['phone', 'smartphone']),
  microwave: noun('microwave', 'device'),
  oven: noun('oven', 'device'),
  toaster: noun('toaster', 'device'),
  sink: noun('sink', 'furniture'),
  refrigerator: noun('fridge', 'device', 'fridges', ['refrigerator']),
  book: noun('book', 'object'),
  clock: noun('clock', 'object'),
  vase: noun('vase', 'object'),
  scissors: noun('pair of scissors', 'object', 'pairs of scissors'),
  'teddy bear': noun('teddy bear', 'object'),
  'hair drier': noun('hair dryer', 'device'),
  toothbrush: noun('toothbrush', 'object', 'toothbrushes'),
};

const familyNouns: Record<Family, { singular: string; plural: string; synonyms: string[] }> = {
  person: { singular: 'person', plural: 'people', synonyms: [] },
  animal: { singular: 'animal', plural: 'animals', synonyms: ['animal', 'pet', 'wildlife'] },
  vehicle: { singular: 'vehicle', plural: 'vehicles', synonyms: ['vehicle', 'transport'] },
  food: { singular: 'food', plural: 'food', synonyms: ['food', 'dish', 'meal', 'fruit'] },
  furniture: { singular: 'piece of furniture', plural: 'pieces of furniture', synonyms: ['furniture'] },
  device: { singular: 'device', plural: 'devices', synonyms: ['device', 'appliance'] },
  object: { singular: 'object', plural: 'objects', synonyms: [] },
};

export function nounFor(label: string): Noun {
  return cocoNouns[label] ?? noun(label, 'object');
}

export function familyNoun(family: Family): { singular: string; plural: string } {
  return familyNouns[family];
}

/** Words a caption might use for this detection: its name, plural, synonyms and family words. */
export function wordsFor(label: string): string[] {
  const n = nounFor(label);
  return [n.singular, n.plural, ...(n.synonyms ?? []), ...familyNouns[n.family].synonyms];
}

/** Every word for any member of a family: an unsure "dog" agrees with a caption about a cat. */
export function familyWords(family: Family): string[] {
  const words = [...familyNouns[family].synonyms];
  for (const n of Object.values(cocoNouns)) {
    if (n.family === family) words.push(n.singular, n.plural, ...(n.synonyms ?? []));
  }
  return words;
}

const numberWords = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

export function countPhrase(count: number, singular: string, plural: string): string {
  if (count === 1) return `${article(singular)} ${singular}`;
  if (count <= 10) return `${numberWords[count]} ${plural}`;
  return `many ${plural}`;
}

export function article(word: string): string {
  if (/^(food|broccoli)$/.test(word)) return 'some';
  return /^[aeiou]/i.test(word) && !/^(one|uni|eu|use)/i.test(word) ? 'an' : 'a';
}
