import type { ChatMessage, ImageInput, ToolSpec } from '../../engine/providers/types.js';
import { unsupported } from './errors.js';

/** A client's conversation, read: its system text apart, then the engine's messages. */
export interface ReadConversation {
  system: string[];
  messages: ChatMessage[];
  /** the request path of each message (`messages[3]`) */
  params: string[];
}

const IMAGE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]+$/i;

/** An image by URL as a client sent it: a base64 data URL of a common format, or an http(s) address. */
export function imageInput(url: unknown, detail: unknown, param: string): ImageInput {
  if (typeof url !== 'string' || !(IMAGE_DATA_URL.test(url) || /^https?:\/\/\S+$/i.test(url))) {
    throw unsupported(param, 'An image must be a data URL (data:image/png;base64,... for png, jpeg, gif or webp) or an http(s) URL.');
  }
  return typeof detail === 'string' ? { url, detail } : { url };
}

/** Function names every provider accepts (OpenAI's and Anthropic's rule). */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const EMPTY_SCHEMA = { type: 'object', properties: {} };

/** One client function, checked: a valid unique name and an object schema (an empty one when omitted). */
export function functionSpec(name: unknown, description: unknown, parameters: unknown, param: string, seen: Set<string>): ToolSpec {
  if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) {
    throw unsupported(`${param}.name`, 'A function name must be 1 to 64 letters, digits, underscores or dashes.');
  }
  if (seen.has(name)) throw unsupported(`${param}.name`, `The function \`${name}\` is declared twice.`);
  seen.add(name);
  if (parameters !== undefined && parameters !== null && (typeof parameters !== 'object' || Array.isArray(parameters))) {
    throw unsupported(`${param}.parameters`, 'A function\'s parameters must be a JSON Schema object.');
  }
  const schema = (parameters ?? EMPTY_SCHEMA) as Record<string, unknown>;
  return { name, description: typeof description === 'string' ? description : '', parameters: schema.type === undefined ? { ...schema, type: 'object' } : schema };
}
