import type { KeysService } from './keys.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { keyOperations } from '../../contract/keys.js';
import { NotFoundError } from '../../kernel/errors.js';
import { parseId } from '../../kernel/context.js';

/** ext: API key management for the app's Settings (the key itself is shown once). */
export function keyRoutes({ keys }: { keys: KeysService }) {
  const r = createRouter();
  const id = (raw: string) => {
    const n = parseId(raw);
    if (!n) throw new NotFoundError('API key not found');
    return n;
  };
  serveOperations(r, keyOperations, {
    listKeys: ({ userId }) => ({ data: keys.list(userId) }),
    createKey: ({ userId, body }) => {
      const { key, info } = keys.create(userId, body.name);
      return { ...info, key };
    },
    revokeKey: ({ userId, params }) => keys.revoke(userId, id(params.id)),
  });
  return r;
}
