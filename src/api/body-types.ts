// What the body thread (body-thread.ts) answers body-parser.ts.

/** The parsed value, or why there is none (`message`: JSON.parse's, for 'json'). */
export type ParseReply = { value: unknown; failure?: undefined } | { failure: 'utf8' | 'json' | 'deep'; message?: string };
