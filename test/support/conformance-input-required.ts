// The reference upstream's multi-round-trip tools and prompt (SEP-2322), as the conformance suite's
// input-required-result-* scenarios describe them: each asks with InputRequiredResult and completes
// once the retry carries the answers. Its requestState is HMAC-sealed by the v2 SDK's codec, so a
// tampered one is -32602 before any handler runs.
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, inputRequired, inputResponse, type CallToolResult, type InputRequest, type ServerContext } from '@modelcontextprotocol/server';

type State = { tool: string; step?: number };

/** One key per reference server start: it serves every round itself. */
export const stateCodec = createRequestStateCodec<State>({ key: randomBytes(32), ttlSeconds: 600 });

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const form = (message: string, name: string, type: 'string' | 'boolean') => ({ message, requestedSchema: { type: 'object' as const, properties: { [name]: { type } }, required: [name] } });
const ask = (message: string, name: string, type: 'string' | 'boolean' = 'string'): InputRequest => inputRequired.elicit(form(message, name, type) as never);
const sample = (prompt: string, maxTokens: number): InputRequest => inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens });

export const INPUT_REQUIRED_TOOLS = [
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
].map((name) => ({ name, description: `SEP-2322 ${name.replace('test_input_required_result_', '')}: asks with InputRequiredResult`, inputSchema: { type: 'object', properties: {} } }));

export const INPUT_REQUIRED_PROMPT = { name: 'test_input_required_result_prompt', description: 'A prompt that asks for context first (SEP-2322)' };

/** Whether `name` is one of these tools; then its answer, or an InputRequiredResult. */
export async function callInputRequiredTool(name: string, ctx: ServerContext): Promise<CallToolResult | undefined> {
  const responses = ctx.mcpReq.inputResponses;
  const got = (key: string) => inputResponse(responses, key);
  const accepted = (key: string) => {
    const r = got(key);
    return r.kind === 'elicit' && r.action === 'accept' ? r.content : undefined;
  };
  const state = ctx.mcpReq.requestState<State>();
  const mint = async (s: State) => stateCodec.mint(s, ctx);
  switch (name) {
    case 'test_input_required_result_elicitation': {
      const who = accepted('user_name');
      if (typeof who?.['name'] !== 'string') return inputRequired({ inputRequests: { user_name: ask('What is your name?', 'name') } }) as never;
      return text(`Hello, ${who['name']}!`);
    }
    case 'test_input_required_result_sampling': {
      const r = got('capital_question');
      if (r.kind !== 'sampling') return inputRequired({ inputRequests: { capital_question: sample('What is the capital of France?', 100) } }) as never;
      return text(`Sampled: ${JSON.stringify(r.result.content)}`);
    }
    case 'test_input_required_result_list_roots': {
      const r = got('client_roots');
      if (r.kind !== 'roots') return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } }) as never;
      return text(`Roots: ${r.roots.map((root) => root.uri).join(', ')}`);
    }
    case 'test_input_required_result_request_state':
    case 'test_input_required_result_tampered_state': {
      if (state?.tool === name && got('confirm').kind === 'elicit') return text('Confirmed: state-ok');
      return inputRequired({ inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') }, requestState: await mint({ tool: name }) }) as never;
    }
    case 'test_input_required_result_multiple_inputs': {
      if (state?.tool === name && got('user_name').kind === 'elicit' && got('greeting').kind === 'sampling' && got('client_roots').kind === 'roots') return text('All inputs received');
      return inputRequired({
        inputRequests: { user_name: ask('What is your name?', 'name'), greeting: sample('Generate a greeting', 50), client_roots: inputRequired.listRoots() },
        requestState: await mint({ tool: name }),
      }) as never;
    }
    case 'test_input_required_result_multi_round': {
      if (state?.tool === name && state.step === 1 && accepted('step1')) {
        return inputRequired({ inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color') }, requestState: await mint({ tool: name, step: 2 }) }) as never;
      }
      if (state?.tool === name && state.step === 2 && accepted('step2')) return text('Both steps answered');
      return inputRequired({ inputRequests: { step1: ask('Step 1: What is your name?', 'name') }, requestState: await mint({ tool: name, step: 1 }) }) as never;
    }
    case 'test_input_required_result_capabilities': {
      // Only what this request's client declared is asked.
      const declared = ((ctx.mcpReq.envelope ?? {}) as Record<string, { elicitation?: unknown; sampling?: unknown } | undefined>)['io.modelcontextprotocol/clientCapabilities'] ?? {};
      if (got('capability_sample').kind === 'sampling' || got('capability_ask').kind === 'elicit') return text('Capabilities respected');
      const inputRequests: Record<string, InputRequest> = {};
      if (declared.sampling !== undefined) inputRequests['capability_sample'] = sample('Say anything', 10);
      if (declared.elicitation !== undefined) inputRequests['capability_ask'] = ask('Anything?', 'value');
      if (Object.keys(inputRequests).length === 0) return text('Nothing to ask: no capability declared');
      return inputRequired({ inputRequests }) as never;
    }
    default:
      return undefined;
  }
}

/** prompts/get of the asking prompt: InputRequiredResult, then the prompt with the given context. */
export function getInputRequiredPrompt(ctx: ServerContext) {
  const r = inputResponse(ctx.mcpReq.inputResponses, 'user_context');
  if (r.kind !== 'elicit' || r.action !== 'accept') return inputRequired({ inputRequests: { user_context: ask('What context should the prompt use?', 'context') } });
  return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Context: ${String(r.content?.['context'] ?? '')}` } }] };
}
