// The filter field of the documents and search pages: the API's filter language as JSON, checked
// to be a JSON object here (the server checks the rest and answers 400 with a fix). Empty: no filter.
import { type Filter, parseJsonObject } from '../client/index.js';
import { h } from './dom.js';
import { field } from './field.js';

export const FILTER_EXAMPLE = '{"lang": "en", "year": {"$gte": 2000}}';

export function filterField(id: string, value: string): { field: HTMLElement; input: HTMLTextAreaElement } {
  const input = h('textarea', { id, name: 'filter', rows: 2, spellcheck: 'false', placeholder: FILTER_EXAMPLE });
  input.value = value;
  return {
    input,
    field: field(
      input,
      'Filter',
      'Metadata conditions as JSON: a value, or operators $eq $ne $gt $gte $lt $lte $in $nin $exists; combine with $and, $or, $not.',
    ),
  };
}

/** The filter typed, or undefined when the field is blank; throws InvalidRequestError (with a fix) otherwise. */
export function parseFilter(text: string): Filter | undefined {
  if (!text.trim()) return undefined;
  return parseJsonObject(text, 'the filter', `Write it as a JSON object, e.g. ${FILTER_EXAMPLE}.`) as Filter;
}
