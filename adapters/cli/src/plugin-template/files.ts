// The files of a new plugin package, as `switchyard plugin new` writes them: manifest, runner, simulator, contract test, README.
export interface PluginTemplate {
  /** Config name: plugins.<name>. */
  name: string;
  /** Upper-case system, the first part of every key. */
  system: string;
  /** npm package name. */
  packageName: string;
  /** Version spec of @switchyard/plugin-kit in package.json (a registry range, or file:… for a checkout). */
  kit: string;
  /** An MCP upstream with a bundled simulator (type tool), or a capability that runs in the service (type fn). */
  simulator: boolean;
}

/**
 * What a plugin compiles with: the versions this repository builds with, so that in its plugins/
 * the root install finds them already there (adapters/cli/test/plugin-template.test.ts holds them equal).
 */
export const BUILD_TOOLS = { typescript: '~5.9.3', '@types/node': '^20.19.0' } as const;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export function pluginFiles(t: PluginTemplate): Record<string, string> {
  const key = `${t.system}_CREATE_NOTE`;
  const files: Record<string, string> = {
    'package.json': json({
      name: t.packageName,
      version: '0.1.0',
      type: 'module',
      description: `${t.system} capabilities for Switchyard`,
      // npm start runs plain Node, so it loads dist/ (which prepare compiles on npm install);
      // npm run dev and the tests of a Switchyard checkout read src/ (the switchyard-source condition).
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { 'switchyard-source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist', 'src'],
      scripts: { build: 'tsc', prepare: 'switchyard-plugin-build', test: 'switchyard-plugin-test' },
      dependencies: { '@switchyard/plugin-kit': t.kit },
      devDependencies: { ...BUILD_TOOLS },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        rootDir: 'src',
        outDir: 'dist',
        declaration: true,
        sourceMap: true,
      },
      include: ['src'],
    }),
    '.gitignore': 'node_modules/\ndist/\n*.tsbuildinfo\n',
    'src/manifest.ts': `// ${t.system} capabilities: what each one takes (schema), who may run it (auth) and how much harm it can do (risk).
import type { CapabilityDefinition } from '@switchyard/plugin-kit';

export const SYSTEM = '${t.system}';
export const RUNNER = '${t.name}';
export const CREATE_NOTE_TOOL = 'create_note';

export const capabilities: CapabilityDefinition[] = [
  {
    key: '${key}',
    system: SYSTEM,
    description: 'Creates a note with a title and an optional body; answers the note with its id',
    type: '${t.simulator ? 'tool' : 'fn'}',
    runner: RUNNER,${t.simulator ? '\n    tool: CREATE_NOTE_TOOL,' : ''}
    inputs: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 200, description: 'what the note is about' },
        body: { type: 'string', maxLength: 10000, default: '', description: 'the note itself' },
      },
      required: ['title'],
      additionalProperties: false,
    },
    // auth 'required': only callers with a key or token may run it; risk 'high' with approval: true holds each run for an owner.
    auth: 'none',
    risk: 'low',
    approval: false,
    // What MCP clients are told of it: it writes (not read-only), adds rather than overwrites, and a
    // second identical call makes a second note; it reaches outside Switchyard (its upstream).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    cost: { perRunMicros: 1000 },
    example: { title: 'Printer on fire', body: 'Third floor, by the stairs.' },
  },
];
`,
    'src/options.ts': `// plugins.${t.name} in config: checked against optionsSchema when Switchyard loads the plugin.
import { ${t.simulator ? 'upstreamOptionsSchema, ' : ''}type JsonSchema${t.simulator ? ', type UpstreamSetting' : ''} } from '@switchyard/plugin-kit';

export interface ${pascal(t.name)}Options {
${t.simulator ? `  /** "simulator" starts the bundled one on loopback; a URL names a real server. */\n  upstream: UpstreamSetting;\n  /** Settings of the simulator. */\n  simulator?: { firstId?: number };\n` : ''}  /** Prepended to every note's title. */
  titlePrefix: string;
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
${t.simulator ? `    upstream: upstreamOptionsSchema('streamable-http'),\n    simulator: { type: 'object', properties: { firstId: { type: 'integer', minimum: 1 } }, additionalProperties: false },\n` : ''}    titlePrefix: { type: 'string', maxLength: 40, default: '' },
  },
${t.simulator ? "  required: ['upstream'],\n" : ''}  additionalProperties: false,
};
`,
    'src/runner.ts': t.simulator
      ? `// The runner: each capability is one call to its upstream MCP tool, the title prefixed as configured.
import { ToolRunner, type Capability, type CapabilityRunner, type RunContext, type PluginHost } from '@switchyard/plugin-kit';
import type { ${pascal(t.name)}Options } from './options.js';

export class ${pascal(t.name)}Runner implements CapabilityRunner {
  private readonly tool: ToolRunner;

  constructor(private readonly host: PluginHost<${pascal(t.name)}Options>) {
    if (!host.upstream) throw new Error('plugins.${t.name}.upstream.url is not set');
    this.tool = new ToolRunner(host.tools, host.upstream);
  }

  async run(capability: Capability, args: unknown, context: RunContext): Promise<unknown> {
    const { title, ...rest } = args as { title: string };
    return this.tool.run(capability, { ...rest, title: this.host.options.titlePrefix + title }, context);
  }
}
`
      : `// The runner: the capability runs here, in the service (type fn); throw SwitchyardError with a code for each way it can fail.
import { randomUUID } from 'node:crypto';
import type { Capability, CapabilityRunner, PluginHost } from '@switchyard/plugin-kit';
import type { ${pascal(t.name)}Options } from './options.js';

export class ${pascal(t.name)}Runner implements CapabilityRunner {
  constructor(private readonly host: PluginHost<${pascal(t.name)}Options>) {}

  async run(_capability: Capability, args: unknown): Promise<unknown> {
    const { title, body } = args as { title: string; body: string };
    return { id: randomUUID(), title: this.host.options.titlePrefix + title, body };
  }
}
`,
    'src/index.ts': `// The ${t.system} plugin: what Switchyard loads from plugins.${t.name} (see README.md).
import { definePlugin } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { optionsSchema, type ${pascal(t.name)}Options } from './options.js';
import { ${pascal(t.name)}Runner } from './runner.js';
${t.simulator ? `import { start${pascal(t.name)}Simulator } from './simulator.js';\n` : ''}
export const ${camel(t.name)}Plugin = definePlugin<${pascal(t.name)}Options>({
  name: '${t.name}',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
${t.simulator ? `  transport: 'streamable-http',\n  upstream: (options) => options.upstream,\n  simulatorSettings: (options) => options.simulator,\n  startSimulator: start${pascal(t.name)}Simulator,\n` : ''}  createRunner: (host) => new ${pascal(t.name)}Runner(host),
});

export default ${camel(t.name)}Plugin;
export * from './manifest.js';
`,
    'test/contract.test.ts': `// The plugin contract suite from the kit, run against this plugin${t.simulator ? ' on its simulator' : ''}, and this plugin's own behaviour.
import { OWNER, expect, examplesOf, invalidFromSchemas, pluginContract, startPluginHarness } from '@switchyard/plugin-kit/testing';
import { ${camel(t.name)}Plugin } from '../src/index.js';

const OPTIONS = { ${t.simulator ? "upstream: { url: 'simulator' }, " : ''}titlePrefix: '[test] ' };

pluginContract(${camel(t.name)}Plugin, {
  start: () => startPluginHarness(${camel(t.name)}Plugin, OPTIONS),
  valid: { ...examplesOf(${camel(t.name)}Plugin.capabilities), ${key}: [{ title: 'a' }, '{"title":"from a JSON body"}'] },
  invalid: { ...invalidFromSchemas(${camel(t.name)}Plugin.capabilities) },
});

describe('plugin ${t.name}', function () {
  it('prefixes the title as configured${t.simulator ? ', through its simulator' : ''}', async function () {
    const h = await startPluginHarness(${camel(t.name)}Plugin, OPTIONS);
    try {
      const { invocation } = await h.dispatch.dispatch({ key: '${key}', body: { title: 'Printer on fire' } }, OWNER);
      expect(invocation.ok, JSON.stringify(invocation.error)).to.equal(true);
      expect(invocation.result).to.deep.include({ title: '[test] Printer on fire', body: '' });
    } finally {
      await h.close();
    }
  });

  it('refuses a bad option at load, naming its key', function () {
    expect(() => ${camel(t.name)}Plugin.validateOptions({ ...OPTIONS, titlePrefix: 7 })).to.throw('plugins.${t.name}.titlePrefix');
  });
});
`,
    'README.md': readme(t, key),
  };
  if (t.simulator) {
    files['src/simulator.ts'] = `// The ${t.system} upstream simulator: a real MCP server over streamable HTTP with believable state, for development and tests.
import { z, McpServer, hostMcpServer } from '@switchyard/plugin-kit/simulator';
import type { RunningSimulator } from '@switchyard/plugin-kit';
import { CREATE_NOTE_TOOL } from './manifest.js';

/** Notes live as long as the simulator; ids count up from settings.firstId. */
export async function start${pascal(t.name)}Simulator(options: { host: string; port: number; settings?: Record<string, unknown> }): Promise<RunningSimulator> {
  let next = typeof options.settings?.['firstId'] === 'number' ? options.settings['firstId'] : 1;
  const createServer = (): McpServer => {
    const server = new McpServer({ name: '${t.name}-simulator', version: '0.1.0' });
    server.registerTool(
      CREATE_NOTE_TOOL,
      { description: 'Creates a note', inputSchema: { title: z.string().min(1).max(200), body: z.string().max(10000).default('') } },
      async ({ title, body }) => {
        const note = { id: \`note_\${next++}\`, title, body };
        return { content: [{ type: 'text', text: JSON.stringify(note) }], structuredContent: note };
      },
    );
    return server;
  };
  return hostMcpServer({ host: options.host, port: options.port, transport: 'streamable-http', path: '/mcp', createServer });
}
`;
  }
  return files;
}

function pascal(name: string): string {
  return name.split(/[-_]/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
}

function camel(name: string): string {
  const p = pascal(name);
  return p[0]!.toLowerCase() + p.slice(1);
}

function readme(t: PluginTemplate, key: string): string {
  return `# ${t.packageName}

${t.system} capabilities for Switchyard: \`${key}\`${t.simulator ? ', run against an MCP upstream (a bundled simulator by default)' : ', run in the service'}.

## Build and test

\`\`\`sh
npm install     # also builds: its prepare script compiles src/ to dist/
npm test        # the kit's plugin contract suite and this plugin's own tests (on src/)
npm run build   # compiles again after a change to src/
\`\`\`

## Load it into Switchyard

In the service's config (\`SWITCHYARD_CONFIG\` file), name the package by path or by name:

\`\`\`json
{ "plugins": { "${t.name}": { "from": "/path/to/${t.packageName}"${t.simulator ? ', "upstream": { "url": "simulator" }' : ''} } } }
\`\`\`

\`npm start\` (compiled JavaScript) loads \`dist/\`; \`npm run dev\` loads \`src/\` as it is.
\`from\` takes a path (\`./\` or \`/\`), a package installed beside Switchyard, or, for a folder under
Switchyard's \`plugins/\`, its package name. The other keys are this plugin's options
(\`src/options.ts\`); a bad value stops the start and names its key. In \`plugins/<name>\` of a
Switchyard checkout, the checkout's own \`npm install\` (or \`npm run build\` at its root) compiles it
with the rest.
${t.simulator ? `
## Real upstream

Replace \`"simulator"\` with the server's streamable HTTP URL; \`headers\` carries its credentials:
\`"upstream": { "url": "https://notes.example.com/mcp", "headers": { "authorization": "Bearer …" } }\`.
` : ''}`;
}
