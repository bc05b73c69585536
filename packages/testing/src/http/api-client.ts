import { recordObserved } from '../secrets/secret-registry.js';

/** A response as tests look at it: status and parsed JSON (or text when the body is not JSON). */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Plain-HTTP client for end-to-end tests, holding the credentials of one caller. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  as(credentials: { token?: string; apiKey?: string }): ApiClient {
    return new ApiClient(this.baseUrl, {
      ...(credentials.token ? { authorization: `Bearer ${credentials.token}` } : {}),
      ...(credentials.apiKey ? { 'x-api-key': credentials.apiKey } : {}),
    });
  }

  get authHeaders(): Record<string, string> {
    return { ...this.headers };
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const raw = typeof body === 'string';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extraHeaders,
      },
      ...(body === undefined ? {} : { body: raw ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    // A creation may show its secret once (a new API key); what reads return must never contain one.
    if (method === 'GET') recordObserved(`GET ${path} ${response.status}`, text);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }

  /** Logs in through `/api/auth/login` and returns a client carrying the token. */
  async login(username: string, password: string): Promise<ApiClient> {
    const response = await this.post<{ token: string }>('/api/auth/login', { username, password });
    if (response.status !== 200)
      throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    return this.as({ token: response.body.token });
  }
}
