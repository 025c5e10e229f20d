import { ValidationError } from './errors.js';

/**
 * The kept-secret rule (CONTRACT.md "Secrets, side effects, files on disk"): a stored secret (a
 * provider, remote or embeddings key, an MCP server's env values or headers) is used only with the
 * destination it was entered for. A change of destination that keeps the stored secret without it
 * being entered again is refused, 422 naming the field that moved it. Every settings writer that
 * keeps a secret checks it here, so there is one rule.
 */
export interface KeptSecret {
  /** a secret is stored and would be kept */
  kept: boolean;
  /** the request gives the secret again (or removes it) */
  given: boolean;
  /** the field whose change moves the destination, or null when nothing moved */
  moved: string | null;
}

export function keepSecretOnlyWhereEntered(k: KeptSecret, sentence: (field: string) => string): void {
  if (k.kept && !k.given && k.moved) throw ValidationError.field(k.moved, sentence(k.moved));
}
