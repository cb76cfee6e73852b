// The MCP ceiling: a bare SDK server (McpServer + stateless StreamableHTTPServerTransport on
// node:http), a fresh server and transport per request as Packline does (sharing one schema
// validator, as Packline does), one constant tool.
// Run as a child: prints "LISTENING <port>" once ready. PACKLINE_BENCH_MCP_PAYLOAD: JSON file
// holding the structuredContent to answer.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';

const payload = JSON.parse(readFileSync(process.env.PACKLINE_BENCH_MCP_PAYLOAD!, 'utf8')) as Record<string, unknown>;
const text = JSON.stringify(payload);

// Shared across requests, as Packline shares its own: the ceiling takes every saving Packline takes.
const validator = new AjvJsonSchemaValidator();

function build(): McpServer {
  const server = new McpServer({ name: 'bench-bare', version: '1.0.0' }, { jsonSchemaValidator: validator });
  server.registerTool(
    'constant',
    { description: 'Returns a constant result', inputSchema: { capability: z.string().optional() } },
    async () => ({ content: [{ type: 'text' as const, text }], structuredContent: payload }),
  );
  return server;
}

const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
});
http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.once('SIGTERM', () => http.close(() => process.exit(0)));
