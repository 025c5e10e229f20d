import { PlatformError } from '../../kernel/errors.js';

/**
 * An error of the gateway that already knows its OpenAI-style `type`, `code` and `param` (e.g.
 * `model_not_found`): OpenAI's dialect writes them as they are, Anthropic's reads the same fields.
 */
export class OpenAIError extends PlatformError {
  constructor(
    status: number,
    message: string,
    readonly type: string,
    /** OpenAI's `code` (null where OpenAI sends null); the platform's `code` falls back to `openai_error`. */
    readonly openaiCode: string | null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, message, openaiCode ?? 'openai_error');
  }
}

export const modelNotFound = (model: string) =>
  new OpenAIError(404, `The model \`${model}\` does not exist or you do not have access to it. GET /v1/models lists the agents and models you can use.`, 'invalid_request_error', 'model_not_found', 'model');

export const unsupported = (param: string, message: string) => new OpenAIError(400, message, 'invalid_request_error', 'unsupported_value', param);
