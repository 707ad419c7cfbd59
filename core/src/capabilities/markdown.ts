// Markdown renderings of contracts, the root map and system articles (format=markdown).
import type { Capability, SystemNode } from './capability.js';
import { counted } from '../counted.js';
import { describe, exampleBody } from './self-description.js';

const fence = (lang: string, text: string): string => `\`\`\`${lang}\n${text}\n\`\`\``;

/**
 * Text from outside (a question, a slug, a title) placed inside markdown: every character that could
 * open a link or an image (`[`), an autolink or raw HTML (`<`), emphasis, code or a table cell is
 * escaped (CommonMark lets any ASCII punctuation be escaped), and line breaks fold to spaces, so the text stays one line
 * of literal words in any renderer: `[x](javascript:…)` and `<script>` arrive as themselves.
 */
export const markdownText = (text: string): string => text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');

export function contractMarkdown(c: Capability, baseUrl: string, token?: string): string {
  const d = describe(c, baseUrl, token);
  const lines = [
    `# ${c.key}`,
    '',
    c.description,
    '',
    '| Field | Value |',
    '|---|---|',
    `| Path | ${d.Path} |`,
    `| Capability | ${d.Capability.replace(/\|/g, '\\|')} |`,
    `| run_now | ${d.run_now} |`,
    `| Example call | \`${d['Example call']}\` |`,
    `| type · runner | ${d['type · runner']} |`,
    `| auth · risk | ${d['auth · risk']} |`,
    `| From the router | \`[${c.key}]<args>[/${c.key}]\` in text sent to POST ${baseUrl}/api/route |`,
    ...(c.limits?.plan ? [`| plan | ${c.limits.plan} |`] : []),
    '',
    '## inputs',
    '',
    fence('json', JSON.stringify(c.inputs, null, 2)),
    '',
    '## outputs',
    '',
    ...Object.entries(d.outputs).map(([k, v]) => `- \`${k}\`: ${v}`),
    '',
    ...toolSection(c),
    '## Run it',
    '',
    "With the owner's API key in `SWITCHYARD_API_KEY` (`export SWITCHYARD_API_KEY=sy_…`, the key printed at first start):",
    '',
    fence('sh', [
      `curl -s -X POST ${baseUrl}/api/dispatch \\`,
      // Double quotes, so the shell puts the key in; the key itself is never printed in a contract.
      `  -H 'content-type: application/json' -H "x-sheets-key: $SWITCHYARD_API_KEY" \\`,
      `  -d '${JSON.stringify({ key: c.key, body: exampleBody(c) }).replace(/'/g, "'\\''")}'`,
    ].join('\n')),
    '',
    'A failed run answers ok false with the invocation id; fix the body and send it again with',
    '`"repairs": "<inv_id>"` so the lineage closes.',
    '',
  ];
  return lines.join('\n');
}

/** The MCP tool's own words, when it declared any: title, annotations, output schema, _meta. */
function toolSection(c: Capability): string[] {
  if (c.title === undefined && c.annotations === undefined && c.outputSchema === undefined && c.meta === undefined && c.definition_hash === undefined) return [];
  return [
    '## MCP tool',
    '',
    ...(c.definition_hash !== undefined ? [`Definition hash (pinned in the ledger): ${c.definition_hash}`, ''] : []),
    ...(c.title !== undefined ? [`Title: ${c.title}`, ''] : []),
    ...(c.annotations !== undefined ? ['Annotations:', '', fence('json', JSON.stringify(c.annotations, null, 2)), ''] : []),
    ...(c.outputSchema !== undefined ? ['Output schema (of structuredContent):', '', fence('json', JSON.stringify(c.outputSchema, null, 2)), ''] : []),
    ...(c.meta !== undefined ? ['_meta:', '', fence('json', JSON.stringify(c.meta, null, 2)), ''] : []),
  ];
}

export function rootMapMarkdown(root: string, systems: SystemNode[], baseUrl: string): string {
  const lines = [`# ${root}`, ''];
  for (const s of systems) {
    lines.push(`- ${s.system} (${baseUrl}/api/dispatch?map=${s.system}&format=markdown)`);
    for (const c of s.capabilities) lines.push(`  - ${c.key}: ${c.description.split('. ')[0]} (${baseUrl}/api/dispatch?key=${c.key}&format=markdown)`);
  }
  lines.push('');
  return lines.join('\n');
}

export function systemArticleMarkdown(system: SystemNode, baseUrl: string): string {
  const lines = [`# ${system.system}`, '', `${counted(system.capabilities.length, 'capability', 'capabilities')} under ${system.capabilities[0]?.path.slice(0, 2).join(' > ') ?? system.system}.`, ''];
  for (const c of system.capabilities) {
    const d = describe(c, baseUrl);
    lines.push(`## ${c.key}`, '', c.description, '', `- type · runner: ${d['type · runner']}`, `- auth · risk: ${d['auth · risk']}`, `- Example call: \`${d['Example call']}\``, `- Contract: ${baseUrl}/api/dispatch?key=${c.key}&format=markdown`, '');
  }
  return lines.join('\n');
}
