// An authorization server is held to the issuer it names. Two checks, both pure: the metadata
// document names the server it was fetched for (RFC 8414 §3.3), and an authorization response says
// which server sent it (RFC 9207), so a code from another server (a mix-up) is never exchanged.

/**
 * Why metadata whose `issuer` is `claimed` cannot belong to the authorization server `fetchedFor`
 * (the identifier the well-known URL was built from), or null when it can. Compared as written,
 * but for one trailing slash: the well-known URL is built alike with or without it, and a URL read
 * back from a parser (the legacy fallback's origin) gains one.
 */
export function metadataIssuerProblem(fetchedFor: string, claimed: unknown): string | null {
  if (typeof claimed !== 'string' || claimed === '') return `its authorization server metadata (fetched for ${fetchedFor}) names no issuer`;
  const bare = (s: string) => (s.endsWith('/') ? s.slice(0, -1) : s);
  if (bare(claimed) === bare(fetchedFor)) return null;
  return `its authorization server metadata was fetched for ${fetchedFor} but names the issuer ${claimed} (RFC 8414 §3.3): not used`;
}

/**
 * Why an authorization response with `iss` (null when absent) cannot be from the authorization
 * server whose metadata named `issuer`, or null when it can. A present iss must equal the issuer
 * exactly, with no URL normalization (RFC 9207 §2.4: simple string comparison), whether or not the
 * server advertised it; an absent one is refused only when the server said it always sends it.
 */
export function responseIssuerProblem(issuer: string | undefined, advertised: boolean, iss: string | null): string | null {
  if (iss === null) return advertised ? `its authorization server says it names itself in every answer (authorization_response_iss_parameter_supported), and this answer has no iss (RFC 9207)` : null;
  if (issuer === undefined) return `this answer names the issuer ${iss} and the authorization server's metadata named none to compare it with (RFC 9207)`;
  if (iss !== issuer) return `this answer names the issuer ${iss}, not its authorization server ${issuer} (RFC 9207): it may come from another server, and its code is not used`;
  return null;
}
