// The shell snippets of the README, docs/, the starter articles (content/) and every capability's
// markdown contract run as pasted: each is run in bash against a real service listening on
// loopback, with the variables the docs' convention names exported first (SWITCHYARD_URL and
// SWITCHYARD_API_KEY). A snippet passes when it exits 0, every HTTP answer it gets is a success and
// nothing it prints says "ok": false, unless the snippet says otherwise in a comment ("# answers 422 …").
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

/** The convention every doc with runnable snippets states before its first one. */
const CONVENTION = 'export SWITCHYARD_URL=http://127.0.0.1:8080 SWITCHYARD_API_KEY=';

/** Error codes that would mean a snippet sent a wrong request, not that a run went wrong. */
const REQUEST_FAULTS = ['invalid_request', 'unsupported_media_type', 'unknown_capability', 'invalid_api_key', 'credential_required', 'scope_denied', 'token_corrupted', 'token_expired', 'invalid_arguments', 'payload_too_large'];

interface Snippet {
  /** The file (or contract) and line the snippet starts on, for messages. */
  where: string;
  code: string;
  /** Offset of the fence in its document. */
  offset: number;
}

/** The fenced sh/bash/shell blocks of a markdown text. */
function shellSnippets(markdown: string, name: string): Snippet[] {
  const out: Snippet[] = [];
  for (const m of markdown.matchAll(/^```(?:sh|bash|shell)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const line = markdown.slice(0, m.index).split('\n').length + 1;
    out.push({ where: `${name}:${line}`, code: m[1]!, offset: m.index! });
  }
  return out;
}

/**
 * The single-quoted stretches of a shell text (comments skipped), where the shell expands nothing:
 * a `$VAR` there is sent literally.
 */
function singleQuoted(code: string): string[] {
  const quoted: string[] = [];
  let state: 'plain' | 'single' | 'double' = 'plain';
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (state === 'single') {
      if (c === "'") {
        quoted.push(code.slice(start, i));
        state = 'plain';
      }
    } else if (c === '\\') {
      i += 1;
    } else if (state === 'double') {
      if (c === '"') state = 'plain';
    } else if (c === '"') {
      state = 'double';
    } else if (c === "'") {
      state = 'single';
      start = i + 1;
    } else if (c === '#' && (i === 0 || /\s/.test(code[i - 1]!))) {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
    }
  }
  return quoted;
}

const DOC_FILES = ['README.md', ...readdirSync(join(PROJECT_ROOT, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`), ...readdirSync(join(PROJECT_ROOT, 'content')).filter((n) => n.endsWith('.md')).map((n) => `content/${n}`)];
const DOCS = DOC_FILES.map((file) => ({ file, text: readFileSync(join(PROJECT_ROOT, file), 'utf8') }));

/**
 * Snippets that install, start or test the service, or state the convention, are not run here: the
 * test is the running service. Every other snippet is.
 */
const SETUP_LINE = /^\s*(#.*)?$|^(npm |createdb |(DATABASE_URL|PATH)=\S+ npm |export SWITCHYARD_URL=)/;
const runnable = (s: Snippet) => !s.code.split('\n').every((line) => SETUP_LINE.test(line));

/** HTTP statuses a snippet announces in a comment, e.g. "# answers 422 invalid_arguments". */
const announced = (code: string): number[] => [...code.matchAll(/#.*\banswers (\d{3})\b/g)].map((m) => Number(m[1]));

interface Outcome {
  /** Exit status of the script: 0 when every snippet ran through. */
  code: number | null;
  /** Per snippet: its stdout, stderr and the HTTP answers curl received. */
  runs: Array<{ done: boolean; stdout: string; stderr: string; answers: Array<{ status: number; url: string }> }>;
}

// curl as the snippets call it, plus one line per answer on stderr: its status and address.
const PRELUDE = `set -eo pipefail
curl() { command curl --max-time 30 -w '%{stderr}\\n@@http %{http_code} %{url_effective}\\n' "$@"; }
`;

/** Runs snippets one after another in one bash (variables carry over, as in a terminal). */
function runSnippets(snippets: Snippet[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-snippets-out-'));
  const script = [PRELUDE, ...snippets.map((s, i) => `{\n${s.code}\n} >${join(dir, `${i}.out`)} 2>${join(dir, `${i}.err`)}\ntouch ${join(dir, `${i}.done`)}\n`)].join('\n');
  writeFileSync(join(dir, 'script.sh'), script);
  const proc = spawn('bash', [join(dir, 'script.sh')], { cwd, env, stdio: 'ignore' });
  return new Promise((resolve) =>
    proc.once('close', (code) => {
      const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
      const runs = snippets.map((_s, i) => {
        const err = read(`${i}.err`);
        const answers = [...err.matchAll(/^@@http (\d{3}) (\S*)$/gm)].map((m) => ({ status: Number(m[1]), url: m[2]! }));
        return { done: existsSync(join(dir, `${i}.done`)), stdout: read(`${i}.out`), stderr: err.replace(/^@@http .*\n?/gm, ''), answers };
      });
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, runs });
    }),
  );
}

/** Asserts each snippet ran through and got only the answers it announces. */
function expectRanAsPasted(snippets: Snippet[], outcome: Outcome): void {
  snippets.forEach((s, i) => {
    const run = outcome.runs[i]!;
    const context = `${s.where}\n${s.code}\n--- stdout\n${run.stdout.slice(0, 2000)}\n--- stderr\n${run.stderr.slice(0, 2000)}`;
    expect(run.done, `did not run through: ${context}`).to.equal(true);
    const allowed = announced(s.code);
    for (const a of run.answers) {
      if (allowed.includes(a.status)) continue;
      expect(a.status, `${a.url} answered ${a.status}: ${context}`).to.be.within(200, 299);
    }
    for (const status of allowed) expect(run.answers.map((a) => a.status), `announced ${status}: ${context}`).to.include(status);
    // Clients other than curl (the switchyard CLI, the MCP inspector) show their answers on stdout.
    expect(run.answers.length > 0 || run.stdout.trim().length > 0, `talks to nothing: ${context}`).to.equal(true);
    if (!allowed.length) expect(run.stdout, `a failure on stdout: ${context}`).to.not.match(/"ok":\s*false|"isError":\s*true/);
  });
  expect(outcome.code).to.equal(0);
}

describe('snippets in the docs (static)', () => {
  const all = DOCS.flatMap((d) => shellSnippets(d.text, d.file));

  it('finds the snippets: some in README.md, docs/ and content/', () => {
    for (const prefix of ['README.md', 'docs/', 'content/']) expect(all.filter((s) => s.where.startsWith(prefix) && runnable(s)).length, prefix).to.be.greaterThan(0);
  });

  it('expands every variable: no $VAR inside single quotes', () => {
    for (const s of all) for (const q of singleQuoted(s.code)) expect(q, `${s.where}: '${q}'`).to.not.match(/\$[A-Za-z_{(]/);
    expect(singleQuoted(`curl -H 'x: $KEY' "a'b" # it's\necho '$(x)'`)).to.deep.equal(['x: $KEY', '$(x)']);
  });

  it('names the service by $SWITCHYARD_URL, never a fixed address, and holds no placeholders where it runs', () => {
    for (const s of all) {
      // The convention's own line is the one place the default address is written.
      const code = s.code.split('\n').filter((l) => !l.startsWith(CONVENTION)).join('\n');
      expect(code, s.where).to.not.match(/https?:\/\/(127\.0\.0\.1|localhost)|(127\.0\.0\.1|localhost):8080/);
      if (runnable(s)) expect(s.code, s.where).to.not.match(/…|\{base_url\}|<[A-Z_]+>/);
    }
  });

  it('states the convention at the top of every doc with runnable snippets, before the first one', () => {
    for (const d of DOCS) {
      const first = shellSnippets(d.text, d.file).find(runnable);
      if (!first) continue;
      const at = d.text.indexOf(CONVENTION);
      expect(at, `${d.file} does not state: ${CONVENTION}…`).to.be.within(0, first.offset);
    }
  });
});

for (const engine of engines()) {
  describe(`snippets run as pasted against a listening service (${engine})`, function () {
    this.timeout(180_000);
    let svc: ListeningService;
    let cwd: string;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      svc = await startListeningService(engine);
      // A folder where Switchyard is installed: its node_modules (npx switchyard, the MCP inspector).
      cwd = mkdtempSync(join(tmpdir(), 'switchyard-snippets-'));
      symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(cwd, 'node_modules'), 'dir');
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SWITCHYARD_')));
      env = { ...inherited, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY };
    });
    after(async () => {
      await svc?.close();
      if (cwd) rmSync(cwd, { recursive: true, force: true });
    });

    for (const d of DOCS) {
      const snippets = shellSnippets(d.text, d.file).filter(runnable);
      if (!snippets.length) continue;
      it(`${d.file}: ${snippets.length} snippet(s)`, async () => {
        expectRanAsPasted(snippets, await runSnippets(snippets, cwd, env));
      });
    }

    it("every capability contract's Run it: the example runs with the owner's key", async () => {
      const keys = svc.switchyard.registry.systems().flatMap((s) => s.capabilities.map((c) => c.key));
      expect(keys.length).to.be.greaterThan(3);
      for (const key of keys) {
        const contract = await (await fetch(`${svc.url}/api/dispatch?key=${key}&format=markdown`)).text();
        const runIt = contract.slice(contract.indexOf('## Run it'));
        const [snippet] = shellSnippets(runIt, `contract ${key}`);
        expect(snippet, key).to.not.equal(undefined);
        for (const q of singleQuoted(snippet!.code)) expect(q, `${key}: '${q}'`).to.not.match(/\$[A-Za-z_{(]/);
        const outcome = await runSnippets([snippet!], cwd, env);
        const run = outcome.runs[0]!;
        expect(outcome.code, `${key}: ${run.stderr}`).to.equal(0);
        // The snippet is right when the service took the request as a run of that key and found
        // nothing wrong with the request itself (credential, envelope, arguments). How the run
        // ends is the capability's business: WEB_FETCH's example fetches example.com, which a
        // loopback-only test cannot reach; an approval or an account's plan may hold a run back.
        expect(run.answers.map((a) => a.status), key).to.have.length(1);
        const answer = JSON.parse(run.stdout) as { ok: boolean; error?: { code: string }; invocation?: { id: string; key: string; error: { code: string } | null } };
        expect(answer.invocation?.key, `${key}: ${run.stdout}`).to.equal(key);
        expect(answer.invocation?.id).to.match(/^inv_/);
        expect(answer.invocation?.error?.code ?? answer.error?.code ?? null, `${key}: ${run.stdout}`).to.not.be.oneOf(REQUEST_FAULTS);
      }
    });
  });
}
