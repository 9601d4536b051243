// Measured quantities a passage states, for the choices that compare two things by one ("Which
// building is taller, A or B?", "Which park is larger, A or B?", "Which town has a greater
// population, A or B?"; choice.ts). Invariants: a height is a number followed by a unit of length
// (m, metres, ft, feet), in metres; an area a number followed by a unit of area (km2, square
// kilometres, hectares, acres, square miles), in square kilometres; a population the first number
// after "population" in its sentence that is not a year ("as of 2010"), else the number before
// "inhabitants", "residents" or "people"; the quantity of a text is its first such statement (a
// passage states its subject's own first), or undefined when it states none; numbers are read with
// their thousands' commas. Pure.

export type Measure = 'height' | 'area' | 'population';

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`;
const END = String.raw`(?![\p{L}\p{N}])`;

/** Units of each measure, each with its factor to metres or square kilometres. */
const UNITS: Record<'height' | 'area', Array<[string, number]>> = {
  height: [
    ['m', 1],
    ['metres', 1],
    ['meters', 1],
    ['metre', 1],
    ['meter', 1],
    ['ft', 0.3048],
    ['feet', 0.3048],
    ['foot', 0.3048],
  ],
  area: [
    ['km2', 1],
    ['km²', 1],
    ['sq km', 1],
    ['square kilometres', 1],
    ['square kilometers', 1],
    ['ha', 0.01],
    ['hectares', 0.01],
    ['acres', 0.004047],
    ['sq mi', 2.59],
    ['mi2', 2.59],
    ['mi²', 2.59],
    ['square miles', 2.59],
  ],
};

const unitPattern = (m: 'height' | 'area') =>
  new RegExp(String.raw`${NUMBER}[\s\u00a0-]?(${UNITS[m].map(([u]) => u.replace(' ', String.raw`\s`)).join('|')})${END}`, 'iu');
const AMOUNT = { height: unitPattern('height'), area: unitPattern('area') };
const FACTOR = {
  height: new Map(UNITS.height),
  area: new Map(UNITS.area),
};
const POPULATION = /\bpopulation\b/giu;
const COUNTED_PEOPLE = new RegExp(String.raw`${NUMBER}\s+(?:inhabitants|residents|people)\b`, 'iu');
const NUMBERS = new RegExp(`${NUMBER}${END}`, 'gu');
/** A year, not a count: four digits from 1700 to 2099 without a thousands comma ("as of 2010", "the 2010 census"). */
const YEAR = /^(1[7-9]|20)\d\d$/;

const value = (n: string) => Number(n.replace(/,/g, ''));

/** The first number within 60 characters after "population" that is not a year, else the first before "inhabitants"... */
function populationIn(text: string): number | undefined {
  for (const p of text.matchAll(POPULATION)) {
    const after = text.slice(p.index + p[0].length, p.index + p[0].length + 60);
    const end = after.search(/[.;](\s|$)/);
    for (const n of (end >= 0 ? after.slice(0, end) : after).matchAll(NUMBERS)) if (!YEAR.test(n[1])) return value(n[1]);
  }
  const m = COUNTED_PEOPLE.exec(text);
  return m ? value(m[1]) : undefined;
}

/** The first quantity of a measure a text states, in metres, square kilometres or people. */
export function measureIn(text: string, measure: Measure): number | undefined {
  if (measure === 'population') return populationIn(text);
  const m = AMOUNT[measure].exec(text);
  if (!m) return undefined;
  const factor = FACTOR[measure].get(m[2].toLowerCase().replace(/\s+/g, ' '));
  return factor === undefined ? undefined : value(m[1]) * factor;
}

/** The measure a comparison's words ask, and whether the larger wins; undefined when they ask none of these. */
export function measureAsked(head: string): { measure: Measure; larger: boolean } | undefined {
  const h = head.toLowerCase();
  const larger = /\b(taller|tallest|higher|highest|larger|largest|bigger|biggest|greater|greatest|more|most)\b/.test(h);
  const smaller = /\b(shorter|shortest|lower|lowest|smaller|smallest|fewer|fewest|less|least)\b/.test(h);
  if (larger === smaller) return undefined;
  if (/\b(population|populous|populated|inhabitants)\b/.test(h)) return { measure: 'population', larger };
  if (/\b(taller|tallest|shorter|shortest|higher|highest|lower|lowest|height)\b/.test(h)) return { measure: 'height', larger };
  if (/\b(larger|largest|bigger|biggest|smaller|smallest|area)\b/.test(h)) return { measure: 'area', larger };
  return undefined;
}
