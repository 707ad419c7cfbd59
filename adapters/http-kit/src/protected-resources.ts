// The protected resources of this service (RFC 9728): /mcp and each virtual server, /mcp/servers/<name>
// and /mcp/v/<name>, each with the keys of its tools. A resource's URL is the base URL (PUBLIC_BASE_URL
// or the request's own) and its path; its metadata is at /.well-known/oauth-protected-resource<path>.
import type { Request } from 'express';
import type { ProtectedResource } from '@switchyard/core';
import { baseUrlOf } from './base-url.js';
import type { Needs } from './context.js';

export type ResourceCtx = Needs<'mcp' | 'publicBaseUrl' | 'registry' | 'upstreams'>;

export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** The default resource: the MCP server of every capability. */
export const MCP_PATH = '/mcp';

/** The keys a resource path offers as tools, or null when the path is not a resource here. */
export function keysOfPath(ctx: ResourceCtx, path: string): string[] | null {
  if (path === MCP_PATH) return ctx.registry.list().map((c) => c.key);
  const m = /^\/mcp\/(servers|v)\/([^/]+)$/.exec(path);
  if (!m) return null;
  let name: string;
  try {
    name = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  if (m[1] === 'servers') return ctx.upstreams.keysOf(name)?.filter((k) => ctx.registry.has(k)) ?? null;
  const curated = Object.hasOwn(ctx.mcp.virtualServers, name) ? ctx.mcp.virtualServers[name] : undefined;
  return curated ? curated.tools.flatMap((k) => ctx.registry.keyOf(k) ?? []) : null;
}

/** The resource a URL names, when it is one of this service's (same base URL, a resource path). */
export function resourceAt(ctx: ResourceCtx, base: string, url: string): ProtectedResource | null {
  let parsed: URL;
  let root: URL;
  try {
    parsed = new URL(url);
    root = new URL(base);
  } catch {
    return null;
  }
  if (parsed.origin !== root.origin || parsed.search || parsed.hash) return null;
  const prefix = root.pathname.replace(/\/$/, '');
  if (!parsed.pathname.startsWith(`${prefix}/`)) return null;
  const path = parsed.pathname.slice(prefix.length).replace(/\/$/, '');
  const keys = keysOfPath(ctx, path);
  return keys ? { resource: `${base}${path}`, keys } : null;
}

/** The resource a request to an MCP face is for: its base URL and path, without a trailing slash. */
export const requestResource = (req: Request, ctx: Pick<ResourceCtx, 'publicBaseUrl'>): { resource: string; path: string } => {
  const path = req.path.replace(/\/$/, '') || MCP_PATH;
  return { resource: `${baseUrlOf(req, ctx.publicBaseUrl)}${path}`, path };
};

/** Where a resource's metadata is (RFC 9728 §3.1: the well-known path, then the resource's path). */
export const metadataUrlOf = (base: string, path: string): string => `${base}${PRM_PATH}${path}`;
