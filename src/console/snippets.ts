// A search as a command or a program the user can run elsewhere: curl, and the TypeScript client.
// The API key is never written into them (a snippet gets pasted into tickets and chats): they read
// it from $SVC_API_KEY, as the CLI and the client do. Pure.
import type { SearchRequest } from '../client/index.js';

/** `s` quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const seg = (s: string) => encodeURIComponent(s).replace(/\./g, '%2E');

export function curlSnippet(apiRoot: string, store: string, body: SearchRequest, authed: boolean, project?: string): string {
  const lines = [`curl -sS -X POST ${shellQuote(`${apiRoot}/stores/${seg(store)}/search`)}`, `  -H 'content-type: application/json'`];
  if (authed) lines.push(`  -H "Authorization: Bearer $SVC_API_KEY"`);
  else if (project) lines.push(`  -H ${shellQuote(`X-Svc-Project: ${project}`)}`);
  lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

export function clientSnippet(apiRoot: string, store: string, body: SearchRequest, authed: boolean, project?: string): string {
  const options = [`baseUrl: ${JSON.stringify(apiRoot)}`];
  if (authed) options.push('apiKey: process.env.SVC_API_KEY');
  else if (project) options.push(`project: ${JSON.stringify(project)}`);
  return [
    "import { Svc } from 'svc-search'; // or 'svc-client'",
    '',
    `const svc = new Svc({ ${options.join(', ')} });`,
    `const result = await svc.search(${JSON.stringify(store)}, ${JSON.stringify(body, null, 2)});`,
    'console.log(result.confidence, result.hops_used, result.passages);',
  ].join('\n');
}
