// A real MCP client (the official TypeScript SDK, @modelcontextprotocol/sdk) for the server tests:
// connects to lakeqa over stdio or streamable HTTP, lists the tools, calls the given ones in order, and
// prints one JSON object with what it saw. Used by tests/server/mcp_test.cc.
//
//   node mcp_client.mjs <sdk-install-dir> '<calls JSON>' stdio <command> [args...]
//   node mcp_client.mjs <sdk-install-dir> '<calls JSON>' http <url> [bearer-token]
//
// <calls JSON> is an array of {"name": ..., "arguments": {...}}.
import { pathToFileURL } from 'node:url';

const [sdkDir, callsJson, mode, ...rest] = process.argv.slice(2);
const sdk = (p) => pathToFileURL(`${sdkDir}/node_modules/@modelcontextprotocol/sdk/dist/esm/${p}`).href;
const { Client } = await import(sdk('client/index.js'));

let transport;
if (mode === 'stdio') {
  const { StdioClientTransport } = await import(sdk('client/stdio.js'));
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
} else if (mode === 'http') {
  const { StreamableHTTPClientTransport } = await import(sdk('client/streamableHttp.js'));
  const headers = rest[1] ? { Authorization: `Bearer ${rest[1]}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers } });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const client = new Client({ name: 'lakeqa-test-client', version: '1.0.0' });
const out = { tools: [], calls: [] };
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.sessionId = transport.sessionId ?? null;
  const listed = await client.listTools();
  out.tools = listed.tools.map((t) => ({ name: t.name, required: t.inputSchema.required ?? [] }));
  await client.ping();
  for (const call of JSON.parse(callsJson)) {
    const r = await client.callTool({ name: call.name, arguments: call.arguments ?? {} });
    out.calls.push({
      name: call.name,
      isError: r.isError ?? false,
      structured: r.structuredContent ?? null,
      text: r.content?.[0]?.text ?? null,
    });
  }
  // Resources, prompts and completion, as the SDK's own methods call them.
  const resources = await client.listResources();
  out.resources = resources.resources.map((r) => r.uri);
  const read = await client.readResource({ uri: 'lakeqa://datagov/austin-water/files/data.csv' });
  out.resourceText = read.contents[0]?.text ?? null;
  const prompt = await client.getPrompt({ name: 'lakeqa_agent', arguments: { question: 'How many stations?' } });
  out.promptMessages = prompt.messages.length;
  const done = await client.complete({
    ref: { type: 'ref/resource', uri: 'lakeqa://{namespace}/{dataset}' },
    argument: { name: 'dataset', value: 'apd' },
    context: { arguments: { namespace: 'datagov' } },
  });
  out.completions = done.completion.values;
  out.annotated = listed.tools.every((t) => t.annotations && t.outputSchema);
  // An unknown tool is a protocol error, not a tool result.
  try {
    await client.callTool({ name: 'no_such_tool', arguments: {} });
    out.unknownTool = 'accepted';
  } catch (e) {
    out.unknownTool = String(e.code ?? e.message);
  }
  if (mode === 'http') await transport.terminateSession();
  await client.close();
} catch (e) {
  out.fatal = String(e && e.stack ? e.stack : e);
}
process.stdout.write(JSON.stringify(out) + '\n');
process.exit(out.fatal ? 1 : 0);
