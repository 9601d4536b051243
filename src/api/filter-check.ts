// The bounds of a metadata filter that its JSON Schema cannot state: nesting depth and operator
// count (schemas.ts LIMITS.filter). Every operation that takes a filter checks it here first, so a
// filter too large to evaluate cheaply is a 400 with a fix, never slow work.
import type { Filter } from '../api-types.js';
import { filterSize } from '../engine/index.js';
import { ApiError } from '../errors.js';
import { LIMITS } from './schemas.js';

export function checkFilter(filter: Filter | undefined, where: string): void {
  if (!filter) return;
  const { depth, operators } = filterSize(filter);
  const { depth: maxDepth, operators: maxOperators } = LIMITS.filter;
  if (depth > maxDepth) {
    throw new ApiError('invalid_request', `${where} is nested ${depth} levels deep, over ${maxDepth}`, {
      fix: `Nest $and, $or and $not at most ${maxDepth} levels deep; several conditions on one level all hold.`,
    });
  }
  if (operators > maxOperators) {
    throw new ApiError('invalid_request', `${where} has ${operators} operators, over ${maxOperators}`, {
      fix: `Use at most ${maxOperators} operators (each key condition and each $and, $or and $not counts); list many values with $in.`,
    });
  }
}
