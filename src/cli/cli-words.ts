// The API's error messages in the words of a terminal user: request paths (`body.query`,
// `query.limit`) become what the user typed (the query, --limit), and the validator's phrasing
// ("must NOT have fewer than 1 characters", a regex pattern) becomes plain words. A 401 names the
// variable the CLI reads the key from. Pure; a message it does not know passes unchanged.

/** Request fields as the CLI's arguments and options name them. */
const FIELDS: Record<string, string> = {
  'body.query': 'the query',
  'body.name': 'the store name',
  'body.max_hops': '--hops',
  'body.max_results': '--results',
  'body.filter': 'the filter (--filter, --where)',
  'query.filter': 'the filter (--where)',
  'query.limit': '--limit',
  'query.cursor': 'the cursor',
  'body.metadata': 'the metadata (--set, --unset)',
  'body.documents': 'the documents',
};

const PHRASES: Array<[RegExp, string]> = [
  [/ must NOT have fewer than 1 characters?/, ' must not be empty'],
  [/ must NOT have fewer than (\d+) characters/, ' must have at least $1 characters'],
  [/ must NOT have more than (\d+) characters/, ' must have at most $1 characters'],
  [/ must NOT have fewer than (\d+) items/, ' must have at least $1 entries'],
  [/ must NOT have more than (\d+) items/, ' must have at most $1 entries'],
  [/ must match pattern "\^\[a-z0-9_-\]\{1,64\}\$"/, " must be 1 to 64 characters of a-z, 0-9, '-' and '_'"],
  [/ must be <= (\S+)/, ' must be at most $1'],
  [/ must be >= (\S+)/, ' must be at least $1'],
];

/** The message with request paths and validator phrases in CLI words. */
export function cliMessage(message: string): string {
  let out = message.replace(
    /\b(body|query)\.([a-z_]+)(\[\d+\])?((?:\.[A-Za-z_$][\w$]*|\[\d+\])*)/g,
    (_whole, part: string, field: string, index = '', rest = '') => {
      const known = FIELDS[`${part}.${field}`];
      // an element of a list keeps its index (documents[3].id); a part of a known field follows its name
      if (!known || index) return `${field}${index}${rest}`;
      return rest ? `${known}: ${rest.slice(1)}` : known;
    },
  );
  out = out.replace(/^body (?=has|is)/, 'the request ');
  for (const [re, plain] of PHRASES) out = out.replace(re, plain);
  return out;
}

/** The fix of a 401 on the CLI: where the key comes from, and how to get one. */
export const UNAUTHORIZED_FIX =
  "Set SVC_API_KEY to a key of the server's project (export SVC_API_KEY=svc_...); on the server host, 'svc keys create --project <project>' prints a new one.";
