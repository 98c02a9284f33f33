// A real MCP client (the official TypeScript SDK, @modelcontextprotocol/sdk) for the server tests:
// connects to lakeqa over stdio or streamable HTTP and prints one JSON object with what it saw. Used by
// tests/server/mcp_test.cc and mcp_pressure_test.cc.
//
//   node mcp_client.mjs <sdk-install-dir> '<plan JSON>' stdio <command> [args...]
//   node mcp_client.mjs <sdk-install-dir> '<plan JSON>' http <url> [bearer-token]
//
// The plan is either an array of {"name": ..., "arguments": {...}}: list the tools, call these in order, then
// resources, prompts and completion; or an object {"scenario": ...} for a client under pressure:
//   oversized {bytes, tries}: `tries` tools/call messages of about `bytes` each (a search whose prefix is that
//     long); per try {ok, code, message, ms}; then `after`, one ordinary call on the same connection.
//   hidden-id {bytes}: one such call laid out with its id more than 64 KiB from both ends of the message.
//   fetch {bytes, tries}: no SDK, Node's own fetch (undici): `tries` POSTs of `bytes`; each status or error.
//   close-during-call {call, waitDir, waitPrefix}: start `call`; once an entry named waitPrefix* appears in
//     waitDir, close the client as the SDK does (end stdin, SIGTERM after 2 s, SIGKILL after 2 more); reports
//     the server's pid and how it ended (exitCode, signal).
//   vanish-during-call {call, waitDir, waitPrefix}: the same, but the client exits without closing anything
//     (a client that crashed); reports the server's pid.
//   connect: only connect; a failure is reported in `fatal`.
import { pathToFileURL } from 'node:url';
import { readdirSync } from 'node:fs';

const [sdkDir, planJson, mode, ...rest] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const sdk = (p) => pathToFileURL(`${sdkDir}/node_modules/@modelcontextprotocol/sdk/dist/esm/${p}`).href;
const { Client } = await import(sdk('client/index.js'));
const out = { tools: [], calls: [] };

if (plan.scenario === 'fetch') {
  // Plain HTTP, as any Node client posts: the oversized body is refused, and the refusal must arrive.
  const body = 'x'.repeat(plan.bytes);
  out.tries = [];
  for (let i = 0; i < plan.tries; i++) {
    try {
      const r = await fetch(rest[0], {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body,
      });
      out.tries.push({ status: r.status, body: await r.text() });
    } catch (e) {
      out.tries.push({ error: String(e.cause?.code ?? e.cause?.message ?? e.message) });
    }
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

let transport;
if (mode === 'stdio') {
  const { StdioClientTransport } = await import(sdk('client/stdio.js'));
  // The SDK passes a server only a default set of environment variables; TMPDIR is added so that a test
  // can see where the server's temporary folders go.
  const env = process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {};
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), env, stderr: 'pipe' });
  out.stderr = '';
  transport.stderr.on('data', (d) => {
    out.stderr += d.toString();
    process.stderr.write(d);
  });
} else if (mode === 'http') {
  const { StreamableHTTPClientTransport } = await import(sdk('client/streamableHttp.js'));
  const headers = rest[1] ? { Authorization: `Bearer ${rest[1]}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers } });
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}

const client = new Client({ name: 'lakeqa-test-client', version: '1.0.0' });

// One call's outcome: the result, or the error the SDK raised (its code, message, and the time it took).
async function attempt(fn) {
  const t0 = Date.now();
  try {
    const r = await fn();
    return { ok: true, isError: r.isError ?? false, ms: Date.now() - t0 };
  } catch (e) {
    return { ok: false, code: e.code ?? null, message: String(e.message), ms: Date.now() - t0 };
  }
}

const bigSearch = (bytes) => ({ name: 'search', arguments: { prefixes: ['x'.repeat(bytes)] } });

// Waits (up to 60 s) until an entry of `dir` starts with `prefix`: the server is inside the call.
async function waitForEntry(dir, prefix) {
  for (let i = 0; i < 600; i++) {
    if (readdirSync(dir).some((n) => n.startsWith(prefix))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function runScenario() {
  await client.connect(transport);
  if (plan.scenario === 'connect') return;
  if (plan.scenario === 'oversized') {
    out.tries = [];
    for (let i = 0; i < plan.tries; i++) out.tries.push(await attempt(() => client.callTool(bigSearch(plan.bytes))));
    out.after = await attempt(() => client.callTool({ name: 'search', arguments: { prefixes: ['apd'] } }));
    return;
  }
  if (plan.scenario === 'hidden-id') {
    // The SDK writes the id last; this lays the request out as {..., params, id, padding} with the huge
    // parts on both sides of the id, which the server cannot find without parsing the whole message.
    const send = transport.send.bind(transport);
    transport.send = (m, opts) => {
      if (m.method !== 'tools/call') return send(m, opts);
      const { id, ...restOfMessage } = m;
      return send({ ...restOfMessage, id, padding: 'y'.repeat(plan.bytes) }, opts);
    };
    out.hidden = await attempt(() => client.callTool(bigSearch(plan.bytes)));
    return;
  }
  if (plan.scenario === 'close-during-call' || plan.scenario === 'vanish-during-call') {
    const proc = transport._process;
    out.pid = proc.pid;
    out.ended = new Promise((resolve) => proc.on('exit', (exitCode, signal) => resolve({ exitCode, signal })));
    const call = attempt(() => client.callTool(plan.call));
    out.started = await waitForEntry(plan.waitDir, plan.waitPrefix);
    await new Promise((r) => setTimeout(r, 300));
    if (plan.scenario === 'vanish-during-call') {
      process.stdout.write(JSON.stringify({ pid: out.pid, started: out.started }) + '\n');
      process.exit(0);  // no close: the pipes simply go away, as when a client crashes
    }
    await client.close();
    out.call = await call;
    out.ended = await out.ended;
    return;
  }
  throw new Error(`unknown scenario ${plan.scenario}`);
}

if (!Array.isArray(plan)) {
  try {
    await runScenario();
  } catch (e) {
    out.fatal = String(e && e.message ? e.message : e);
    out.fatalCode = e?.code ?? null;
  }
  try {
    if (plan.scenario !== 'close-during-call') await client.close();
  } catch {
    // already closed
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}
try {
  await client.connect(transport);
  out.server = client.getServerVersion();
  out.sessionId = transport.sessionId ?? null;
  const listed = await client.listTools();
  out.tools = listed.tools.map((t) => ({ name: t.name, required: t.inputSchema.required ?? [] }));
  await client.ping();
  for (const call of plan) {
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
