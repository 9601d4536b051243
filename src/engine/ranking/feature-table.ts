// Learned scorers read named feature tables: an ordered list of {name, compute}, where compute is a
// pure function of one context (a row, a chain step, a stage). The order is the order of the
// weights a model was fitted on; the manifest records the names and model-fit.ts refuses a model
// whose names differ, so a reordered or renamed feature can never be scored silently wrong.

export interface Feature<C> {
  name: string;
  compute: (ctx: C) => number;
}

/** The names of a table, in order. */
export const namesOf = <C>(table: ReadonlyArray<Feature<C>>): string[] => table.map((f) => f.name);

/** Every feature of `table` computed on `ctx`, in table order. */
export function computeFeatures<C>(table: ReadonlyArray<Feature<C>>, ctx: C): Float64Array {
  const out = new Float64Array(table.length);
  for (let i = 0; i < table.length; i++) out[i] = table[i].compute(ctx);
  return out;
}

/** The weighted sum w·x (a missing weight counts 0). */
export const dotw = (w: ArrayLike<number>, x: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (w[i] ?? 0) * x[i];
  return s;
};
