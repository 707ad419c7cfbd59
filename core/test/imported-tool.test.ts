import { expect } from 'chai';
import { CapabilityRegistry, IMPORTED_TOOL_DEFAULTS, KEY_PATTERN, adaptInputSchema, compileValidator, createAjv, exampleFor, importTools, importedKey, importedKeys, sanitizeToolName } from '../src/index.js';

describe('core: imported MCP tools', () => {
  describe('key sanitising', () => {
    const cases: Array<[string, string, string]> = [
      ['echo', 'EVERYTHING', 'EVERYTHING_ECHO'],
      ['get-sum', 'EVERYTHING', 'EVERYTHING_GET_SUM'],
      ['getTinyImage', 'EVERYTHING', 'EVERYTHING_GETTINYIMAGE'],
      ['files/read.v2', 'FS', 'FS_FILES_READ_V2'],
      ['--weird  name!!', 'X1', 'X1_WEIRD_NAME'],
      ['a__b', 'S', 'S_A_B'],
      ['ünïcødé', 'S', 'S_UNIC_DE'],
      ['ｆｕｌｌ-width', 'S', 'S_FULL_WIDTH'],
      ['2fa', 'S', 'S_2FA'],
      ['---', 'S', 'S_TOOL'],
      ['', 'S', 'S_TOOL'],
    ];
    for (const [tool, system, key] of cases) {
      it(`${JSON.stringify(tool)} under ${system} → ${key}`, () => {
        expect(importedKey(system, tool)).to.equal(key);
        expect(key).to.match(KEY_PATTERN);
      });
    }

    it('cuts a key that would pass 128 characters and keeps it unique with a hash of the full name', () => {
      const long = 'x'.repeat(200);
      const key = importedKey('SYSTEM', long);
      expect(key).to.have.length.of.at.most(128).and.match(KEY_PATTERN).and.match(/_[0-9A-F]{6}$/);
      expect(importedKey('SYSTEM', `${long}y`)).to.not.equal(key);
      expect(sanitizeToolName('a.b')).to.equal('A_B');
    });

    it('settles names that sanitise alike by code-point order, whatever order the server lists them in', () => {
      const a = importedKeys('S', ['a_b', 'a-b', 'A.B']);
      const b = importedKeys('S', ['A.B', 'a-b', 'a_b']);
      expect([...a.entries()].sort()).to.deep.equal([...b.entries()].sort());
      expect(a.get('A.B')).to.equal('S_A_B'); // 'A' sorts first
      expect(a.get('a-b')).to.match(/^S_A_B_[0-9A-F]{6}$/);
      expect(new Set(a.values()).size).to.equal(3);
    });
  });

  describe('input schema adaptation for our strict Ajv', () => {
    const cases: Array<{ name: string; input: unknown; expect: Record<string, unknown>; simplified?: boolean; valid?: unknown; invalid?: unknown }> = [
      {
        name: 'drops a 2020-12 $schema (this Ajv loads draft-07 only) and keeps the rest',
        input: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        expect: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        valid: { message: 'hi' },
        invalid: {},
      },
      {
        name: 'drops keywords and formats our Ajv does not know',
        input: { type: 'object', properties: { when: { type: 'string', format: 'x-vendor-date', 'x-ui': 'calendar' }, site: { type: 'string', format: 'uri' } } },
        expect: { type: 'object', properties: { when: { type: 'string' }, site: { type: 'string', format: 'uri' } } },
        valid: { when: 'soon', site: 'https://example.com/' },
        invalid: { site: 'not a uri' },
      },
      {
        name: 'turns a type union into anyOf (strictTypes refuses unions)',
        input: { type: 'object', properties: { n: { type: ['string', 'null'], description: 'maybe' } } },
        expect: { type: 'object', properties: { n: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'maybe' } } },
        valid: { n: null },
        invalid: { n: 3 },
      },
      {
        name: 'moves $defs to definitions and rewrites the refs',
        input: { type: 'object', $defs: { id: { type: 'string' } }, properties: { a: { $ref: '#/$defs/id' } } },
        expect: { type: 'object', definitions: { id: { type: 'string' } }, properties: { a: { $ref: '#/definitions/id' } } },
        valid: { a: 'x' },
        invalid: { a: 1 },
      },
      { name: 'a missing schema is an object', input: undefined, expect: { type: 'object' } },
      {
        name: 'falls back to a plain object schema when what is left still does not compile',
        input: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
        expect: { type: 'object' },
        simplified: true,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { schema, simplified } = adaptInputSchema(c.input);
        expect(schema).to.deep.equal(c.expect);
        expect(simplified).to.equal(c.simplified ?? false);
        const validate = compileValidator(createAjv(), schema);
        if (c.valid !== undefined) expect(validate(c.valid)).to.deep.equal([]);
        if (c.invalid !== undefined) expect(validate(c.invalid)).to.not.be.empty;
      });
    }
  });

  it('builds an example from the required properties', () => {
    expect(exampleFor({ type: 'object', properties: { a: { type: 'number', minimum: 3 }, b: { type: 'string', enum: ['x', 'y'] }, c: { type: 'string' } }, required: ['a', 'b'] })).to.deep.equal({ a: 3, b: 'x' });
    expect(exampleFor({ type: 'object', properties: {} })).to.deep.equal({});
  });

  it('maps a tools/list to definitions: defaults for unlisted tools, config for listed ones, all registrable', () => {
    const tools = [
      { name: 'echo', description: 'Echoes back the input', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
      { name: 'get-env', inputSchema: { type: 'object', properties: {} } },
      { name: 'echo', description: 'listed twice' },
      { name: 'careful', title: 'Careful tool' },
    ];
    const { definitions } = importTools({ name: 'everything', system: 'EVERYTHING', tools: { echo: { auth: 'none', risk: 'low', approval: false } }, defaults: { risk: 'low' } }, tools);
    expect(definitions.map((d) => d.key)).to.deep.equal(['EVERYTHING_CAREFUL', 'EVERYTHING_ECHO', 'EVERYTHING_GET_ENV']);
    const byKey = Object.fromEntries(definitions.map((d) => [d.key, d]));
    expect(byKey['EVERYTHING_ECHO']).to.deep.include({ system: 'EVERYTHING', type: 'tool', runner: 'mcp:everything', tool: 'echo', auth: 'none', risk: 'low', approval: false, description: 'Echoes back the input', example: { message: 'example' } });
    expect(byKey['EVERYTHING_GET_ENV']).to.deep.include({ auth: 'required', risk: 'low', approval: true, tool: 'get-env', example: {} });
    expect(byKey['EVERYTHING_CAREFUL']!.description).to.equal('Careful tool');
    expect(IMPORTED_TOOL_DEFAULTS).to.deep.equal({ auth: 'required', risk: 'high', approval: true });
    const registry = new CapabilityRegistry();
    registry.replaceSystem('EVERYTHING', definitions, 'stdio:everything');
    expect(registry.require('EVERYTHING_ECHO').capability.path).to.deep.equal(['OIP', 'EVERYTHING', 'EVERYTHING_ECHO']);
  });

  it('keeps title, annotations, outputSchema and _meta exactly as listed; what a tool leaves out stays out', () => {
    const annotations = { readOnlyHint: true, openWorldHint: false, 'x-vendor': 1 };
    const outputSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const { definitions } = importTools({ name: 'srv', system: 'S' }, [
      { name: 'full', title: 'Full tool', description: 'd', inputSchema: { type: 'object' }, annotations, outputSchema, _meta: { 'a/b': true } },
      { name: 'bare', inputSchema: { type: 'object' } },
    ]);
    expect(definitions.find((d) => d.tool === 'full')).to.deep.include({ title: 'Full tool', annotations, outputSchema, meta: { 'a/b': true } });
    const bare = definitions.find((d) => d.tool === 'bare')!;
    for (const field of ['title', 'annotations', 'outputSchema', 'meta']) expect(bare, field).to.not.have.property(field);
  });

  it('defaults to auth required, risk high and approval when config says nothing', () => {
    const { definitions } = importTools({ name: 'x', system: 'X' }, [{ name: 'anything' }]);
    expect(definitions[0]).to.deep.include({ key: 'X_ANYTHING', auth: 'required', risk: 'high', approval: true, inputs: { type: 'object' } });
  });
});
