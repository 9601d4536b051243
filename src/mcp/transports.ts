// The two ways svc's MCP server is reached: stdio (`svc mcp`, a process an MCP client starts) and
// one HTTP request of the streamable HTTP transport (/v1/mcp on `svc serve`). HTTP is stateless: each
// request gets a server of its own and a JSON reply (no session id, no event stream), so a request
// can go to any process and nothing is kept between requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from './tools.js';
import type { McpBackend, McpOptions } from './types.js';

/** Serves the tools over this process's stdin and stdout until stdin closes. */
export async function serveStdio(backend: McpBackend, opts: McpOptions): Promise<void> {
  const server = createMcpServer(backend, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}

/** Answers one MCP request sent over HTTP (its JSON body already read as `body`). */
export async function handleMcpHttp(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  backend: McpBackend,
  opts: McpOptions,
): Promise<void> {
  const server = createMcpServer(backend, opts);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
