// Answers of the discovery queries: ask (plain-language lookup) and build (the whole registry as one map).
import { ROOT, SwitchyardError, counted, describe, markdownText, systemArticleMarkdown, rootMapMarkdown, type AskAnswer, type BuildMap, type CapabilityRegistry } from '@switchyard/core';
import { contractUrl, didYouMeanLinks } from './presenters.js';

export const ASK_MAX_LENGTH = 500;
export const ASK_MAX_LIMIT = 20;

/** limit=1..20 (default 5); anything else is a coded error, never silently clamped. */
export function askLimit(raw: string | undefined): number {
  if (raw === undefined) return 5;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > ASK_MAX_LIMIT) throw new SwitchyardError('invalid_request', `limit must be an integer from 1 to ${ASK_MAX_LIMIT}`, { limit: raw });
  return n;
}

export function checkQuestion(question: string): string {
  const q = question.trim();
  if (!q) throw new SwitchyardError('invalid_request', 'ask needs a question or a key: ?ask=rename a group');
  if (q.length > ASK_MAX_LENGTH) throw new SwitchyardError('invalid_request', `ask takes at most ${ASK_MAX_LENGTH} characters`, { length: q.length });
  return q;
}

export function askJson(registry: CapabilityRegistry, question: string, answer: AskAnswer, baseUrl: string, token?: string) {
  return {
    ok: true,
    ask: question,
    key_shaped: answer.keyShaped,
    exact: answer.exact,
    count: answer.hits.length,
    matches: answer.hits.map((h) => {
      const self = describe(registry.require(h.key).capability, baseUrl, token);
      return {
        key: h.key,
        path: h.path,
        description: h.description,
        score: h.score,
        matched: h.matched,
        terms: h.terms,
        'auth · risk': self['auth · risk'],
        'Example call': self['Example call'],
        contract: contractUrl(baseUrl, h.key),
        contract_markdown: contractUrl(baseUrl, h.key, true),
        run_now: self.run_now,
      };
    }),
    ...(answer.didYouMean.length ? { did_you_mean: didYouMeanLinks(answer.didYouMean, baseUrl) } : {}),
    registry: `${baseUrl}/api/dispatch?registry=1`,
    note: 'ask never runs anything; open a contract, then run with run_now or POST /api/dispatch',
  };
}

export function askMarkdown(registry: CapabilityRegistry, question: string, answer: AskAnswer, baseUrl: string, token?: string): string {
  // The question is the caller's text: escaped, so no link or HTML of theirs is echoed as markdown.
  const lines = [`# Ask: ${markdownText(question)}`, ''];
  if (answer.hits.length === 0) lines.push('No capability matches.', '');
  answer.hits.forEach((h, i) => {
    const self = describe(registry.require(h.key).capability, baseUrl, token);
    lines.push(`${i + 1}. **${h.key}** (${h.path.join(' > ')}): ${h.description}`, `   - auth · risk: ${self['auth · risk']}`, `   - contract: ${contractUrl(baseUrl, h.key, true)}`, `   - run_now: ${self.run_now}`);
  });
  if (answer.didYouMean.length) lines.push('', `No capability is named ${markdownText(question)}. Did you mean: ${answer.didYouMean.map((k) => `${k} (${contractUrl(baseUrl, k, true)})`).join(', ')}?`);
  lines.push('', `Every capability: ${baseUrl}/api/dispatch?registry=1`, '');
  return lines.join('\n');
}

export function buildJson(build: BuildMap, baseUrl: string, token?: string) {
  return {
    ok: true,
    root: build.root,
    terminal_key: build.terminalKey,
    count: build.count,
    systems: build.systems.map((s) => ({
      system: s.system,
      path: [ROOT, s.system],
      article: `${baseUrl}/api/dispatch?map=${s.system}&format=markdown`,
      capabilities: s.capabilities.map((c) => ({ key: c.key, ...describe(c, baseUrl, token) })),
    })),
  };
}

export function buildMarkdown(build: BuildMap, baseUrl: string): string {
  return [
    rootMapMarkdown(build.root, build.systems, baseUrl).trimEnd(),
    '',
    `Terminal key: \`${build.terminalKey}\` (${counted(build.count, 'capability', 'capabilities')})`,
    '',
    ...build.systems.map((s) => systemArticleMarkdown(s, baseUrl).replace(/^# /, '## ').replace(/\n## /g, '\n### ')),
  ].join('\n');
}
