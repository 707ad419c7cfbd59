// What an upstream says changed, and the resource subscriptions callers hold on it: its tool list
// and its subscribed resources (in either era) go to whoever listens; the resources subscribed on a
// connection are renewed on the next one after a drop, so their updates keep coming.
import type { UpstreamAddress } from '@switchyard/core';
import { AnyResult } from './tool-results.js';
import type { UpstreamConnection } from './upstream-connection.js';

export class UpstreamSubscriptions {
  private readonly toolListListeners = new Set<(upstream: UpstreamAddress) => void>();
  private readonly resourceListeners = new Set<(upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>) => void>();
  /** Resource URIs subscribed on each connection key: renewed on the next connection after a drop. */
  private readonly subscribed = new Map<string, Set<string>>();

  onToolListChanged(listener: (upstream: UpstreamAddress) => void): () => void {
    this.toolListListeners.add(listener);
    return () => this.toolListListeners.delete(listener);
  }

  onResourceUpdated(listener: (upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  /** Remembers what a forwarded resources/subscribe or unsubscribe did, so a new connection can renew it. */
  note(key: string, method: string, params: Record<string, unknown> | undefined): void {
    const uri = params?.['uri'];
    if (typeof uri !== 'string' || (method !== 'resources/subscribe' && method !== 'resources/unsubscribe')) return;
    let uris = this.subscribed.get(key);
    if (method === 'resources/subscribe') {
      if (!uris) this.subscribed.set(key, (uris = new Set()));
      uris.add(uri);
    } else if (uris?.delete(uri) && uris.size === 0) {
      this.subscribed.delete(key);
    }
  }

  /**
   * A new connection (the upstream restarted, or its session went stale) starts with no
   * subscriptions: those its callers still hold are sent again, so their updates keep coming.
   */
  renew(key: string, client: UpstreamConnection, timeoutMs: number): void {
    for (const uri of this.subscribed.get(key) ?? []) {
      client.request({ method: 'resources/subscribe', params: { uri } }, AnyResult as never, { timeout: timeoutMs }).catch(() => {});
    }
  }

  /** An upstream said its tools changed (a 2025 notification, or on a 2026 listen stream): its listeners hear it. */
  toolListChanged(upstream: UpstreamAddress): void {
    for (const listener of this.toolListListeners) listener(upstream);
  }

  /** An upstream said a subscribed resource changed, in either era. */
  resourceUpdated(upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>): void {
    for (const listener of this.resourceListeners) listener(upstream, params);
  }
}
