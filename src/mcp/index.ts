// Entry of the MCP room: svc's tools for agents (Model Context Protocol), served over stdio by
// `svc mcp` and over streamable HTTP at /v1/mcp by `svc serve`. It reaches svc only through an
// McpBackend, so it imports neither the client nor the HTTP layer.
export { searchText } from './render.js';
export { createMcpServer } from './tools.js';
export { handleMcpHttp, serveStdio } from './transports.js';
export type { McpBackend, McpOptions } from './types.js';
