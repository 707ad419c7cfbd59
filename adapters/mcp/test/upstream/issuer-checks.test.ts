// The checks an authorization server is held to: its metadata names the issuer it was fetched for
// (RFC 8414 §3.3), and an authorization response's iss names that issuer exactly (RFC 9207).
import { expect } from 'chai';
import { metadataIssuerProblem, responseIssuerProblem } from '../../src/upstream/issuer-checks.js';
import { unionOfScopes } from '../../src/upstream/upstream-auth.js';

const AS = 'https://auth.example.com/tenant1';

describe('responseIssuerProblem (RFC 9207)', () => {
  it('accepts the issuer as the metadata wrote it, advertised or not', () => {
    expect(responseIssuerProblem(AS, true, AS)).to.equal(null);
    expect(responseIssuerProblem(AS, false, AS)).to.equal(null);
  });

  it('accepts an answer without iss from a server that did not say it sends one', () => {
    expect(responseIssuerProblem(AS, false, null)).to.equal(null);
    expect(responseIssuerProblem(undefined, false, null)).to.equal(null);
  });

  it('refuses an answer without iss from a server that said it always sends one', () => {
    expect(responseIssuerProblem(AS, true, null)).to.match(/authorization_response_iss_parameter_supported.*no iss/);
  });

  it('refuses another issuer, whether or not the server advertised iss', () => {
    expect(responseIssuerProblem(AS, true, 'https://evil.example.com')).to.include('https://evil.example.com');
    expect(responseIssuerProblem(AS, false, 'https://evil.example.com')).to.include(`not its authorization server ${AS}`);
  });

  it('compares as written: a trailing slash, case, a default port or percent-encoding is another issuer', () => {
    for (const variant of [`${AS}/`, 'https://AUTH.example.com/tenant1', 'HTTPS://auth.example.com/tenant1', 'https://auth.example.com:443/tenant1', 'https://auth.example.com/%74enant1', '']) {
      expect(responseIssuerProblem(AS, true, variant), variant).to.be.a('string');
    }
  });

  it('refuses an iss when the metadata named no issuer to compare it with', () => {
    expect(responseIssuerProblem(undefined, false, AS)).to.include('named none');
  });
});

describe('metadataIssuerProblem (RFC 8414 §3.3)', () => {
  it('accepts metadata that names the issuer it was fetched for, give or take one trailing slash', () => {
    expect(metadataIssuerProblem(AS, AS)).to.equal(null);
    expect(metadataIssuerProblem('https://auth.example.com/', 'https://auth.example.com')).to.equal(null);
    expect(metadataIssuerProblem('https://auth.example.com', 'https://auth.example.com/')).to.equal(null);
  });

  it('refuses metadata that names another issuer, or none', () => {
    expect(metadataIssuerProblem(AS, 'https://attacker.example.com')).to.include('names the issuer https://attacker.example.com');
    expect(metadataIssuerProblem(AS, 'https://auth.example.com/tenant2')).to.be.a('string');
    expect(metadataIssuerProblem(AS, 'https://auth.example.com')).to.be.a('string');
    expect(metadataIssuerProblem(AS, 'https://AUTH.example.com/tenant1')).to.be.a('string');
    expect(metadataIssuerProblem(AS, undefined)).to.include('names no issuer');
    expect(metadataIssuerProblem(AS, '')).to.include('names no issuer');
  });
});

describe('unionOfScopes (SEP-2350)', () => {
  it('asks for what was granted and what is challenged, each once', () => {
    expect(unionOfScopes('mcp:basic', 'mcp:write')).to.equal('mcp:basic mcp:write');
    expect(unionOfScopes('mcp:basic mcp:write', 'mcp:write')).to.equal('mcp:basic mcp:write');
    expect(unionOfScopes(undefined, 'mcp:write')).to.equal('mcp:write');
    expect(unionOfScopes(undefined, undefined)).to.equal(undefined);
    expect(unionOfScopes('', ' ')).to.equal(undefined);
  });
});
