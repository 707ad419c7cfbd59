// What the upstream client uses of one connection to an upstream, whichever protocol era it speaks:
// the v1 SDK's Client (2024-11-05 … 2025-11-25, after initialize) satisfies it as it is, and
// ModernUpstreamConnection (2026-07-28, on the v2 SDK) adapts to it.

/** Per-request options, as both SDKs take them. */
export interface UpstreamRequestOptions {
  timeout: number;
  signal?: AbortSignal;
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** 2026-07-28 only: an InputRequiredResult is returned as it is, not fulfilled through the connection's handlers. */
  allowInputRequired?: boolean;
}

export interface UpstreamConnection {
  listTools(params: { cursor?: string }, options: UpstreamRequestOptions): Promise<{ tools: unknown[]; nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }, resultSchema: undefined, options: UpstreamRequestOptions): Promise<unknown>;
  request(request: { method: string; params?: Record<string, unknown> }, resultSchema: never, options: UpstreamRequestOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
}
