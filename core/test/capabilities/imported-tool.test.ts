import { expect } from 'chai';
import { CapabilityRegistry, IMPORTED_TOOL_DEFAULTS, KEY_PATTERN, UNVALIDATED_NOTE, dialectsOf, exampleFor, importTools, importedKey, importedKeys, sanitizeToolName } from '../../src/index.js';

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

  describe('input schemas pass through verbatim and are checked in their own dialect', () => {
    const TWENTY = 'https://json-schema.org/draft/2020-12/schema';
    const cases: Array<{ name: string; input: Record<string, unknown>; unvalidated?: boolean; valid?: unknown[]; invalid?: unknown[] }> = [
      {
        name: 'a 2020-12 schema keeps $schema, $defs and its refs; prefixItems and unevaluatedProperties are enforced',
        input: {
          $schema: TWENTY,
          type: 'object',
          $defs: { id: { type: 'string', minLength: 2 } },
          properties: { a: { $ref: '#/$defs/id' }, pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false } },
          required: ['a'],
          unevaluatedProperties: false,
        },
        valid: [{ a: 'xy' }, { a: 'xy', pair: ['k', 1] }],
        invalid: [{}, { a: 'x' }, { a: 'xy', pair: ['k', 'v'] }, { a: 'xy', pair: ['k', 1, 2] }, { a: 'xy', extra: 1 }],
      },
      {
        name: 'without $schema it is 2020-12 (MCP\'s default): dependentRequired is enforced',
        input: { type: 'object', properties: { card: { type: 'string' }, cvc: { type: 'string' } }, dependentRequired: { card: ['cvc'] } },
        valid: [{ card: '4242', cvc: '123' }, {}],
        invalid: [{ card: '4242' }],
      },
      {
        name: 'a draft-07 schema is checked as draft-07: tuple items and additionalItems',
        input: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } }, definitions: { n: { type: 'integer' } } },
        valid: [{ t: ['a'] }],
        invalid: [{ t: ['a', 'b'] }, { t: [1] }],
      },
      {
        name: 'a type union, vendor keywords and an unknown format are kept and do not stop the check',
        input: { type: 'object', properties: { n: { type: ['string', 'null'], 'x-ui': 'calendar' }, when: { type: 'string', format: 'x-vendor-date' }, site: { type: 'string', format: 'uri' } } },
        valid: [{ n: null, when: 'soon', site: 'https://example.com/' }],
        invalid: [{ n: 3 }, { site: 'not a uri' }],
      },
      {
        name: 'a schema no validator here compiles (a $ref to nowhere) is served as given; the upstream validates',
        input: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        unvalidated: true,
        valid: [{ a: 1 }, { anything: true }],
      },
      {
        name: 'a dialect we have no validator of (draft-04) is served as given; the upstream validates',
        input: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        unvalidated: true,
        valid: [{}],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const listed = structuredClone(c.input);
        const { definitions, simplified } = importTools({ name: 'srv', system: 'S' }, [{ name: 'tool', inputSchema: listed }]);
        const [definition] = definitions;
        expect(definition!.inputs).to.deep.equal(c.input);
        expect(simplified).to.deep.equal(c.unvalidated ? ['tool'] : []);
        expect(definition!.limits?.notes ?? []).to.deep.equal(c.unvalidated ? [UNVALIDATED_NOTE] : []);
        const registry = new CapabilityRegistry();
        registry.replaceSystem('S', definitions);
        for (const args of c.valid ?? []) expect(registry.require('S_TOOL').validate(structuredClone(args)), JSON.stringify(args)).to.deep.equal([]);
        for (const args of c.invalid ?? []) expect(registry.require('S_TOOL').validate(structuredClone(args)), JSON.stringify(args)).to.not.be.empty;
        // What callers are shown is still the schema as listed.
        expect(registry.require('S_TOOL').capability.inputs).to.deep.equal(c.input);
      });
    }

    it('names the dialects to try from $schema', () => {
      expect(dialectsOf({})).to.deep.equal(['2020-12', 'draft-07']);
      expect(dialectsOf({ $schema: `${TWENTY}#` })).to.deep.equal(['2020-12']);
      expect(dialectsOf({ $schema: 'https://json-schema.org/draft-07/schema' })).to.deep.equal(['draft-07']);
      expect(dialectsOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).to.deep.equal([]);
      expect(dialectsOf({ $schema: 7 })).to.deep.equal([]);
    });

    it('two tools that reuse one $id for different schemas are both checked by their own', () => {
      const { definitions, simplified } = importTools({ name: 'srv', system: 'S' }, [
        { name: 'one', inputSchema: { $id: 'https://example.com/args.json', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
        { name: 'two', inputSchema: { $id: 'https://example.com/args.json', type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] } },
      ]);
      expect(simplified).to.deep.equal([]);
      const registry = new CapabilityRegistry();
      registry.replaceSystem('S', definitions);
      expect(registry.require('S_ONE').validate({ a: 'x' })).to.deep.equal([]);
      expect(registry.require('S_TWO').validate({ b: 1 })).to.deep.equal([]);
      expect(registry.require('S_TWO').validate({ a: 'x' })).to.not.be.empty;
    });

    it('our own capabilities stay on the strict draft-07 Ajv: an unknown keyword is refused at registration', () => {
      const registry = new CapabilityRegistry();
      expect(() => registry.register({ key: 'OWN_THING', system: 'OWN', description: 'd', type: 'fn', runner: 'x', inputs: { type: 'object', 'x-ui': 1 } } as never)).to.throw(/does not compile/);
    });
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
