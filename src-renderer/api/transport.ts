/** What the client needs from a way of reaching the platform: the bridge in Electron, HTTP in a browser. */
export interface RawResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
}

export interface RequestInit {
  method: string;
  /** Path and query, starting with `/api`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | ArrayBuffer;
}

export interface StreamHandlers {
  onChunk(text: string): void;
  signal?: AbortSignal;
}

export interface UploadHandlers {
  /** Bytes sent so far and the total, when the transport can tell. */
  onProgress?(sent: number, total: number): void;
  signal?: AbortSignal;
}

export interface Transport {
  readonly kind: 'bridge' | 'http';
  request(req: RequestInit): Promise<RawResponse>;
  /** Sends a request and feeds the body text to `onChunk` as it arrives; resolves with the status when it ends. */
  stream(req: RequestInit, h: StreamHandlers): Promise<{ status: number; text?: string }>;
  upload(path: string, form: FormData, h: UploadHandlers): Promise<RawResponse>;
}
