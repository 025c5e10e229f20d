import type { Principal } from '../../kernel/context.js';

/** Hono environment of the platform app. */
export interface AppEnv {
  Bindings: {
    /**
     * Set only by in-process callers (the desktop bridge) through `app.fetch(req, env)`:
     * HTTP clients cannot forge it, unlike a header.
     */
    trustedPrincipal?: Principal;
    /** Present when served by @hono/node-server. */
    incoming?: import('node:http').IncomingMessage;
  };
  Variables: {
    principal: Principal;
  };
}
