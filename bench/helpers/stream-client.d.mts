export interface StreamRequest {
  door: 'direct' | 'chat' | 'responses' | 'messages';
  url: string;
  headers: Record<string, string>;
  body: unknown;
}
export interface StreamTiming {
  /** ms from the send to the first text delta, and to the end */
  first: number;
  done: number;
  text: string;
  /** absolute (performance.timeOrigin + now) */
  sentAt: number;
  textAt: number;
}
export function timeStream(req: StreamRequest): Promise<StreamTiming>;
