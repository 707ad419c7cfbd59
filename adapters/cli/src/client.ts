// The HTTP client the CLI commands use: the server URL and API key, and coded errors.
export interface ClientOptions {
  url: string;
  apiKey: string | undefined;
}

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export class SwitchyardClient {
  constructor(private readonly options: ClientOptions) {}

  get baseUrl(): string {
    return this.options.url.replace(/\/$/, '');
  }

  /** True when an API key was given. */
  get hasCredential(): boolean {
    return this.options.apiKey !== undefined && this.options.apiKey !== '';
  }

  /** A raw body, byte for byte, read with the API key (a delivery's stored body). */
  async bytes(path: string): Promise<Uint8Array> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, { headers: { 'x-sheets-key': this.options.apiKey! } });
    } catch (err) {
      throw new CliError('unreachable', `cannot reach ${this.baseUrl}: ${(err as Error).message}`);
    }
    if (!res.ok) throw new CliError(`http_${res.status}`, `GET ${path} answered ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** A request with the API key; `credential: false` for the public reads (confirm, proven-work). */
  async request<T>(method: string, path: string, body?: unknown, { credential = true }: { credential?: boolean } = {}): Promise<T> {
    if (credential && !this.options.apiKey) throw new CliError('credential_required', 'no API key: pass --key or set SWITCHYARD_API_KEY');
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { ...(credential ? { 'x-sheets-key': this.options.apiKey! } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new CliError('unreachable', `cannot reach ${this.baseUrl}: ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`);
    }
    const text = await res.text();
    let json: { ok?: boolean; error?: { code: string; message: string } } & Record<string, unknown>;
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw new CliError('bad_response', `${method} ${path} answered ${res.status} with non-JSON`);
    }
    if (!res.ok) throw new CliError(json.error?.code ?? `http_${res.status}`, json.error?.message ?? `${method} ${path} answered ${res.status}`);
    return json as T;
  }
}
