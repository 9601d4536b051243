// `svc mcp`: svc's MCP tools over stdio, for a desktop or agent MCP client that starts the process.
// It talks to a running server through SVC_BASE_URL and SVC_API_KEY like every client command, so
// the server's auth, project and rate limit apply. stdout carries only the protocol: nothing else is
// printed there. Writing tools only with --allow-writes.
import type { Command } from 'commander';
import { VERSION } from '../config.js';
import { serveStdio } from '../mcp/index.js';
import { client } from './client-env.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve svc to MCP clients (agents, desktop assistants) over stdio, through SVC_BASE_URL and SVC_API_KEY')
    .option('--allow-writes', 'also offer ingest_documents and delete_document (off: an agent never writes)', false)
    .action(async (opts: { allowWrites: boolean }) => {
      const svc = client();
      await serveStdio(
        {
          search: (store, request) => svc.search(store, request),
          getDocument: (store, id) => svc.documents.get(store, id, { include_text: true }),
          listStores: (page) => svc.stores.list(page),
          listDocuments: (store, page) => svc.documents.list(store, page),
          ingest: async (store, documents) => {
            const r = await svc.documents.ingest(store, documents);
            return { ingested: r.ingested, doc_ids: r.doc_ids };
          },
          deleteDocument: (store, id) => svc.documents.delete(store, id),
        },
        { version: VERSION, allowWrites: opts.allowWrites },
      );
    });
}
